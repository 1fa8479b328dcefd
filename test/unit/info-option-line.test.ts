import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { isOptionLine, unquoted } from '../../src/util/option-line.js';
import { doc } from '../helpers/library.js';

// gnupg.info as gnupg ships it (a new user's trial 40): texinfo writes each option of a list in
// quotes on its own line, its argument after it, the definition indented under it. The quoted
// line with an argument was no option's line, so its text was no definition of it.
const AGENT_OPTIONS = doc(
  'gnupg-manual.info',
  [
    "'--ignore-cache-for-signing'",
    "This option will let 'gpg-agent' bypass the passphrase cache for all signing operation.",
    "'--default-cache-ttl N'",
    'Set the time a cache entry is valid to N seconds. The default is 600 seconds.',
    "'--max-cache-ttl N'",
    'Set the maximum time a cache entry is valid to N seconds. The default is 2 hours (7200 seconds).',
  ].join('\n'),
);

describe('an option an info manual quotes whole', () => {
  it('is read without its quotes, with or without its argument, in either quotes', () => {
    for (const line of ["'--default-cache-ttl N'", '‘-A NUM’', "'--ignore-cache-for-signing'", "`-x FILE'"])
      expect(isOptionLine(unquoted(line))).toBe(true);
    expect(unquoted("'--all' is the default.")).toBe("'--all' is the default.");
  });

  it('heads the definition under it', () => {
    const passages = passagesOf(AGENT_OPTIONS);
    const first = passages.find((p) => p.text === 'Set the time a cache entry is valid to N seconds.');
    expect(first).toMatchObject({ lead: "'--default-cache-ttl N'", defines: true });
    const max = passages.find((p) => p.text.startsWith('Set the maximum time'));
    expect(max).toMatchObject({ lead: "'--max-cache-ttl N'", defines: true });
  });
});
