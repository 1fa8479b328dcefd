import { describe, expect, it } from 'vitest';
import { leavesQuoteOpen } from '../../src/util/open-quote.js';

describe('leavesQuoteOpen', () => {
  it('a quoted string that goes on past the end of the code', () => {
    expect(leavesQuoteOpen("postqueue -j | jq -r '")).toBe(true);
    expect(leavesQuoteOpen('awk "BEGIN {')).toBe(true);
    expect(leavesQuoteOpen("postqueue -j | jq -r '\n# a comment\n| .queue_id")).toBe(true);
  });

  it('none once every quote closes, an escaped one or an apostrophe closing nothing', () => {
    expect(leavesQuoteOpen("postqueue -j | jq -r '\n| .queue_id\n' | postsuper -d -")).toBe(false);
    expect(leavesQuoteOpen('echo "say \\"hi\\"" > out')).toBe(false);
    expect(leavesQuoteOpen("echo don't")).toBe(false);
    expect(leavesQuoteOpen("grep -v '^ *(' | tr -d '*!'")).toBe(false);
    expect(leavesQuoteOpen('echo \\"')).toBe(false);
  });
});
