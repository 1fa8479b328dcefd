import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, runKbOnTTY, stripAnsi, tempDir } from '../helpers/cli.js';
import { makePdf } from '../helpers/documents.js';
import { hostileServer } from '../helpers/hostile.js';
import { getJson } from '../helpers/http.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { api, startTestServer } from '../helpers/server.js';
import { startReceiver } from '../helpers/receiver.js';
import { itWith } from '../helpers/tools.js';

let server: RunningServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ demo: true, maxFileBytes: 64 * 1024 });
  env = { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! };
});
afterAll(() => server.close());

function file(name: string, content: string | Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, content);
  return path;
}
const filesNamed = (name: string) =>
  server.service.store.everyFile().filter((f) => f.originalFilename === name && !f.deletedAt);

/** Waits for `check` to hold: the folder's watcher gives the test no event to wait on. */
async function until(check: () => boolean, ms = 15_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('kb files upload --wait against kb serve', () => {
  it('checks again soon at first, so a file indexed at once is not waited on for a whole --interval', async () => {
    const path = file('quick-note.md', 'Parking passes are renewed every January.\n');
    const began = performance.now();
    const res = await runKb(
      ['files', 'upload', path, '--wait', '--interval', '30s', '--timeout', '20s', '--ids'],
      {
        env,
      },
    );
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.stdout.trim()).toMatch(/^file_/);
    // The interval is the longest time between checks: the old code checked again only after
    // min(interval, timeout) = 20 s.
    expect(performance.now() - began).toBeLessThan(10_000);
  }, 40_000);
});

describe('kb files get by name against kb serve', () => {
  it('shows the one file of a name; two of it ask for an id (exit 2); a name nobody has, exit 3 (not found)', async () => {
    const path = file('leave-policy.md', 'Annual leave is 25 days.\n');
    const first = await runKb(['files', 'upload', path, '--wait', '--interval', '100ms', '--ids'], { env });
    expect(first.code).toBe(0);
    const id = first.stdout.trim().split('\n')[0]!;
    const got = await runKb(['files', 'get', 'leave-policy.md', '--json'], { env });
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, originalFilename: 'leave-policy.md' });
    const again = await runKb(['files', 'upload', path, '--ids'], { env });
    const second = again.stdout.trim();
    const twice = await runKb(['files', 'get', 'leave-policy.md'], { env });
    expect(twice.code).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toContain('2 files are named leave-policy.md');
    expect(twice.stderr).toMatch(new RegExp(`give one's id: (${id}, ${second}|${second}, ${id})\\n`));
    const none = await runKb(['files', 'get', 'no-such-policy.md'], { env });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no file has the id or name no-such-policy.md');
  });
});

describe('kb files upload against kb serve', () => {
  it('prints each id when piped; --wait follows indexing; the assistant then cites the file', async () => {
    const notes = file(
      'garage-notes.txt',
      'The parking garage opens at 6 am on weekdays and 9 am on Sundays.\n',
    );
    const manual = file(
      'manual.pdf',
      makePdf([['Chapter one.'], ['The badge reader resets every night at 2 am.']]),
    );
    const res = await runKb(['files', 'upload', notes, manual, '--wait', '--interval', '100ms'], { env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const [first, second, ...changes] = res.stdout.trim().split('\n');
    expect(first).toMatch(/^file_\w+$/);
    expect(second).toMatch(/^file_\w+$/);
    expect(changes.at(-1)).toMatch(/^file_\w+\tCOMPLETED\t(garage-notes.txt|manual.pdf)$/);
    expect(server.service.store.storedFile(first!)).toMatchObject({
      originalFilename: 'garage-notes.txt',
      indexingStatus: 'COMPLETED',
    });
    const thread = await runKb(['threads', 'create', '--ids'], { env });
    const answer = await runKb(
      ['threads', 'send', thread.stdout.trim(), 'When does the badge reader reset?', '--json'],
      {
        env,
      },
    );
    const reply = JSON.parse(answer.stdout).aiResponse;
    expect(reply.content).toContain('2 am');
    expect(reply.sources).toEqual(['manual.pdf p. 2']);
  });

  it('an upload is a file like any other: file.indexed is delivered to webhooks, signed', async () => {
    const local = await startTestServer({ demo: true, allowLocalWebhooks: true });
    const receiver = await startReceiver();
    try {
      const key = local.keys.demo!;
      await api(local, key, 'POST', '/v1/webhooks', { url: receiver.url, events: ['file.indexed'] });
      const res = await runKb(['files', 'upload', file('hooked.txt', 'Webhooks hear of uploads.\n')], {
        env: { KB_BASE_URL: local.url, KB_API_KEY: key },
      });
      const id = res.stdout.trim();
      await expect
        .poll(() => receiver.got.map((g) => JSON.parse(g.body)).find((e) => e.data?.fileId === id), {
          timeout: 10_000,
        })
        .toMatchObject({
          type: 'file.indexed',
          data: { originalFilename: 'hooked.txt', indexingStatus: 'COMPLETED' },
        });
      expect(receiver.got[0]!.headers['service-signature']).toBeTruthy();
    } finally {
      await receiver.close();
      await local.close();
    }
  });

  itWith('script')('says what it uploaded on a terminal', async () => {
    const res = await runKbOnTTY(['files', 'upload', file('tty.txt', 'Terminal upload.\n')], { env });
    expect(res.code).toBe(0);
    expect(stripAnsi(res.stdout)).toMatch(/Uploaded tty\.txt: file_\w+ \(PENDING\)/);
  });

  itWith('script')('shows a progress bar on a terminal while a file is sent', async () => {
    // A service that reads the body slowly (64 KiB every 20 ms), as a far one would.
    const slow = createServer((req, res) => {
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        req.pause();
        setTimeout(() => req.resume(), 20);
      });
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            data: {
              id: 'file_slow',
              originalFilename: 'slow.txt',
              fileSize: size,
              indexingStatus: 'PENDING',
            },
          }),
        );
      });
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const res = await runKbOnTTY(
        ['files', 'upload', file('slow.txt', Buffer.alloc(6 * 1024 * 1024, 'a'))],
        {
          env: { KB_BASE_URL: url, KB_API_KEY: 'kb_test_0123456789abcdef' },
        },
      );
      expect(res.code).toBe(0);
      const screen = stripAnsi(res.stdout);
      expect(screen).toMatch(/Uploading slow\.txt {2}\[#*\.+\] \d+% {2}\S+ \S+ of 6\.3 MB/);
      expect(screen).toContain('Uploaded slow.txt: file_slow (PENDING)');
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });

  it('a text file of no known extension (NEWS) is uploaded and indexed as text/plain; a binary one FAILs unsupported_type', async () => {
    const news = file('NEWS', 'Version 3.2\n\n* The kiosk printer now prints visitor badges in colour.\n');
    const program = file('kioskd', readFileSync('/bin/true'));
    const res = await runKb(['files', 'upload', news, program, '--wait', '--interval', '100ms'], { env });
    expect(res.stderr).toMatch(/kioskd.*unsupported_type/);
    expect(res.code).toBe(1);
    expect(filesNamed('NEWS')[0]).toMatchObject({ indexingStatus: 'COMPLETED', mimeType: 'text/plain' });
    expect(filesNamed('kioskd')[0]).toMatchObject({
      indexingStatus: 'FAILED',
      mimeType: 'application/octet-stream',
      indexingError: { code: 'unsupported_type' },
    });
    const thread = await runKb(['threads', 'create', '--ids'], { env });
    const answer = await runKb(
      ['threads', 'send', thread.stdout.trim(), 'What does the kiosk printer print?', '--json'],
      { env },
    );
    const reply = JSON.parse(answer.stdout).aiResponse;
    expect(reply.content).toContain('visitor badges in colour');
    expect(reply.sources).toEqual(['NEWS']);
  });

  it('a file over the limit is refused with the limit, the others uploaded and listed (exit 1)', async () => {
    const big = file('big.txt', Buffer.alloc(100 * 1024, 'a'));
    const small = file('small-ok.txt', 'Small and fine.\n');
    const res = await runKb(['files', 'upload', big, small, '--json'], { env });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).map((f: { originalFilename: string }) => f.originalFilename)).toEqual([
      'small-ok.txt',
    ]);
    expect(res.stderr).toContain('the file is 100 KiB, over the limit of 64 KiB (kb serve --max-file-size)');
    expect(filesNamed('big.txt')).toHaveLength(0);
  });

  it('files wait --all fails (exit 1) on a file that FAILED before the wait began, naming it', async () => {
    const ci = await startTestServer({ apiKeys: ['ci:kb_ci_wait_key'] });
    try {
      const ciEnv = { KB_BASE_URL: ci.url, KB_API_KEY: 'kb_ci_wait_key' };
      const good = file('release-notes.txt', 'Version 2 adds single sign-on.\n');
      const broken = file('broken.pdf', '%PDF-1.7\nnot really a PDF\n');
      expect((await runKb(['files', 'upload', good, broken], { env: ciEnv })).code).toBe(0);
      // A broken PDF fails at once: both are done before the wait starts.
      await ci.service.indexer.idle();
      const res = await runKb(['files', 'wait', '--all'], { env: ciEnv });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^error: file_\w+ \(broken\.pdf\) failed indexing/m);
      expect(res.stderr).not.toContain('release-notes.txt');
      // Once it is gone, every file is indexed.
      const failed = (await runKb(['files', 'list', '--status', 'FAILED', '--ids'], { env: ciEnv })).stdout;
      expect((await runKb(['files', 'delete', '--yes', failed.trim()], { env: ciEnv })).code).toBe(0);
      expect(await runKb(['files', 'wait', '--all'], { env: ciEnv })).toMatchObject({ code: 0, stdout: '' });
      // A script reading JSON gets JSON: no file waited for is an empty list (a new user's trial 28).
      const json = await runKb(['files', 'wait', '--all', '--json'], { env: ciEnv });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([]);
    } finally {
      await ci.close();
    }
  });

  it('stops at a refused key (exit 4) or a service that is gone (exit 5), as every command does', async () => {
    const path = file('stop.txt', 'stop');
    const refused = await runKb(['files', 'upload', path], {
      env: { ...env, KB_API_KEY: 'kb_wrong_0123456789' },
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr.split('\n')[0]).toMatch(/^error: the API key is not valid/);
    const gone = await runKb(['files', 'upload', path], {
      env: { ...env, KB_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(gone.code).toBe(5);
    expect(gone.stderr.split('\n')[0]).toBe('error: cannot connect to 127.0.0.1:9: connection refused');
  });

  it('checks every file before sending any: a missing one is exit 2, and nothing is uploaded', async () => {
    const before = server.service.store.everyFile().length;
    const res = await runKb(['files', 'upload', file('fine.txt', 'fine'), join(tempDir(), 'nope.txt')], {
      env,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: cannot read the file \S+nope\.txt: no such file or folder\n$/);
    expect(res.stdout).toBe('');
    expect(server.service.store.everyFile().length).toBe(before);
  });

  it('against a service without uploads, says they go through its web app (exit 2)', async () => {
    const other = await hostileServer({
      'POST /v1/files': (_req, res) => {
        res.writeHead(405, { 'content-type': 'application/json', allow: 'GET' });
        res.end('{"error":{"code":"method_not_allowed","message":"POST is not allowed here"}}');
      },
    });
    try {
      const res = await runKb(['files', 'upload', file('x.txt', 'x')], {
        env: { KB_BASE_URL: other.url, KB_API_KEY: 'kb_test_0123456789abcdef' },
      });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('this service takes uploads in its web app, not through the API');
    } finally {
      await other.close();
    }
  });

  it('an upload and a --docs file of the same name and size are two files: neither claims the other', async () => {
    const docs = tempDir();
    const folder = await startTestServer({ docsDir: docs });
    try {
      const folderEnv = { KB_BASE_URL: folder.url, KB_API_KEY: folder.keys.default! };
      const up = await runKb(
        ['files', 'upload', file('ferry.md', 'The ferry leaves at 7 am.\n'), '--wait', '--interval', '100ms'],
        { env: folderEnv },
      );
      expect(up.code).toBe(0);
      const uploadId = up.stdout.trim().split('\n')[0]!;
      const inFolder = join(docs, 'ferry.md');
      writeFileSync(inFolder, 'The ferry leaves at 9 pm.\n');
      const fromFolder = () =>
        folder.service.store.everyFile().find((f) => f.source?.path === inFolder && !f.deletedAt);
      await until(() => fromFolder()?.indexingStatus === 'COMPLETED');
      expect(fromFolder()!.id).not.toBe(uploadId);
      const search = async () =>
        (await api(folder, folder.keys.default, 'GET', '/v1/search?q=When+does+the+ferry+leave')).json.data
          .map((hit: { fileId: string }) => hit.fileId)
          .sort();
      expect(await search()).toEqual([uploadId, fromFolder()!.id].sort());
      // Removing the folder's file removes that file only.
      const folderId = fromFolder()!.id;
      rmSync(inFolder);
      await until(() => folder.service.store.storedFile(folderId)?.deletedAt !== undefined);
      const kept = await runKb(['files', 'get', uploadId, '--json'], { env: folderEnv });
      expect(kept.code).toBe(0);
      expect(JSON.parse(kept.stdout)).toMatchObject({
        originalFilename: 'ferry.md',
        indexingStatus: 'COMPLETED',
      });
      expect(await search()).toEqual([uploadId]);
    } finally {
      await folder.close();
    }
  });

  it('with --data, keeps the bytes (0600) and indexes an upload a crash cut short after the restart', async () => {
    const dir = tempDir();
    const data = join(dir, 'kb.data');
    const key = 'kb_upload_test_key_0123456789';
    const args = ['--data', data, '--index-delay', '3000'];
    const serveEnv = { KB_SERVE_API_KEYS: `main:${key}` };
    const first = await startServeProcess(dir, args, serveEnv);
    const kbEnv = { KB_BASE_URL: first.url, KB_API_KEY: key };
    const up = await runKb(['files', 'upload', file('kept.txt', 'The loading dock closes at 5 pm.\n')], {
      env: kbEnv,
    });
    const id = up.stdout.trim();
    expect(id).toMatch(/^file_/);
    const kept = join(`${data}.uploads`, id);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(statSync(`${data}.uploads`).mode & 0o777).toBe(0o700);
    first.child.kill('SIGKILL'); // before its indexing step came
    await new Promise((r) => first.child.once('exit', r));

    const second = await startServeProcess(dir, ['--data', data, '--index-delay', '0'], serveEnv);
    try {
      const waited = await runKb(['files', 'wait', id, '--interval', '100ms', '--timeout', '20s'], {
        env: { ...kbEnv, KB_BASE_URL: second.url },
      });
      expect(waited.code).toBe(0);
      const detail = await getJson(`${second.url}/v1/files/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(detail.data).toMatchObject({ originalFilename: 'kept.txt', indexingStatus: 'COMPLETED' });
      // Deleting the file deletes its bytes.
      await runKb(['files', 'delete', id, '--yes'], { env: { ...kbEnv, KB_BASE_URL: second.url } });
      expect(readdirSync(`${data}.uploads`)).not.toContain(id);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
