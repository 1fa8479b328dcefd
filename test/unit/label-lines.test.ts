import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

// Privoxy's config.html (a sixteenth new user's trial): each option lists its attributes as a
// label on a line of its own and the value on the next ("Effect if unset:" / "A default value of
// 300 seconds is used."). Each label became the heading of its value, in place of the option's
// name, so "If I don't set socket-timeout in Privoxy, how long until a socket times out?" was
// refused, though kb search ranked the chunk first.
const CONFIG = [
  '7.6.8. socket-timeout',
  'Specifies:',
  'Number of seconds after which a socket times out if no data is received.',
  'Type of value:',
  'Time in seconds.',
  'Default value:',
  'None',
  'Effect if unset:',
  'A default value of 300 seconds is used.',
  'Notes:',
  'The default is quite high and you probably want to reduce it.',
  '7.6.9. max-client-connections',
  'Specifies:',
  'Maximum number of client connections that will be served.',
  'Type of value:',
  'Positive number.',
  'Default value:',
  '128',
].join('\n');

describe("a label on a line of its own and its value on the next (an option's attributes)", () => {
  it("are read as one line, under the option's name", async () => {
    const library = libraryOf([doc('privoxy/manual/config.html', CONFIG)]);
    const timeout = extractiveAnswer(
      await retrieve(
        library,
        'ws',
        "If I don't set socket-timeout in Privoxy, how long until a socket times out?",
        [],
      ),
    ).content;
    expect(timeout).toContain('Effect if unset: A default value of 300 seconds is used.');
    const connections = extractiveAnswer(
      await retrieve(library, 'ws', 'What is the default max-client-connections in Privoxy?', []),
    ).content;
    expect(connections).toMatch(/^7\.6\.9\. max-client-connections: Default value: 128\./);
  });
});
