import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { runKb, runKbOnTTY, stripAnsi } from '../helpers/cli.js';
import { makePdf } from '../helpers/documents.js';
import { startTestServer } from '../helpers/server.js';
import { itWith } from '../helpers/tools.js';

const KEY = 'kb_tables_key_0123456789abcdef';
const CONTRACT = 'master-services-agreement-2026-signed.pdf';
let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ apiKeys: [`tables:${KEY}`] });
  env = { KB_BASE_URL: server.url, KB_API_KEY: KEY, NO_COLOR: '1' };
  const upload = async (name: string, body: Buffer) => {
    const res = await fetch(`${server.url}/v1/files?filename=${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/octet-stream' },
      body,
    });
    expect(res.status).toBe(201);
  };
  await upload(
    CONTRACT,
    makePdf([
      ['Preamble: the parties to this agreement.'],
      ['Either party may end this agreement with ninety days written notice, sent by registered mail.'],
    ]),
  );
  await upload('services-agreement.pdf', makePdf([['A summary of the services agreement.']]));
  await server.service.indexer.idle();
});
afterAll(() => server.close());

describe('tables at 80 columns give way where it costs least', () => {
  itWith('script')('kb search keeps the whole source with its page; the passage gives way', async () => {
    const res = await runKbOnTTY(['search', 'ninety days notice'], { env, columns: 80 });
    expect(res.code).toBe(0);
    const lines = stripAnsi(res.stdout).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+SOURCE\s+SCORE\s+ANSWERS\s+TEXT$/);
    expect(lines[1]).toMatch(new RegExp(`^1  ${CONTRACT} p\\. 2  \\d+\\.\\d\\d\\s+✓\\s+Either [^…]*…$`));
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // Piped, nothing is cut.
    const piped = await runKb(['search', 'ninety days notice'], { env });
    expect(piped.stdout.split('\n')[0]).toMatch(
      new RegExp(`^1\\t${CONTRACT} p\\. 2\\t\\d+\\.\\d\\d\\ttrue\\tEither party .* registered mail\\.$`),
    );
  });

  itWith('script')(
    'kb files list: an empty ERROR column takes no room, and NAME keeps its width',
    async () => {
      const res = await runKbOnTTY(['files', 'list'], { env, columns: 80 });
      expect(res.code).toBe(0);
      const lines = stripAnsi(res.stdout).trimEnd().split('\n');
      // TYPE, cut to "appli…", would have cost NAME its end: it is left out.
      expect(lines[0]).toMatch(/^ID\s+NAME\s+SIZE\s+STATUS\s+CREATED$/);
      expect(lines.find((l) => / services-agreement\.pdf /.test(l))).toBeDefined();
      expect(lines.every((l) => l.length <= 80)).toBe(true);
      // Piped, every row has every field, the empty ERROR too: scripts count on the places.
      const piped = await runKb(['files', 'list'], { env });
      const rows = piped.stdout.split('\n').slice(0, -1);
      expect(rows).toHaveLength(2);
      for (const row of rows)
        expect(row.split('\t')).toEqual([
          expect.stringMatching(/^file_/),
          expect.stringMatching(/\.pdf$/),
          expect.stringMatching(/^\d+$/),
          'application/pdf',
          'COMPLETED',
          expect.stringMatching(/^\d{4}-/),
          '',
        ]);
    },
  );
});
