import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-second new user's trial: collectd.conf(5) as a PDF, a configuration block's
// example closed by its tag, then prose.
const PAGE = [
  'Plugin curl_jolokia',
  'The curl_jolokia plugin collects values from MBeanServevr - servlet engines equipped with the jolokia MBean.',
  '<Plugin curl_jolokia>',
  '<URL "http://10.10.10.10:7101/jolokia">',
  'Host "_APPPERF_JMX"',
  '</URL>',
  '</Plugin>',
  'The script can gather all interesting gauges, write a simple one value per line config for itself and subsequent calls. You can remove lines from this file manually, or create filter lists. The script can then inspect data files from some testruns, and remove all gauges, that don’t contain any movement.',
  'The following options are valid within URL blocks:',
  'Host Name',
  'Use Name as the host name when submitting values. Defaults to the global host name setting.',
].join('\n');

describe('a line that is a tag of markup or configuration (`</Plugin>`)', () => {
  it('heads no chunk', () => {
    const chunks = chunkText(PAGE, 300, 80);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.split('\n')[0]).not.toMatch(/^<\//);
  });

  it('leads no sentence in an answer', async () => {
    const chunks = chunkText(PAGE, 300, 80).map((text, i) =>
      doc('collectd/man/collectd.conf.5.pdf', text, i),
    );
    const library = libraryOf(chunks, {
      collectd: 2,
      [stem('plugin')]: 1.5,
      [stem('gauges')]: 3,
      [stem('remove')]: 2,
      [stem('movement')]: 3,
    });
    const reply = await answerOf(library, "Which gauges does collectd's plugin script remove?");
    expect(reply).toContain('remove all gauges');
    expect(reply).not.toMatch(/^<\/?\w+>:/);
  });
});

describe('a name in angle brackets alone (`<stash>`)', () => {
  it('is a placeholder a manual defines, which heads its definition', () => {
    const text = [
      'OPTIONS',
      '<stash>',
      'This option is only valid for apply, branch, drop, pop, show commands. A reference of the form stash@{<revision>}.',
    ].join('\n');
    const [chunk] = chunkText(`${text}\n${'More text on stashes follows here. '.repeat(12)}`, 200, 40).slice(
      -1,
    );
    expect(chunk!.split('\n')[0]).toBe('<stash>');
  });
});
