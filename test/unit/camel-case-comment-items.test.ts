import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';
import { answerOf, doc, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial (35): Apache's mpm_event.conf says what each directive is in a comment above
// them ("# MaxSpareThreads: maximum number of worker threads which are kept spare"). Its lines were
// joined into one, and 'What does MaxSpareThreads mean in Apache's event MPM config?' was answered
// with the bare line `MaxSpareThreads 75`.
const MPM_EVENT = [
  '# event MPM',
  '# StartServers: initial number of server processes to start',
  '# MinSpareThreads: minimum number of worker threads which are kept spare',
  '# MaxSpareThreads: maximum number of worker threads which are kept spare',
  '# ThreadsPerChild: constant number of worker threads in each server process',
  '# MaxRequestWorkers: maximum number of worker threads',
  '# MaxConnectionsPerChild: maximum number of requests a server process serves',
  'StartServers            2',
  'MinSpareThreads         25',
  'MaxSpareThreads         75',
  'ThreadLimit             64',
  'ThreadsPerChild         25',
  'MaxRequestWorkers       150',
  'MaxConnectionsPerChild  0',
].join('\n');

describe("a comment's items named in CamelCase", () => {
  it('are each a line of their own', () => {
    const lines = unwrapText(MPM_EVENT).split('\n');
    expect(lines).toContain('# MaxSpareThreads: maximum number of worker threads which are kept spare');
    expect(lines).toContain('# MaxRequestWorkers: maximum number of worker threads');
  });

  it('say what the setting they name is', async () => {
    const library = libraryOf(
      [doc('mpm_event.conf', unwrapText(MPM_EVENT))],
      weightsOf({ maxsparethreads: 7, mean: 1.7, apache: 4.1, event: 2.9, mpm: 6, config: 3 }),
    );
    const answer = await answerOf(library, "What does MaxSpareThreads mean in Apache's event MPM config?");
    expect(answer).toContain('maximum number of worker threads which are kept spare');
    // The setting as the file writes it.
    expect(answer).toMatch(/MaxSpareThreads +75/);
  });
});
