import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

describe('a name the question gives that no document holds', () => {
  const currencies = doc(
    'iso_4217.json',
    'alpha_3: XTS; name: Codes specifically reserved for testing purposes; numeric: 963. alpha_3: XXX; name: The codes assigned for transactions where no currency is involved; numeric: 999.',
  );

  it('is refused, not answered from what holds the rest of the question (the new-user trial: Bitcoin)', async () => {
    const library = libraryOf([currencies], { iso: 6, '4217': 8, currenc: 6, code: 3.5, bitcoin: 10.7 }, [
      'bitcoin',
    ]);
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', 'What is the ISO 4217 currency code for Bitcoin?', []),
    );
    expect(reply.sources).toEqual([]);
  });

  it('is answered when it is a word of the language (a paraphrase says it otherwise)', async () => {
    const library = libraryOf([currencies], { currenc: 3, code: 2, testing: 4 }, ['trial']);
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', 'Which currency code is reserved for trial and testing purposes?', []),
    );
    expect(reply.content).toContain('XTS');
  });

  it('is a name the question writes as one, not any word WordNet does not know ("did")', async () => {
    const notes = doc(
      'release-notes-v2.md',
      'Version 2.0 "Aurora"\nAurora introduced auto-triage, which tags and prioritises incoming tickets.',
    );
    const library = libraryOf([notes], { aurora: 5, introduc: 3 }, ['did']);
    const reply = extractiveAnswer(await retrieve(library, 'ws', 'What did Aurora introduce?', []));
    expect(reply.content).toContain('auto-triage');
  });
});
