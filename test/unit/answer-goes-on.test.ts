import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// quota's README on mail servers, as a Word document (a fifteenth new user's trial): "how do I
// stop warnquota from emailing users who are already over their hard limit?" was answered with
// the sentence that states the need, without the next one that says how ("So, to do this…").
const QUOTA = [
  'Mail server support by James Bourne jbourne@hardrock.org',
  'If you are running warnquota on a mail server you need to be able to tell warnquota not to send mail when the users quota is either over the hard limit or past the grace period. So, to do this add the value: MAILDEV = any into /etc/warnquota.conf and warnquota will not send mail to those users.',
].join('\n');

describe('an answer', () => {
  it('goes on with the sentence after it that begins by referring back to it ("So, to do this…")', async () => {
    const content = await answerOf(
      libraryOf([doc('word/quota-mailserver.docx', QUOTA)]),
      'On my mail server, how do I stop warnquota from emailing users who are already over their hard limit?',
    );
    expect(content).toMatch(
      /past the grace period\. So, to do this add the value: MAILDEV = any into \/etc\/warnquota\.conf and warnquota will not send mail to those users\./,
    );
  });
});

// got's README as a Word document (a twenty-fifth new user's trial): "Does Got retry failed
// requests by default, and how do I turn that off?" was answered with the first sentence alone.
const GOT = [
  'Retries',
  'By default, Got will retry on failure. To disable this option, set options.retry.limit to 0.',
].join('\n');

describe('an answer that says what is so', () => {
  it('goes on with the sentence after it that says how to change it ("To disable this option, …")', async () => {
    const content = await answerOf(
      libraryOf([doc('npm/got-README.docx', GOT)]),
      'Does Got retry failed requests by default?',
    );
    expect(content).toContain(
      'By default, Got will retry on failure. To disable this option, set options.retry.limit to 0.',
    );
  });
});

// BIND 9's reference (a fifteenth new user's trial): "The default size limit for each individual
// cache is:" and its two items read "…cache is. 90% of physical memory …, or. 2 MB for views…".
const BIND = [
  'max-cache-size',
  'When the amount of data in a cache database reaches the configured limit, named starts purging non-expired records (following an LRU-based strategy).',
  'The default size limit for each individual cache is:',
  '90% of physical memory for views with recursion set to yes (the default), or',
  '2 MB for views with recursion set to no.',
  'Any positive value smaller than 2 MB is ignored and reset to 2 MB.',
].join('\n');

describe('a list a sentence introduces with its colon', () => {
  it('is shown as a list under it, each item as written', async () => {
    const content = await answerOf(
      libraryOf([doc('bind9/reference.html', BIND)]),
      'What is the default size limit for each individual cache in BIND?',
    );
    expect(content).toMatch(
      /The default size limit for each individual cache is:\n\n- 90% of physical memory for views with recursion set to yes \(the default\), or\n- 2 MB for views with recursion set to no\.\n/,
    );
  });
});

// tinyproxy's README as a Word document (a sixteenth new user's trial): the command sits on a
// line of its own inside the sentence, which was cut before it ("…you need to first run.").
const TINYPROXY = [
  'Installation',
  'Tinyproxy uses a standard GNU configure script based on the automake system. If compiling from a git checkout, you need to first run',
  './autogen.sh',
  'from the top level directory to generate the configure script. The release tarball contains the pre-created configure script, so when building from a release, you can skip this step.',
].join('\n');

describe('a sentence a line of code interrupts', () => {
  it('is read whole, the code in it', async () => {
    const content = await answerOf(
      libraryOf([doc('word/tinyproxy-readme.docx', TINYPROXY)]),
      "I'm building tinyproxy from a git checkout. What do I have to run before configure?",
    );
    expect(content).toContain(
      'If compiling from a git checkout, you need to first run ./autogen.sh from the top level directory to generate the configure script.',
    );
  });
});
