import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 33 (i06, k03): Postfix's manuals write each parameter with its default in
// parentheses after its name, the description under it without the value.
const POSTSCREEN = doc(
  'mail/postfix/postscreen.8postfix.pdf',
  [
    'postscreen_cache_cleanup_interval (12h)',
    'The amount of time between postscreen(8) cache cleanup runs.',
    'postscreen_cache_map (btree:$data_directory/postscreen_cache)',
    'Persistent storage for the postscreen(8) server decisions.',
    'postscreen_cache_retention_time (7d)',
    'The amount of time that postscreen(8) will cache an expired temporary allowlist entry before it is removed.',
    'postscreen_greet_wait (normal: 6s, overload: 2s)',
    'The amount of time that postscreen(8) will wait for an SMTP client to send a command before its turn.',
  ].join('\n'),
);

const WEIGHTS = { postscreen_cache_retention_time: 9, postscreen_greet_wait: 9, postscreen: 5, default: 1.5 };

describe("a setting's default in parentheses after its name", () => {
  const library = libraryOf([POSTSCREEN], WEIGHTS);

  it('answers what its default is, shown with it', async () => {
    const reply = await answerOf(library, 'What is the default postscreen_cache_retention_time?');
    expect(reply).toContain('postscreen_cache_retention_time (7d)');
    expect(reply).toContain('cache an expired temporary allowlist entry');
  });

  it('is no function signature: its parentheses are kept', async () => {
    const reply = await answerOf(library, 'What is postscreen_greet_wait?');
    expect(reply).toContain('postscreen_greet_wait (normal: 6s, overload: 2s)');
    expect(reply).not.toContain('postscreen_greet_wait()');
  });
});

// Trial 43 (i03): ccache's manual names each setting with its environment variable in
// parentheses; the answer's label read "compiler_check():", a function that does not exist.
const CCACHE = doc(
  'ccache/ccache-manual.html',
  [
    'compiler_check (CCACHE_COMPILERCHECK)',
    'By default, ccache includes the modification time (“mtime”) and size of the compiler in the hash to ensure that results retrieved from the cache are accurate.',
    'compiler (CCACHE_COMPILER or (deprecated) CCACHE_CC)',
    'This option can be used to force the name of the compiler to use.',
  ].join('\n'),
);

describe("a setting's other name in parentheses after it", () => {
  const library = libraryOf([CCACHE], { compiler_check: 9, compil: 3, ccache: 2, default: 1.5 });

  it('is no function signature: the label keeps it', async () => {
    const reply = await answerOf(library, 'What does ccache hash by default for compiler_check?');
    expect(reply).toContain('compiler_check (CCACHE_COMPILERCHECK)');
    expect(reply).not.toContain('compiler_check()');
  });
});
