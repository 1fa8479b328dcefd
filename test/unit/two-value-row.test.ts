import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

// A new user's trial 32 (q30): /etc/services, a row of a name and its port (`rsync; 873/tcp.`) as
// extraction writes it. Of two words, it was dropped as a fragment, and "Which TCP port is
// assigned to rsync in the services file?" was refused, the rows with a comment holding "port".
describe('a row of a table of two values', () => {
  const services = doc(
    'data/services',
    [
      'ldaps; 636/udp.',
      'tinc; 655/tcp; # tinc control port.',
      'silc; 706/tcp.',
      'rsync; 873/tcp.',
      'ftps-data; 989/tcp; # FTP over SSL (data).',
      'tcpmux; 1/tcp; # TCP port service multiplexer.',
    ].join('\n'),
  );

  it('is a passage: it answers what the question asks of its first value', async () => {
    const library = libraryOf([services], {
      tcp: 3.2,
      port: 2.8,
      assign: 3.3,
      rsync: 6.4,
      servic: 2.9,
      file: 1.4,
    });
    const reply = extractiveAnswer(
      await retrieve(library, 'ws', 'Which TCP port is assigned to rsync in the services file?', []),
    );
    expect(reply.content).toMatch(/^rsync; 873\/tcp\./);
  });
});
