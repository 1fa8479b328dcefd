import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 31 (q29): nsd.conf(5) as a PDF names each setting with its value's syntax on
// a line of its own (`tcp-count: <number>`). A chunk that began under a stray option line (`-n`,
// the end of the entry before it, repeated as the chunk's heading) read that syntax line as the
// option's definition: the setting's text was led by `-n`, and "How many concurrent TCP
// connections does each NSD server handle by default?" was refused, the chunk ranked first.
const SETTINGS = docLines('dns/nsd/nsd.conf.5.pdf', 3, [
  '-n',
  'tcp-count: <number>',
  'The maximum number of concurrent, active TCP connections by each server. Default is 100. Same as commandline option -n.',
  'tcp-query-count: <number>',
  'The maximum number of queries served on a single TCP connection. Default is 0, meaning there is no maximum.',
]);

describe("a setting's syntax line under a term (`-n` / `tcp-count: <number>`)", () => {
  it("is no definition of the term: it leads its own setting's text", () => {
    const passages = passagesOf(SETTINGS);
    expect(passages.map((p) => p.text)).not.toContain('tcp-count: <number>');
    expect(passages.find((p) => p.text.startsWith('The maximum number of concurrent'))?.lead).toBe(
      'tcp-count: <number>',
    );
  });

  it("so that the setting's text answers for its default", async () => {
    const answer = await answerOf(
      libraryOf(
        [SETTINGS],
        weightsOf({
          concurrent: 4,
          tcp: 3,
          connections: 2,
          each: 1,
          nsd: 5,
          server: 1.5,
          handle: 2.5,
          default: 1.2,
        }),
      ),
      'How many concurrent TCP connections does each NSD server handle by default?',
    );
    expect(answer).toMatch(/^tcp-count: <number>: The maximum number of concurrent, active TCP connections/);
    expect(answer).toContain('Default is 100.');
  });
});
