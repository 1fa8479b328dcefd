import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-third new user's trial (T5): a CSV of countries, a row of some forty fields.
const FIELDS = [
  'name.common: Mongolia',
  'name.official: Mongolia',
  'tld: .mn',
  'cca2: MN',
  'ccn3: 496',
  'cca3: MNG',
  'cioc: MGL',
  'independent: 1',
  'status: officially-assigned',
  'unMember: 1',
  'currencies: MNT',
  'idd.root: +9',
  'idd.suffixes: 76',
  'capital: Ulan Bator',
  'altSpellings: MN',
  'region: Asia',
  'subregion: Eastern Asia',
  'languages: Mongolian',
  'translations.deu.official: Mongolei',
  'translations.deu.common: Mongolei',
  'translations.fra.official: Mongolie',
  'translations.fra.common: Mongolie',
];
const ROW = doc('data/countries.csv', `${FIELDS.join('; ')}.`);

describe('a row of many fields', () => {
  const library = libraryOf([ROW], { [stem('capital')]: 3, mongolia: 5, [stem('countries')]: 1, data: 1 });

  it('is shown by its first field and the fields the question names', async () => {
    const reply = await answerOf(library, 'What is the capital of Mongolia in the countries data?');
    expect(reply).toMatch(/^name\.common: Mongolia; … capital: Ulan Bator; …\n/);
    expect(reply).not.toContain('translations');
  });

  it('is shown whole when the question names none of its fields', async () => {
    const reply = await answerOf(library, 'What do the countries data say about Mongolia?');
    expect(reply).toContain('capital: Ulan Bator');
    expect(reply).toContain('region: Asia');
  });
});
