import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { runKb } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

// Documents of the new-user trial, cut from the real files: tzdata's zone1970.tab, sqlite-doc's
// faq.html, ssh-add.1 rendered by groff -Tpdf.
let server: RunningServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer();
  env = { KB_BASE_URL: server.url, KB_API_KEY: Object.values(server.keys)[0]! };
  for (const name of ['tz-zone1970.tsv', 'sqlite-faq.html', 'ssh-add.1.pdf']) {
    const uploaded = await fetch(`${server.url}/v1/files?filename=${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.KB_API_KEY}`, 'content-type': 'application/octet-stream' },
      body: readFileSync(new URL(`../fixtures/reading/${name}`, import.meta.url)),
    });
    expect(uploaded.status).toBe(201);
  }
  await server.service.indexer.idle();
});
afterAll(() => server.close());

const search = async (query: string) => {
  const res = await runKb(['search', query, '--json', '--limit', '3'], { env });
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout) as { answered: boolean; data: { filename: string; text: string }[] };
};

describe('kb search finds what the trial documents say, read as a person reads them', () => {
  it('a TSV after a comment preamble: rows under its commented header', async () => {
    const result = await search('What is the time zone for country code NP?');
    expect(result.data[0]!.filename).toBe('tz-zone1970.tsv');
    expect(result.data[0]!.text).toContain(
      'country-codes: NP; coordinates: +2743+08519; TZ: Asia/Kathmandu.',
    );
    expect(result.data[0]!.text).not.toContain('# tzdb');
  });

  it('a FAQ: each chunk of an answer under its question', async () => {
    const result = await search('Can multiple applications use a single SQLite database file with NFS?');
    expect(result.data[0]!.filename).toBe('sqlite-faq.html');
    expect(result.data[0]!.text).toMatch(/^\(5\) Can multiple applications or multiple instances/);
  });

  it('a groff PDF: a path typed with ~ is found as written', async () => {
    const result = await search('~/.ssh/id_ed25519');
    expect(result.data[0]!.filename).toBe('ssh-add.1.pdf');
    expect(result.data[0]!.text).toContain('~/.ssh/id_ed25519');
    expect(result.data[0]!.text).not.toContain('˜');
  });
});
