import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-third new user's trial (F5a): semver's README, made a Word document, its code
// examples as lines of text, each call with what it returns in a `//` comment.
const USAGE = [
  'Usage',
  'As a node module:',
  "const semver = require('semver')",
  "semver.valid('1.2.3') // '1.2.3'",
  "semver.valid('a.b.c') // null",
  "semver.clean(' =v1.2.3 ') // '1.2.3'",
  "semver.valid(semver.coerce('v2')) // '2.0.0'",
  "semver.valid(semver.coerce('42.6.7.9.3-alpha')) // '42.6.7'",
  "You can also just load the module for the function that you care about if you'd like to minimize your footprint.",
];
const COERCION = [
  'Coercion',
  'coerce(version, options): Coerces a string to semver if possible',
  'This aims to provide a very forgiving translation of a non-semver string to semver.',
];

describe('a line of code with a `//` comment after it', () => {
  it('heads no chunk', () => {
    const chunks = chunkText([...USAGE, ...Array(6).fill(USAGE.at(-1))].join('\n'), 300, 60);
    for (const chunk of chunks) expect(chunk.split('\n')[0]).not.toContain('//');
  });

  it('is not the heading of the sentence after it in an answer', async () => {
    const library = libraryOf(
      [
        doc('npm/semver-README.docx', USAGE.join('\n'), 0),
        doc('npm/semver-README.docx', COERCION.join('\n'), 1),
      ],
      { semver: 4.6, [stem('coerce')]: 4.8, [stem('function')]: 3.1 },
    );
    const reply = await answerOf(library, "What does semver's coerce function do?");
    expect(reply).toContain('Coerces a string to semver if possible');
    expect(reply).not.toContain('You can also just load the module');
  });
});
