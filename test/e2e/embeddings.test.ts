import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKb } from '../helpers/cli.js';
import { type FakeEmbeddings, fakeEmbeddingsServer } from '../helpers/fake-embeddings.js';
import { docsFolder } from '../helpers/documents.js';
import { startServeProcess } from '../helpers/serve-process.js';

const DOCS = {
  'benefits.md': '# Benefits\n\nParental leave is sixteen weeks at full pay.',
  'canteen.md': '# Canteen\n\nThe canteen serves soup every weekday.',
  'backups.md': '# Backups\n\nBackups run nightly at 2 am and are kept for 30 days.',
};
/** Shares no word with benefits.md: only its meaning leads there. */
const PARAPHRASE = 'How much time off do new mothers and fathers get?';
const KEY = 'kb_embed_test';

let fake: FakeEmbeddings;
beforeAll(async () => {
  fake = await fakeEmbeddingsServer();
});
afterAll(() => fake.close());

async function serveUntil(dir: string, args: string[], until: RegExp) {
  const serve = await startServeProcess(dir, ['--index-delay', '0', ...args], {
    KB_SERVE_API_KEYS: `default:${KEY}`,
  });
  const env = { KB_BASE_URL: serve.url, KB_API_KEY: KEY };
  await expect.poll(serve.stderr, { timeout: 15_000 }).toMatch(until);
  const ask = async (question: string) => {
    const thread = (await runKb(['threads', 'create', '--ids'], { env, configDir: dir })).stdout.trim();
    const res = await runKb(['threads', 'send', thread, question, '--json'], { env, configDir: dir });
    expect(res.code).toBe(0);
    return JSON.parse(res.stdout).aiResponse as { content: string; sources: string[] };
  };
  const stop = async () => {
    const exited = new Promise((resolve) => serve.child.on('exit', resolve));
    serve.child.kill('SIGINT');
    await exited;
    return serve.stderr();
  };
  return { env, ask, stop, stderr: serve.stderr };
}

describe('kb serve --embed-base-url: retrieval by meaning', () => {
  it('finds a paraphrase with no word in common through the embeddings endpoint, and not without it', async () => {
    const { dir, docs } = docsFolder(DOCS);
    const lexical = await serveUntil(dir, ['--docs', docs], /"event":"indexed"/);
    try {
      expect((await lexical.ask(PARAPHRASE)).sources).toEqual([]);
    } finally {
      await lexical.stop();
    }
    const semantic = await serveUntil(
      dir,
      ['--docs', docs, '--embed-base-url', fake.url],
      /"event":"indexed"/,
    );
    try {
      const reply = await semantic.ask(PARAPHRASE);
      expect(reply.sources).toEqual(['benefits.md']);
      expect(reply.content).toMatch(/^Parental leave is sixteen weeks at full pay\./);
      // Keywords still find their document, and an unrelated question still cites nothing.
      expect((await semantic.ask('How long are backups kept?')).sources).toEqual(['backups.md']);
      expect((await semantic.ask('Who is the CEO?')).sources).toEqual([]);
    } finally {
      await semantic.stop();
    }
  }, 60_000);

  it('keeps the vectors in the database across a restart, embeds again for another model; a deleted file leaves both indexes', async () => {
    const { dir, docs, data } = docsFolder(DOCS);
    const args = ['--docs', docs, '--data', data, '--embed-base-url', fake.url];
    let serve = await serveUntil(dir, args, /"event":"indexed"/);
    // COMPLETED only once the vectors are made: the chunks were embedded before indexed was said.
    expect(fake.inputs()).toBeGreaterThanOrEqual(3);
    await serve.stop();

    // Stored with their chunks: nothing is embedded again at the start.
    const before = fake.inputs();
    serve = await serveUntil(dir, args, /^/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fake.inputs()).toBe(before);
    expect((await serve.ask(PARAPHRASE)).sources).toEqual(['benefits.md']);
    await serve.stop();

    // Another model's vectors are not compared with this one's: every chunk is embedded again.
    const again = fake.inputs();
    serve = await serveUntil(dir, [...args, '--embed-model', 'other-model'], /^/);
    await expect.poll(() => fake.inputs()).toBeGreaterThanOrEqual(again + 3);
    expect((await serve.ask(PARAPHRASE)).sources).toEqual(['benefits.md']);

    const files = JSON.parse(
      (await runKb(['files', 'list', '--json'], { env: serve.env, configDir: dir })).stdout,
    );
    const benefits = files.find((f: { originalFilename: string }) => f.originalFilename === 'benefits.md');
    expect(
      (await runKb(['files', 'delete', benefits.id, '--yes'], { env: serve.env, configDir: dir })).code,
    ).toBe(0);
    expect((await serve.ask(PARAPHRASE)).sources).toEqual([]);
    await serve.stop();
  }, 60_000);

  it('goes on with BM25 alone when the endpoint fails, said once on the console, and again when it is back', async () => {
    const { dir, docs } = docsFolder(DOCS);
    const serve = await serveUntil(
      dir,
      ['--docs', docs, '--embed-base-url', fake.url, '--embed-cool-down', '1ms'],
      /"event":"indexed"/,
    );
    try {
      fake.failing(true);
      expect((await serve.ask('How long are backups kept?')).sources).toEqual(['backups.md']);
      expect((await serve.ask(PARAPHRASE)).sources).toEqual([]);
      expect(
        serve
          .stderr()
          .match(
            /embeddings http:\/\/127\.0\.0\.1:\d+\/v1: answered 503; retrieval is BM25 alone until it answers/g,
          ),
      ).toHaveLength(1);
      fake.failing(false);
      expect((await serve.ask(PARAPHRASE)).sources).toEqual(['benefits.md']);
      expect(serve.stderr()).toMatch(/answering again; semantic retrieval is back/);
    } finally {
      fake.failing(false);
      await serve.stop();
    }
  }, 60_000);
});
