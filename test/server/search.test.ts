import { describe, expect, it } from 'vitest';
import { documentTerms, indexTerms, tokens } from '../../src/server/search/tokens.js';
import { withinEdits } from '../../src/util/edit-distance.js';

describe('tokens', () => {
  it('lower-cases, folds accents, splits on anything not a letter or digit, and drops stop words', () => {
    // An e-mail address is one term, not its words.
    expect(tokens('The Café at Zoë’s: open 9-5, e-mail Zoë@example.com')).toEqual([
      'cafe',
      'zoe',
      'open',
      '9',
      '5',
      'e',
      'mail',
      'zoe@example.com',
    ]);
    // The ASCII shortcut splits as the Unicode expression does.
    const ascii = 'Plain ASCII text, with punctuation; and digits 42!';
    expect(tokens(ascii)).toEqual(tokens(`${ascii} é`).slice(0, -1));
  });

  it("drops what is left of a possessive or a contraction: Rich's, don't (#33)", () => {
    expect(tokens("Rich's console.log: don't trust it")).toEqual([
      'rich',
      'console',
      'log',
      'don',
      'trust',
      'console.log',
    ]);
  });

  it('also keeps identifiers whole: snake_case, dotted.names, --long-flags, -x, %j (#33)', () => {
    const got = tokens(
      'Use os.path.join, set max_connections; run ls -A --almost-all; %j is the day. See os.path.',
    );
    for (const whole of ['os.path.join', 'max_connections', '--almost-all', '-A', '%j', 'os.path'])
      expect(got).toContain(whole);
    // and their parts, so that "max connections" still finds max_connections
    for (const part of ['os', 'path', 'join', 'max', 'connections', 'almost', 'all', 'j'])
      expect(got).toContain(part);
    expect(got).not.toContain('os.path.');
    expect(tokens('-a and -A differ; %H and %h too')).toEqual(
      expect.arrayContaining(['-a', '-A', '%H', '%h']),
    );
  });
});

describe('the terms of a document with names in CamelCase', () => {
  it("are their words too, the name kept whole: HandleLidSwitch= is on the lid (a new user's trial 19)", () => {
    expect(documentTerms('HandleLidSwitch= defaults to "suspend".')).toEqual([
      'handlelidswitch',
      'default',
      'suspend',
      'handl',
      'lid',
      'switch',
    ]);
    // Capitals in a row are one word (an acronym); a part too short to be a word is left.
    expect(documentTerms('ClientAliveCountMax, OpenSSH, macOS, iPhone, IPv6, PyYAML')).toEqual([
      'clientalivecountmax',
      'openssh',
      'maco',
      'iphon',
      'ipv6',
      'pyyaml',
      'client',
      'aliv',
      'count',
      'max',
      'open',
      'ssh',
      'mac',
      'phone',
      'yaml',
    ]);
    // Not a word in capitals, nor one capital at its start.
    expect(documentTerms('SMART status: Disk OK')).toEqual(indexTerms('SMART status: Disk OK'));
    // A question's own names are not split (PostgreSQL asked about is no question on SQL).
    expect(tokens('Streaming replication in PostgreSQL')).toEqual(['streaming', 'replication', 'postgresql']);
  });
});

describe('withinEdits', () => {
  it('counts insertions, deletions, substitutions, and two neighbours swapped as one edit', () => {
    expect(withinEdits('handbook', 'handbok', 1)).toBe(true);
    expect(withinEdits('handbook', 'hanbdook', 1)).toBe(true);
    expect(withinEdits('handbook', 'hbndaook', 1)).toBe(false);
    expect(withinEdits('handbook', 'hbndaook', 2)).toBe(true);
    expect(withinEdits('onboard', 'onbaord', 1)).toBe(true);
    expect(withinEdits('abc', 'abcdef', 2)).toBe(false);
  });
});
