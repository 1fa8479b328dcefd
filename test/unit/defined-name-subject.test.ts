import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { libraryOf, replyOf } from '../helpers/library.js';
import type { Chunk } from '../../src/server/state/model.js';

const page = (n: number, p: number, text: string): Chunk => ({
  id: `file_1:${n}`,
  fileId: 'file_1',
  filename: 'time/chrony/chrony.conf.5.pdf',
  pages: [p, p],
  text,
});

// A new user's trial 32 (a05, a question no document answers): chrony.conf(5) defines maxchange
// (`maxchange offset start ignore`) and states no default for it. "What is the default value of
// chrony's maxchange directive when it is not set in chrony.conf?" was answered with the defaults
// of minsamples, maxsamples and ntsrefresh, sentences without "maxchange" under other directives.
const CHRONY_CONF = [
  page(
    64,
    13,
    [
      'dumpdir directory',
      'All dump files found in the directory will be removed after start, even if the -r option is not present.',
      'An example of the directive is:',
      'dumpdir /run/chrony',
      'A source whose IP address is 1.2.3.4 would have its measurement history saved in the file /run/chrony/1.2.3.4.dat. History of reference clocks is saved to files named by their reference ID in form of refid:XXXXXXXX.dat.',
      'maxsamples samples',
      'The maxsamples directive sets the default maximum number of samples that chronyd should keep for each source. This setting can be overridden for individual sources in the server and refclock directives. The default value is 0, which disables the configurable limit. The useful range is 4 to 64.',
    ].join('\n'),
  ),
  page(
    65,
    13,
    [
      'maxsamples samples',
      'This setting can be overridden for individual sources in the server and refclock directives. The default value is 0, which disables the configurable limit. The useful range is 4 to 64.',
      'As a special case, setting maxsamples to 1 disables frequency tracking in order to make the sources immediately selectable with only one sample. This can be useful when chronyd is started with the -q or -Q option.',
      'minsamples samples',
      'The minsamples directive sets the default minimum number of samples that chronyd should keep for each source. This setting can be overridden for individual sources in the server and refclock directives. The default value is 6. The useful range is 4 to 64.',
    ].join('\n'),
  ),
  page(
    66,
    13,
    [
      'minsamples samples',
      'This setting can be overridden for individual sources in the server and refclock directives. The default value is 6. The useful range is 4 to 64.',
      'Forcing chronyd to keep more samples than it would normally keep reduces noise in the estimated frequency and offset, but slows down the response to changes in the frequency and offset of the clock. The offsets in the tracking and sourcestats reports (and the tracking.log and statistics.log files) may be smaller than the actual offsets.',
      'ntsdumpdir directory',
      'This directive specifies a directory for the client to save NTS cookies it received from the server in order to avoid making an NTS-KE request when chronyd is started again.',
    ].join('\n'),
  ),
  page(
    101,
    20,
    [
      'makestep threshold limit',
      'A negative value disables the limit.',
      'On most systems it is desirable to step the system clock only on boot, before starting programs that rely on time advancing monotonically forwards.',
      'An example of the use of this directive is:',
      'makestep 0.1 3',
      'This would step the system clock if the adjustment is larger than 0.1 seconds, but only in the first three clock updates.',
      'maxchange offset start ignore',
      'This directive sets the maximum offset to be accepted on a clock update. The offset is measured relative to the current estimate of the true time, which is different from the system time if a previous slew did not finish.',
      'The check is enabled after the specified number of clock updates to allow a large initial offset to be corrected on start.',
    ].join('\n'),
  ),
  page(
    102,
    20,
    [
      'maxchange offset start ignore',
      'The check is enabled after the specified number of clock updates to allow a large initial offset to be corrected on start. Offsets larger than the specified maximum will be ignored for the specified number of times. Another large offset will cause chronyd to give up and exit. A negative value can be used to disable the limit to ignore all large offsets. A syslog message will be generated when an offset is ignored or it causes the exit.',
      'An example of the use of this directive is:',
      'maxchange 1000 1 2',
      'After the first clock update, chronyd will check the offset on every clock update, it will ignore two adjustments larger than 1000 seconds and exit on another one.',
      'maxclockerror error-in-ppm',
    ].join('\n'),
  ),
];

describe('a name the documents define', () => {
  // Weighed as kb serve weighed the question's words in that trial's workspace.
  const library = libraryOf(CHRONY_CONF, {
    [stem('default')]: 1.89,
    chrony: 2.89,
    [stem('maxchange')]: 6.92,
    [stem('minsamples')]: 6.9,
    [stem('directive')]: 2.24,
    not: 0.81,
    set: 1.78,
    conf: 2.88,
    'chrony.conf': 6.08,
  });

  it("is answered only by what is about it: no other directive's default", async () => {
    const reply = await replyOf(
      library,
      "What is the default value of chrony's maxchange directive when it is not set in chrony.conf?",
    );
    expect(reply.sources).toEqual([]);
  });

  it('is answered by its own passage when that holds the answer', async () => {
    const reply = await replyOf(
      library,
      'What is the default value of the minsamples directive in chrony.conf?',
    );
    expect(reply.content).toMatch(/^minsamples samples: .*The default value is 6\./s);
  });

  // The same trial (q04): Apache's mod_log_config defines LogFormat, and lists its format codes in
  // a table that does not say LogFormat. A question on a code of it is not on LogFormat itself.
  it('is not what a question on a kind of thing of it is about', async () => {
    const page = (n: number, text: string): Chunk => ({
      id: `file_2:${n}`,
      fileId: 'file_2',
      filename: 'web/apache/manual/mod_log_config.html',
      text,
    });
    const library = libraryOf(
      [
        page(
          0,
          'LogFormat Directive\nLogFormat format|nickname [nickname]: Describes a format for use in a log file.',
        ),
        page(
          1,
          'Custom Log Formats\nFormat String: %D; Description: The time taken to serve the request, in microseconds.\nFormat String: %h; Description: Remote hostname.',
        ),
      ],
      {
        [stem('logformat')]: 6,
        code: 2,
        [stem('microseconds')]: 5,
        [stem('served')]: 2,
        request: 1.5,
        time: 1.5,
        taken: 2,
      },
    );
    const reply = await replyOf(
      library,
      'Which LogFormat code logs the time taken to serve the request in microseconds?',
    );
    expect(reply.content).toContain('%D');
  });
});
