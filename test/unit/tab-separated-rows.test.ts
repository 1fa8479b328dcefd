import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// The twenty-seventh new user's trial (K12): tzdata's zone1970.tab, columns separated by tabs. A
// row whose first cell is longer than a tab stop (`CI,BF,GH,…`) is not aligned with its
// neighbours, so it and the row above it were read as wrapped prose, one line: "CH,DE,LI
// +4723+00832 Europe/Zurich Büsingen CI,BF,GH,… Africa/Abidjan".
const ZONES = [
  '# TZ zone descriptions, with a row for each zone.',
  '#',
  '# This file is in the public domain.',
  '#',
  '#country-',
  '#codes\tcoordinates\tTZ\tcomments',
  'CA\t+6043-13503\tAmerica/Whitehorse\tMST - Yukon (east)',
  'CA\t+6404-13925\tAmerica/Dawson\tMST - Yukon (west)',
  'CH,DE,LI\t+4723+00832\tEurope/Zurich\tBüsingen',
  'CI,BF,GH,GM,GN,IS,ML,MR,SH,SL,SN,TG\t+0519-00402\tAfrica/Abidjan',
  'CK\t-2114-15946\tPacific/Rarotonga',
  'CL\t-3327-07040\tAmerica/Santiago\tmost of Chile',
].join('\n');

describe('rows of a table whose cells are separated by tabs', () => {
  it('are rows, each on its own line, however wide their cells', () => {
    const lines = unwrapText(ZONES).split('\n');
    // Named by the commented header row, as a CSV's are.
    expect(lines).toContain(
      'codes: CH,DE,LI; coordinates: +4723+00832; TZ: Europe/Zurich; comments: Büsingen.',
    );
    expect(lines).toContain(
      'codes: CI,BF,GH,GM,GN,IS,ML,MR,SH,SL,SN,TG; coordinates: +0519-00402; TZ: Africa/Abidjan.',
    );
  });
});
