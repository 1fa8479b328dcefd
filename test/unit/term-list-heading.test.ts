import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';

// A new user's trial 31: xinetd.conf(5) as a PDF lists what log_on_success may log, each value in
// capitals and what it logs after it ("PID logs the server process id…", "HOST logs the remote host
// address", "DURATION logs the duration of a service session"). The last without a full stop was
// read as a heading: every chunk of the next three pages started with it, so that a question on
// cps's default matched "duration" in all of them, and none was about cps.
describe('an item of a list of values in capitals, each with what it does', () => {
  const text = [
    'DESCRIPTION',
    'log_on_success determines what information is logged when a server is started. Any combination of the following values may be specified:',
    'PID logs the server process id (if it’s an internal xinetd service, the logged process id has a value of 0)',
    'HOST logs the remote host address',
    'EXIT logs the fact that a server exited along with the exit status',
    'DURATION logs the duration of a service session',
    ...Array.from(
      { length: 10 },
      (_, i) =>
        `attribute_${i} Takes a value that says how the service is run, and ${'the rest of what it does is said here. '.repeat(3)}`,
    ),
  ].join('\n');

  it('heads nothing: the chunks after it are under the page’s heading', () => {
    const chunks = chunkText(text, 400, 100);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(1)) expect(chunk.split('\n')[0]).toBe('DESCRIPTION');
  });

  it('heads nothing when it is the first item either', () => {
    const chunks = chunkText(text.replace(/^PID .*\n/m, 'PID logs the server process id\n'), 400, 100);
    for (const chunk of chunks.slice(1)) expect(chunk.split('\n')[0]).toBe('DESCRIPTION');
  });

  it('a heading of that shape alone, with prose under it, still heads it', () => {
    const chunks = chunkText(
      [
        'DESCRIPTION',
        'The service reads its configuration at start.',
        'TLS settings for clients',
        ...Array.from(
          { length: 8 },
          (_, i) => `Sentence ${i} says how a client's certificate is checked by the service.`,
        ),
      ].join('\n'),
      300,
      60,
    );
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.at(-1)!.split('\n')[0]).toBe('TLS settings for clients');
  });
});
