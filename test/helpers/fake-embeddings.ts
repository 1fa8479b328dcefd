import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Words that mean alike share a dimension: what a real embedding model learns, spelled out for a
 * handful of test documents, so that a paraphrase with no word in common lands near its passage.
 */
const CONCEPTS = [
  ['parental', 'parents', 'parent', 'mothers', 'fathers', 'maternity', 'paternity', 'newborn', 'baby'],
  ['leave', 'vacation', 'holiday', 'absence'],
  ['backup', 'backups', 'copies', 'snapshot', 'snapshots'],
  ['canteen', 'lunch', 'food', 'meal', 'soup'],
  ['annually', 'yearly', 'year', 'annual'],
  ['discount', 'cheaper'],
  ['nonprofit', 'charities', 'charity', 'nonprofits'],
  ['mobile', 'phone', 'phones', 'ios', 'android'],
  ['certifications', 'audits', 'audit', 'compliance', 'certified'],
  ['legacy', 'old', 'deprecated', 'retired'],
  ['api', 'interface'],
  ['quota', 'space', 'full'],
  ['sso', 'identity', 'sign'],
];
const IGNORED = new Set(
  'a an and are as at be but by can do does for from get has have how i in is it its much many new of on or our so the their them to we what when where which who will with you your'.split(
    ' ',
  ),
);
const HASHED = 512;

/** A unit vector for a text: a dimension per concept, other words hashed at a smaller weight. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(CONCEPTS.length + HASHED).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (IGNORED.has(word)) continue;
    const concept = CONCEPTS.findIndex((c) => c.includes(word));
    if (concept >= 0) vector[concept]! += 1;
    else {
      let h = 0;
      for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      vector[CONCEPTS.length + (h % HASHED)]! += 0.3;
    }
  }
  return vector;
}

export interface FakeEmbeddings {
  url: string;
  /** How many texts it was asked to embed, in all. */
  inputs: () => number;
  requests: () => number;
  /** From now on, answer 503 (true) or vectors (false). */
  failing(on: boolean): void;
  /** From now on, never answer (true), or answer again (false). */
  hanging(on: boolean): void;
  close(): Promise<void>;
}

/** An OpenAI-compatible embeddings endpoint (`POST /v1/embeddings`) that embeds with `fakeEmbedding`. */
export async function fakeEmbeddingsServer(): Promise<FakeEmbeddings> {
  let inputs = 0;
  let requests = 0;
  let failing = false;
  let hanging = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests++;
      if (hanging) return;
      if (failing || req.url !== '/v1/embeddings') {
        res.writeHead(failing ? 503 : 404).end();
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      inputs += input.length;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          object: 'list',
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    inputs: () => inputs,
    requests: () => requests,
    failing: (on) => (failing = on),
    hanging: (on) => (hanging = on),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
