import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// A new user's trial 36: haveged's README lists its options as `--buffer     , -b [] Buffer size
// [KW] - default : 128`, one a line; read as "--buffer" / ", -b [] Buffer size … 128", with the
// next row's option joined to the text before it ("with fallback to 16 --inst").
const HAVEGED_README = [
  'generator will experience occasional failures. It is not uncommon to see one or',
  'two failures in the NIST suite and the entest will occasionally fail with a small',
  'sample size (usually the Chi-Square test barks). Early haveged releases used a',
  'entest sample size of 1MB, this has been increased to 16MB because failures with',
  'that sample size were all too common. A 16MB sample will also deplete and refill',
  'the haveged collection area to exercise all buffer logic.',
  '',
  'Users are encouraged to run their own external tests. The --number==0 option is',
  'a convenient means to pipe haveged output into external suites such as Dieharder,',
  'the TESTU01 batteries, or PractRand.',
  '',
  '',
  'RUNNING haveged',
  '',
  'The following invocation arguments are always available:',
  '',
  '   --buffer     , -b [] Buffer size [KW] - default : 128',
  '   --data       , -d [] Data cache size [KB], with fallback to 16',
  '   --inst       , -i [] Instruction cache size [KB], with fallback to 16',
  "   --file       , -f [] Sample output file - default: 'sample', '-' for stdout",
  '   --number     , -n [] Output size in [k|m|g|t]. 0 = unlimited to stdout',
  '   --verbose    , -v [] Verbose mask 0=none,1=summary,2=retries,4=timing,8=loop,16=code,32=test',
  '   --help       , -h    This help',
  '',
  'The "-b", "-d", "-i" options are needed only in special cases. Generator output',
  'should be validated after changes to these values.',
  '',
  'If haveged is built with online testing enabled, the following is present',
  '',
  "   --onlinetest , -o [] [t<x>][c<x>] x=[a[n][w]][b[w]] 't'ot, 'c'ontinuous, default: ta8b\"",
  '',
  'The default configuration executes the "tot" test using AIS procedure B. At the completion',
  'of the tot test, the buffer is reloaded and any continuous tests will be run before',
].join('\n');

describe('a list of options with their short forms after a gap', () => {
  it('keeps each option whole, a line of its own with what it does', () => {
    const lines = unwrapText(HAVEGED_README)
      .split('\n')
      .map((l) => l.trim());
    expect(lines).toContain('--buffer, -b [] Buffer size [KW] - default : 128');
    expect(lines).toContain('--data, -d [] Data cache size [KB], with fallback to 16');
    expect(lines).toContain('--inst, -i [] Instruction cache size [KB], with fallback to 16');
  });
});
