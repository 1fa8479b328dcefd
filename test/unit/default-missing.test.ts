import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twentieth new user's trial (A5): curl(1) says no default for --connect-timeout.
const CONNECT_TIMEOUT = doc(
  'curl/curl.1.txt',
  [
    '--connect-timeout <fractional seconds>',
    "Maximum time in seconds that you allow curl's connection to take. This only limits the connection phase, so if curl connects within the given period it will continue - if not it will exit. Since version 7.32.0, this option accepts decimal values.",
    'The "connection phase" is considered complete when the requested TCP, TLS or QUIC handshakes are done.',
    'If --connect-timeout is provided several times, the last set value will be used.',
  ].join('\n'),
);
const MAX_REDIRS = doc(
  'curl/curl.1.txt',
  [
    '--max-redirs <num>',
    'Set maximum number of redirections to follow. When -L, --location is used, to prevent curl from following too many redirects, by default, the limit is set to 50 redirects. Set this option to -1 to make it unlimited.',
  ].join('\n'),
  1,
);
const weights = { [stem('curl')]: 2, '--connect-timeout': 5, '--max-redirs': 5, [stem('value')]: 1.3 };

describe('a question that asks for a default only', () => {
  it('is not answered by what the documents say of the setting besides its default', async () => {
    const reply = await answerOf(
      libraryOf([CONNECT_TIMEOUT, MAX_REDIRS], weights),
      "What is curl's default value for --connect-timeout?",
    );
    expect(reply).toMatch(/^I couldn't find/);
  });

  it('is answered by the default the documents state', async () => {
    const reply = await answerOf(
      libraryOf([CONNECT_TIMEOUT, MAX_REDIRS], weights),
      "What is curl's default value for --max-redirs?",
    );
    expect(reply).toContain('the limit is set to 50 redirects');
  });
});
