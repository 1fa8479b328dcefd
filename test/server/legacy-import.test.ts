import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { isLegacyJournal } from '../../src/server/state/legacy-import.js';
import { tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';

/**
 * A --data journal written by kb serve before its state moved to SQLite (#34), made by
 * test/fixtures/legacy-journal/make.mjs: the first start imports it, and every record is
 * there, through the API, as it was.
 */
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'legacy-journal');

interface Expected {
  dataFile: string;
  keys: { demo: string; acme: string };
  workspaces: { demo: string; acme: string };
  users: { workspaceId: string; id: string; email: string }[];
  threads: { demo: string[]; questions: string; renamed: { id: string; title: string; status: string } };
  messages: {
    questionsThread: string[];
    answer: { id: string; sources: string[] };
    completedReply: { id: string; content: string };
    interruptedReply: { id: string; textSoFar: string };
    withdrawnReply: string;
  };
  files: {
    id: string;
    workspaceId: string;
    name: string;
    status: string;
    chunkCount: number;
    indexingError: { code: string; message: string } | null;
    pages?: number[];
    deleted?: true;
  }[];
  deletedFile: string;
  webhooks: { kept: string; deleted: string };
  question: { text: string; answeredBy: string; fileId: string; words: string[] };
  pdf: { id: string; pages: number };
  failed: { id: string };
  uploads: string[];
}
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Expected;

let dataFile: string;
let server: RunningServer;
const demo = (method: string, path: string, body?: unknown) =>
  api(server, expected.keys.demo, method, path, body);

beforeAll(async () => {
  const dir = tempDir('kb-legacy-');
  for (const name of readdirSync(FIXTURE))
    if (name.startsWith(expected.dataFile)) cpSync(join(FIXTURE, name), join(dir, name), { recursive: true });
  dataFile = join(dir, expected.dataFile);
  // No keys given: the journal's own are the only ones.
  server = await startTestServer({ dataFile });
});
afterAll(() => server?.close());

describe('a journal written before the database, at the first start', () => {
  it('is imported: the database takes its place, the old files are kept as .bak, the uploads stay', () => {
    expect(isLegacyJournal(dataFile)).toBe(false);
    expect(readFileSync(dataFile).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(readFileSync(`${dataFile}.bak`).equals(readFileSync(join(FIXTURE, expected.dataFile)))).toBe(true);
    expect(existsSync(`${dataFile}.index.bak`)).toBe(true);
    expect(existsSync(`${dataFile}.vectors.bak`)).toBe(true);
    expect(readdirSync(`${dataFile}.uploads`).sort()).toEqual(expected.uploads);
  });

  it('keeps its API keys, each to its workspace', async () => {
    expect((await demo('GET', '/v1/threads')).status).toBe(200);
    expect((await api(server, expected.keys.acme, 'GET', '/v1/threads')).status).toBe(200);
    expect((await api(server, 'kb_not_a_key', 'GET', '/v1/threads')).status).toBe(401);
  });

  it('keeps the users of each workspace', async () => {
    for (const [name, key] of Object.entries(expected.keys)) {
      const workspaceId = expected.workspaces[name as keyof Expected['workspaces']];
      const users = (await api(server, key, 'GET', '/v1/users?limit=100')).json.data as { id: string }[];
      expect(users.map((u) => u.id).sort()).toEqual(
        expected.users
          .filter((u) => u.workspaceId === workspaceId)
          .map((u) => u.id)
          .sort(),
      );
    }
  });

  it('keeps the threads, a title changed and a status changed', async () => {
    const threads = (await demo('GET', '/v1/threads?limit=100')).json.data as { id: string }[];
    expect(threads.map((t) => t.id).sort()).toEqual([...expected.threads.demo].sort());
    const renamed = (await demo('GET', `/v1/threads/${expected.threads.renamed.id}`)).json.data;
    expect(renamed).toMatchObject({
      title: expected.threads.renamed.title,
      status: expected.threads.renamed.status,
    });
  });

  it('keeps the messages: a reply, a completed generation, an interrupted one as far as it got, not a withdrawn one', async () => {
    const { messages } = (await demo('GET', `/v1/threads/${expected.threads.questions}`)).json.data as {
      messages: { id: string; content: string; sources?: string[]; incomplete?: true; inProgress?: true }[];
    };
    expect(messages.map((m) => m.id)).toEqual(expected.messages.questionsThread);
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(expected.messages.answer.id)!.sources).toEqual(expected.messages.answer.sources);
    const completed = byId.get(expected.messages.completedReply.id)!;
    expect(completed.content).toBe(expected.messages.completedReply.content);
    expect(completed.incomplete).toBeUndefined();
    const interrupted = byId.get(expected.messages.interruptedReply.id)!;
    expect(interrupted.content).toBe(expected.messages.interruptedReply.textSoFar);
    expect(interrupted.incomplete).toBe(true);
    expect(interrupted.inProgress).toBeUndefined();
    expect(byId.has(expected.messages.withdrawnReply)).toBe(false);
  });

  it('keeps the files with their status, chunks and failures; not the deleted one', async () => {
    const listed = (await demo('GET', '/v1/files?limit=100')).json.data as { id: string }[];
    const kept = expected.files.filter((f) => f.workspaceId === expected.workspaces.demo && !f.deleted);
    expect(listed.map((f) => f.id).sort()).toEqual(kept.map((f) => f.id).sort());
    for (const file of kept) {
      const detail = (await demo('GET', `/v1/files/${file.id}`)).json.data;
      expect(detail, file.name).toMatchObject({
        originalFilename: file.name,
        indexingStatus: file.status,
        chunkCount: file.chunkCount,
        indexingError: file.indexingError,
      });
    }
    const failed = (await demo('GET', `/v1/files/${expected.failed.id}`)).json.data;
    expect(failed.indexingStatus).toBe('FAILED');
    expect(failed.indexingError.code).toBe('parse_error');
    expect((await demo('GET', `/v1/files/${expected.deletedFile}`)).status).toBe(404);
  });

  it('searches the chunks: a PDF by its pages, both parts of a file indexed in parts, never a deleted file', async () => {
    const pdf = (await demo('GET', `/v1/search?q=${encodeURIComponent('canteen soup Thursdays')}`)).json;
    expect(pdf.data[0]).toMatchObject({ fileId: expected.pdf.id, pages: [2, 2] });
    for (const rule of ['rule 3 of the handbook', 'rule 170 of the handbook']) {
      const hit = (await demo('GET', `/v1/search?q=${encodeURIComponent(rule)}`)).json.data[0];
      expect(hit.fileId, rule).toBe(expected.question.fileId);
      expect(hit.text, rule).toContain(rule);
    }
    const deleted = (await demo('GET', `/v1/search?q=${encodeURIComponent('draft deleted again')}`)).json;
    expect(deleted.data.map((h: { fileId: string }) => h.fileId)).not.toContain(expected.deletedFile);
  });

  it('answers a question from the imported files, citing the one that holds the answer', async () => {
    const sent = await demo('POST', `/v1/threads/${expected.threads.questions}/messages`, {
      content: expected.question.text,
    });
    expect(sent.status).toBe(201);
    const reply = sent.json.data.aiResponse as { content: string; sources: string[] };
    expect(reply.sources).toEqual([expected.question.answeredBy]);
    for (const word of expected.question.words) expect(reply.content).toContain(word);
  });

  it('keeps the webhooks, not the deleted one', async () => {
    const hooks = (await demo('GET', '/v1/webhooks?limit=100')).json.data as { id: string }[];
    expect(hooks.map((h) => h.id)).toEqual([expected.webhooks.kept]);
    expect((await demo('GET', `/v1/webhooks/${expected.webhooks.deleted}`)).status).toBe(404);
  });

  it('is not imported again at the next start: the database is the state', async () => {
    const threads = (await demo('GET', '/v1/threads?limit=100')).json.data as { id: string }[];
    await server.close();
    const bak = readFileSync(`${dataFile}.bak`);
    server = await startTestServer({ dataFile });
    expect(
      ((await demo('GET', '/v1/threads?limit=100')).json.data as { id: string }[]).map((t) => t.id),
    ).toEqual(threads.map((t) => t.id));
    const { messages } = (await demo('GET', `/v1/threads/${expected.threads.questions}`)).json.data;
    // The question asked after the import is kept; the imported messages are not there twice.
    expect(messages).toHaveLength(expected.messages.questionsThread.length + 2);
    expect(readFileSync(`${dataFile}.bak`).equals(bak)).toBe(true);
    expect(readdirSync(join(dataFile, '..')).filter((n) => n.includes('.bak'))).toHaveLength(3);
  });
});
