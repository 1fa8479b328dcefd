import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-second new user's trial (varnishd(1) as a PDF): each parameter's name, its
// attributes as rows, then what it is.
const PARAMETERS = doc(
  'varnish/man/varnishd.1.pdf',
  [
    'thread_pool_watchdog',
    '• Flags: experimental',
    'Thread queue stuck watchdog.',
    'If no queued work have been released for this long, the worker process panics itself.',
    'thread_pools',
    '• Units: pools',
    '• Default: 2',
    '• Minimum: 1',
    '• Maximum: 32',
    '• Flags: delayed, experimental',
    'Number of worker thread pools.',
    'Increasing the number of worker pools decreases lock contention. Each worker pool also has a thread accepting new connections, so for very high rates of incoming new connections on systems with many cores, increasing the worker pools may be required.',
    'Too many pools waste CPU and RAM resources, and more than one pool for each CPU is most likely detrimental to performance.',
    'Can be increased on the fly, but decreases require a restart to take effect, unless the drop_pools experimental debug flag is set.',
  ].join('\n'),
);

describe("a term's attributes on rows under it ('• Units: pools')", () => {
  const library = libraryOf([PARAMETERS], {
    [stem('thread')]: 1.3,
    [stem('pools')]: 1.7,
    [stem('parameter')]: 1.8,
    varnishd: 2.5,
    [stem('control')]: 1.9,
    thread_pools: 6.2,
  });

  it('are not its definition: the sentence after them is', async () => {
    const reply = await answerOf(library, 'What does the thread_pools parameter of varnishd control?');
    expect(reply).toMatch(/^thread_pools: Number of worker thread pools\./);
    expect(reply).not.toContain('Units: pools');
  });

  it('still answer what they say', async () => {
    const reply = await answerOf(library, 'What is the maximum of the thread_pools parameter of varnishd?');
    expect(reply).toContain('Maximum: 32');
  });
});
