import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf } from '../helpers/library.js';

// aria2c(1) as a PDF (the twenty-fourth new user's trial, K2): its sample configuration's lines,
// each a setting and its value, were read as one heading of five names, which held the words of
// "What is the default seed ratio in aria2?" better than the option's own entry pages before.
const SAMPLE = docLines('man/aria2c.1.pdf', 40, [
  'The configuration file is in a text format and has 1 option per each line. In each line, you can specify name-value pair in the format: NAME=VALUE, where name is the long command-line option name without -- prefix. You can use same syntax for the command-line option. The lines beginning # are treated as comments:',
  '# sample configuration file for aria2c',
  'listen-port=60000',
  'dht-listen-port=60000',
  'seed-ratio=1.0',
  'max-upload-limit=50K',
  'ftp-pasv=true',
  'NOTE:',
  'The confidential information such as user/password might be included in the configuration file. It is recommended to change file mode bits of the configuration file (e.g., chmod 600 aria2.conf), so that other user cannot see the content of the file.',
]);
const ENTRY = docLines('man/aria2c.1.pdf', 20, [
  '--seed-ratio=<RATIO>',
  'Specify share ratio. Seed completed torrents until share ratio reaches RATIO. You are strongly encouraged to specify equals or more than 1.0 here. Specify 0.0 if you intend to do seeding regardless of share ratio. Default: 1.0',
  '--seed-time=<MINUTES>',
  'Specify seeding time in (fractional) minutes.',
]);

describe("the lines of a document's example configuration", () => {
  it('head nothing: the setting is answered from its own entry', async () => {
    const reply = await answerOf(libraryOf([SAMPLE, ENTRY]), 'What is the default seed ratio in aria2?');
    expect(reply).toMatch(/--seed-ratio=<RATIO>: .*Default: 1\.0/s);
    expect(reply).not.toContain('listen-port=60000');
  });
});

// fio(1): each option is its name and the kind of value it takes (`iodepth=int`), which heads its
// text as an option's line does; it is no example's setting.
const FIO = docLines('man/fio.1.pdf', 31, [
  'I/O depth',
  'iodepth=int',
  'Number of I/O units to keep in flight against the file. Note that increasing iodepth beyond 1 will not affect synchronous ioengines (except for small degrees when verify_async is in use). Keep an eye on the I/O depth distribution in the fio output to verify that the achieved depth is as expected. Default: 1.',
  'iodepth_batch_complete_min=int, iodepth_batch_complete=int',
  'This defines how many pieces of I/O to retrieve at once. It defaults to 1 which means that we’ll ask for a minimum of 1 I/O in the retrieval process from the kernel. The I/O retrieval will go on until we hit the limit set by iodepth_low.',
  'iodepth_low=int',
  'The low water mark indicating when to start filling the queue again. Defaults to the same as iodepth, meaning that fio will attempt to keep the queue full at all times.',
]);

describe('an option written as its name and the kind of value it takes', () => {
  it('heads its text, which answers for it', async () => {
    const reply = await answerOf(libraryOf([FIO]), 'What is the default iodepth in fio?');
    expect(reply).toMatch(/^iodepth=int: .*Default: 1\./s);
  });
});
