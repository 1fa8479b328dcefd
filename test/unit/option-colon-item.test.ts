import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 30 (q48): htop's README lists its configure options each as the option, a
// colon and what it does, its dependency and default on rows under it (`--enable-hwloc: enable
// hwloc support for CPU affinity; disables affinity support` / `dependency: libhwloc` / `default:
// no`). Read as rows of the section's heading, "Which configure option builds htop with hwloc
// support?" was answered with `--enable-static`'s, which says more of the question's words
// ("build a static htop binary; hwloc and delay accounting are not supported").
const README = docLines('htop/htop-README.docx', 3, [
  'Generic',
  '--enable-affinity: enable sched_setaffinity(2) and sched_getaffinity(2) for affinity support; conflicts with hwloc',
  'default: check',
  '--enable-hwloc: enable hwloc support for CPU affinity; disables affinity support',
  'dependency: libhwloc',
  'default: no',
  '--enable-static: build a static htop binary; hwloc and delay accounting are not supported',
  'default: no',
]);

describe('an option, a colon and what it does, on one line (`--enable-hwloc: enable hwloc support…`)', () => {
  it('is a term and its definition, the rows under it its own', () => {
    const passages = passagesOf(README);
    const hwloc = passages.find((p) => p.text.startsWith('enable hwloc support'));
    expect(hwloc).toMatchObject({ lead: '--enable-hwloc', defines: true });
    expect(passages.find((p) => p.text === 'dependency: libhwloc')?.lead).toBe('--enable-hwloc');
  });

  it('so that the option named for what is asked answers which option', async () => {
    const answer = await answerOf(
      libraryOf(
        [README],
        weightsOf({ configure: 3, option: 1.5, builds: 2, htop: 4, hwloc: 6, support: 1.5 }),
      ),
      'Which configure option builds htop with hwloc support?',
    );
    expect(answer).toMatch(/^--enable-hwloc: enable hwloc support for CPU affinity/);
  });
});
