import { describe, expect, it } from 'vitest';
import { indexTerms } from '../../src/server/search/tokens.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twentieth new user's folder (git's manual pages write `--[no-]single-branch` for both flags).
const CLONE = doc(
  'git/git-clone.html',
  [
    'OPTIONS',
    '--shallow-exclude=<revision>',
    'Create a shallow clone with a history, excluding commits reachable from a specified remote branch or tag. This option can be specified multiple times.',
    '--[no-]single-branch',
    'Clone only the history leading to the tip of a single branch, either specified by the --branch option or the primary branch remote’s HEAD points at. Further fetches into the resulting repository will only update the remote-tracking branch for the branch this option was used for the initial cloning. If the HEAD at the remote did not point at any branch when --single-branch clone was made, no remote-tracking branch is created.',
    '--no-tags',
    'Don’t clone any tags, and set remote.<remote>.tagOpt=--no-tags in the config, ensuring that future git pull and git fetch operations won’t follow any tags.',
  ].join('\n'),
);

describe('a flag written with its optional part in brackets (`--[no-]verify`)', () => {
  it('is indexed as each flag it stands for', () => {
    expect(indexTerms('--[no-]verify')).toEqual(expect.arrayContaining(['--verify', '--no-verify']));
    expect(indexTerms('-q[q][i]f')).toEqual(expect.arrayContaining(['-qf', '-qqf', '-qif', '-qqif']));
    expect(indexTerms('a list [of words] in prose')).not.toContain('--of');
  });

  it('answers what the flag does with its definition, under the bracketed term', async () => {
    const reply = await answerOf(libraryOf([CLONE]), 'What does git clone --single-branch do?');
    expect(reply).toMatch(
      /^--\[no-\]single-branch: Clone only the history leading to the tip of a single branch/,
    );
  });
});
