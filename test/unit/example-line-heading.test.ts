import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';

const paragraphs = (n: number, what: string) =>
  Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} says what ${what} does, which is ${'why it is there at all. '.repeat(3)}`,
  );

// The twenty-seventh new user's trial (#33): curl(1)'s example `curl --limit-rate 10M
// https://example.com`, at the top of a PDF page, headed 16 chunks of the options after it (-l, -L,
// --max-time); Mercurial's config.txt's `-----END CERTIFICATE-----` headed 5 chunks of its [web]
// section.
describe('a line of an example', () => {
  it('heads nothing when it runs a command: the chunks after it are under the text’s heading', () => {
    const manual = [
      'OPTIONS',
      ...paragraphs(2, '--limit-rate'),
      'curl --limit-rate 10M https://example.com',
      'See also --rate, -Y, --speed-limit and -y, --speed-time.',
      '-l, --list-only',
      ...paragraphs(10, '--list-only'),
    ].join('\n');
    const chunks = chunkText(manual, 400, 100);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.split('\n')[0]).not.toContain('curl --limit-rate');
    expect(chunks.at(-1)!.split('\n')[0]).toBe('OPTIONS');
  });

  it('heads nothing when it is the end of an armoured certificate (PEM)', () => {
    const config = [
      'web',
      'The form must be as follows::',
      '-----BEGIN CERTIFICATE-----',
      '... (certificate in base64 PEM encoding) ...',
      '-----END CERTIFICATE-----',
      ...paragraphs(14, 'the web section'),
    ].join('\n');
    const chunks = chunkText(config, 400, 100);
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.split('\n')[0]).not.toContain('CERTIFICATE');
    expect(chunks.at(-1)!.split('\n')[0]).toBe('web');
  });

  it('still lets a short title head what follows', () => {
    const text = ['Connection reuse', ...paragraphs(6, 'reuse')].join('\n');
    for (const chunk of chunkText(text, 400, 100)) expect(chunk.split('\n')[0]).toBe('Connection reuse');
  });
});
