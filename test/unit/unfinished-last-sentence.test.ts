import { describe, expect, it } from 'vitest';
import { passagesOf } from '../../src/server/answer/passages.js';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 31 (q25): dropbear(8) leaves out the full stop of an option's last sentence
// ("Set the number of authentication attempts allowed per connection. If unspecified the default
// is 10 (MAX_AUTH_TRIES)"). Short and without an end mark, that sentence was read as a heading,
// though it ends a line of prose: "How many authentication attempts does dropbear allow per
// connection by default?" was answered without the 10.
const OPTIONS = docLines('net/dropbear/dropbear.8.pdf', 2, [
  'OPTIONS',
  '-T max_authentication_attempts',
  'Set the number of authentication attempts allowed per connection. If unspecified the default is 10 (MAX_AUTH_TRIES)',
  '-c forced_command',
  'Disregard the command provided by the user and always run forced_command.',
]);

describe("a line's last sentence without its full stop", () => {
  it("is a passage under the line's lead, no heading", () => {
    expect(passagesOf(OPTIONS).find((p) => p.text.startsWith('If unspecified'))?.lead).toBe(
      '-T max_authentication_attempts',
    );
  });

  it('answers with the rest of its definition', async () => {
    const answer = await answerOf(
      libraryOf(
        [OPTIONS],
        weightsOf({ authentication: 4, attempts: 3, dropbear: 5, allow: 1.5, connection: 2, default: 1.2 }),
      ),
      'How many authentication attempts does dropbear allow per connection by default?',
    );
    expect(answer).toContain('If unspecified the default is 10 (MAX_AUTH_TRIES)');
  });
});

// Trial 31's q21: corosync.conf(5) ends knet_ping_timeout's text with a note in parentheses, no
// sentence of its own ("…from the config file. (default is token timeout / knet_pong_count)");
// read alone (once a line's last sentence without an end mark was no longer a heading), it
// answered first for "What is the default token timeout in corosync?".
const COROSYNC = docLines('cluster/corosync/corosync.conf.5.pdf', 1, [
  'knet_ping_timeout',
  'If no ping is received within this time, the knet link is declared dead. knet_ping_interval and knet_ping_timeout are a pair, if one is specified the other should be too, otherwise one will be calculated from the token timeout and one will be taken from the config file. (default is token timeout / knet_pong_count)',
  'token',
  'This timeout is used directly or as a base for real token timeout calculation (explained in token_coefficient section). Token timeout specifies in milliseconds until a token loss is declared after not receiving a token. The default is 3000 milliseconds.',
]);

describe('a note in parentheses after a sentence, up to a line long', () => {
  it("is that sentence's, not a passage alone", async () => {
    expect(passagesOf(COROSYNC).map((p) => p.text)).not.toContain(
      '(default is token timeout / knet_pong_count)',
    );
    const answer = await answerOf(
      libraryOf([COROSYNC], weightsOf({ token: 4, timeout: 2.5, corosync: 5, default: 1.2 })),
      'What is the default token timeout in corosync?',
    );
    expect(answer).toMatch(/^token: This timeout is used directly/);
  });
});
