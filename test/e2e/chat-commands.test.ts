import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { baseEnv, runKb, tempDir } from '../helpers/cli.js';
import { hostileServer, send } from '../helpers/hostile.js';
import { startTestServer } from '../helpers/server.js';
import { kbInTmux } from '../helpers/tmux.js';
import { itWith } from '../helpers/tools.js';

/** A reply finished (rendered in place of what streamed) and the prompt is back. */
const REPLIED = /(Sources:|couldn't find anything)[^]*\nyou › $/m;

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true, replyDelayMs: 0 });
});
afterAll(() => server.close());

const vars = (extra: NodeJS.ProcessEnv = {}) => ({
  ...baseEnv(tempDir()),
  TERM: 'xterm-256color',
  KB_BASE_URL: server.url,
  KB_API_KEY: server.keys.demo!,
  ...extra,
});
const threadOf = (title: string) =>
  [...server.service.store.threads.values()].find((t) => t.title === title)!;

describe('kb chat commands (tmux)', () => {
  itWith('tmux')(
    '/export writes Markdown (or JSON), never over a file; threads get --format md is the same',
    async () => {
      const dir = tempDir();
      const term = kbInTmux(['chat', '--title', 'export me'], vars(), undefined, dir);
      try {
        await term.waitFor('you ›');
        term.keys('How much is the Growth plan?', 'Enter');
        await term.waitFor(REPLIED);
        term.keys('/export', 'Enter');
        await term.waitFor('Exported 2 messages to');
        const id = threadOf('export me').id;
        const markdown = readFileSync(join(dir, `${id}.md`), 'utf8');
        expect(markdown).toMatch(/^# export me\n/);
        expect(markdown).toMatch(/## You · .*\n\nHow much is the Growth plan\?/);
        expect(markdown).toMatch(/## Assistant · [^\n]*\n\n.*29 dollars/);
        term.keys('/export', 'Enter');
        await term.waitFor('exists; give another name');
        term.keys('/export thread.json', 'Enter');
        await term.waitFor('to thread.json');
        expect(JSON.parse(readFileSync(join(dir, 'thread.json'), 'utf8')).messages).toHaveLength(2);
        const res = await runKb(['threads', 'get', id, '--format', 'md'], {
          env: { KB_BASE_URL: server.url, KB_API_KEY: server.keys.demo! },
        });
        expect(res.stdout).toBe(markdown);
      } finally {
        term.close();
      }
    },
  );

  itWith('tmux')('/sources, and latency and size after each reply (off with --quiet)', async () => {
    const term = kbInTmux(['chat'], vars());
    try {
      await term.waitFor('you ›');
      term.keys('How much is the Growth plan?', 'Enter');
      const screen = await term.waitFor(/Sources:[^]*\d+(\.\d+)? ?m?s · \d+ words\nyou › $/m);
      expect(screen).toMatch(/\d+(\.\d+)? ?m?s · \d+ words/);
      term.keys('/sources', 'Enter');
      await term.waitFor(/pricing\.md\s+COMPLETED\s+file_\w+/);
    } finally {
      term.close();
    }
    const quiet = kbInTmux(['chat', '--quiet'], vars());
    try {
      await quiet.waitFor('you ›');
      quiet.keys('How much is the Growth plan?', 'Enter');
      await quiet.waitFor(/Sources:[^]*you › $/m);
      expect(quiet.screen()).not.toMatch(/ · \d+ words/);
    } finally {
      quiet.close();
    }
  });

  itWith('tmux')(
    '/sources finds a cited file however many files came after it (past the first page of the list)',
    async () => {
      // A new user's trial (#33): with 154 documents, every file past the list's first 100 was
      // "not found", though the reply had just cited it.
      const own = await startTestServer({ demo: true, replyDelayMs: 0 });
      try {
        const dir = tempDir();
        const paths = Array.from({ length: 101 }, (_, i) => {
          const path = join(dir, `note-${i}.txt`);
          writeFileSync(path, `Note ${i} is about the quokka number ${i}.\n`);
          return path;
        });
        const env = { ...vars(), KB_BASE_URL: own.url, KB_API_KEY: own.keys.demo! };
        const upload = await runKb(['files', 'upload', ...paths, '--wait', '--interval', '100ms'], { env });
        expect(upload.code, upload.stderr).toBe(0);
        const term = kbInTmux(['chat'], env);
        try {
          await term.waitFor('you ›');
          term.keys('How much is the Growth plan?', 'Enter');
          await term.waitFor(REPLIED);
          term.keys('/sources', 'Enter');
          await term.waitFor(/pricing\.md\s+COMPLETED\s+file_\w+/);
          expect(term.screen()).not.toMatch(/not found/);
        } finally {
          term.close();
        }
      } finally {
        await own.close();
      }
    },
  );

  itWith('tmux')(
    '/title, /close and /archive change the thread; a service without changes says so',
    async () => {
      const term = kbInTmux(['chat', '--title', 'to change'], vars());
      try {
        await term.waitFor('you ›');
        term.keys('Which certifications?', 'Enter');
        await term.waitFor(REPLIED);
        const id = threadOf('to change').id;
        term.keys('/title Compliance questions', 'Enter');
        await term.waitFor('Renamed: Compliance questions');
        expect(server.service.store.threads.get(id)!.title).toBe('Compliance questions');
        term.keys('/close', 'Enter');
        await term.waitFor('This thread is now CLOSED');
        expect(server.service.store.threads.get(id)!.status).toBe('CLOSED');
        term.keys('/archive', 'Enter');
        await term.waitFor('This thread is now ARCHIVED');
        expect(server.service.store.threads.get(id)!.status).toBe('ARCHIVED');
      } finally {
        term.close();
      }
      const createdAt = '2026-11-22T10:00:00Z';
      const message = (role: string) => ({ id: `m_${role}`, role, content: 'ok.', createdAt });
      const plain = await hostileServer({
        'POST /v1/threads': send(
          201,
          JSON.stringify({ data: { id: 'thr_p', title: 'p', status: 'OPEN', createdAt } }),
        ),
        'POST /v1/threads/thr_p/messages': send(
          201,
          JSON.stringify({ data: { userMessage: message('user'), aiResponse: message('assistant') } }),
        ),
        'PATCH /v1/threads/thr_p': send(405, '{"error":{"code":"method_not_allowed","message":"no"}}'),
      });
      const other = kbInTmux(['chat'], { ...vars(), KB_BASE_URL: plain.url });
      try {
        await other.waitFor('you ›');
        other.keys('hello', 'Enter');
        await other.waitFor('ok.');
        other.keys('/close', 'Enter');
        await other.waitFor('this service does not offer changing threads');
      } finally {
        other.close();
        await plain.close();
      }
    },
  );

  itWith('tmux')('Tab after /switch completes a thread id; /threads marks the current thread', async () => {
    const term = kbInTmux(['chat', '--title', 'current one'], vars());
    try {
      await term.waitFor('you ›');
      term.keys('Where is data stored?', 'Enter');
      await term.waitFor(REPLIED);
      const id = threadOf('current one').id;
      term.keys(`/switch ${id.slice(0, -3)}`, 'Tab');
      await term.waitFor(`/switch ${id} `);
      term.keys('C-u', '/threads', 'Enter');
      await term.waitFor(/● current one\s+OPEN · thr_\w+ · current/);
      term.keys('Escape');
    } finally {
      term.close();
    }
  });

  itWith('tmux')(
    '/copy uses a clipboard program and says which; /copy code copies the last code block; /more pages',
    async () => {
      const bin = tempDir();
      const clip = join(tempDir(), 'clipboard');
      writeFileSync(join(bin, 'xclip'), `#!/bin/sh\ncat > '${clip}'\n`);
      chmodSync(join(bin, 'xclip'), 0o755);
      const paged = join(tempDir(), 'paged');
      const createdAt = '2026-11-22T10:00:00Z';
      const reply = 'Run this:\n\n```sh\nkb files list --status FAILED\n```\n\nThen check again.';
      const scripted = await hostileServer({
        'POST /v1/threads': send(
          201,
          JSON.stringify({ data: { id: 'thr_c', title: 'c', status: 'OPEN', createdAt } }),
        ),
        'POST /v1/threads/thr_c/messages': send(
          201,
          JSON.stringify({
            data: {
              userMessage: { id: 'm1', role: 'user', content: 'how?', createdAt },
              aiResponse: { id: 'm2', role: 'assistant', content: reply, createdAt },
            },
          }),
        ),
      });
      const env = vars({
        KB_BASE_URL: scripted.url,
        DISPLAY: ':0',
        PATH: `${bin}:${process.env.PATH}`,
        PAGER: `cat > '${paged}'`,
      });
      const term = kbInTmux(['chat'], env);
      try {
        await term.waitFor('you ›');
        term.keys('how?', 'Enter');
        await term.waitFor('Then check again.');
        term.keys('/copy', 'Enter');
        await term.waitFor('Copied the last reply to the clipboard (xclip).');
        expect(readFileSync(clip, 'utf8')).toBe(reply);
        term.keys('/copy code', 'Enter');
        await term.waitFor('Copied the last code block to the clipboard (xclip).');
        expect(readFileSync(clip, 'utf8')).toBe('kb files list --status FAILED');
        term.keys('/more', 'Enter');
        const end = Date.now() + 5000;
        while (!existsSync(paged) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 200));
        expect(readFileSync(paged, 'utf8')).toContain('Then check again.');
        await term.waitFor(/you › $/m);
      } finally {
        term.close();
        await scripted.close();
      }
    },
  );

  itWith('tmux')(
    '/more without PAGER pages with less -R; /copy names an installed clipboard program that has no display',
    async () => {
      const bin = tempDir();
      const paged = join(tempDir(), 'paged');
      writeFileSync(join(bin, 'less'), `#!/bin/sh\necho "$@" > '${paged}.args'\ncat > '${paged}'\n`);
      chmodSync(join(bin, 'less'), 0o755);
      writeFileSync(join(bin, 'xsel'), '#!/bin/sh\nexit 1\n');
      chmodSync(join(bin, 'xsel'), 0o755);
      const createdAt = '2026-11-22T10:00:00Z';
      const scripted = await hostileServer({
        'POST /v1/threads': send(
          201,
          JSON.stringify({ data: { id: 'thr_p', title: 'p', status: 'OPEN', createdAt } }),
        ),
        'POST /v1/threads/thr_p/messages': send(
          201,
          JSON.stringify({
            data: {
              userMessage: { id: 'm1', role: 'user', content: 'q', createdAt },
              aiResponse: { id: 'm2', role: 'assistant', content: 'A reply worth paging.', createdAt },
            },
          }),
        ),
      });
      const env = vars({
        KB_BASE_URL: scripted.url,
        PATH: `${bin}:${process.env.PATH}`,
        PAGER: undefined,
        DISPLAY: undefined,
      });
      const term = kbInTmux(['chat'], env);
      try {
        await term.waitFor('you ›');
        term.keys('q', 'Enter');
        await term.waitFor('A reply worth paging.');
        term.keys('/more', 'Enter');
        const end = Date.now() + 5000;
        while (!existsSync(paged) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 200));
        expect(readFileSync(paged, 'utf8')).toContain('A reply worth paging.');
        expect(readFileSync(`${paged}.args`, 'utf8').trim()).toBe('-R');
        await term.waitFor(/you › $/m);
        term.keys('/copy', 'Enter');
        await term.waitFor(/xsel is installed but has no display to copy to \(DISPLAY is not set/);
      } finally {
        term.close();
        await scripted.close();
      }
    },
  );
});
