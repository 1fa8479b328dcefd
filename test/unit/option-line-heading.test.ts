import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/server/ingest/extraction/chunk.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-second new user's trial: varnishncsa(1) as a PDF, an option and what it does on
// one line, without a full stop ("-h Print program usage and exit"), then the next option.
const OPTIONS = [
  'OPTIONS',
  '-F <format>',
  'Set the output log format string.',
  '-f <formatfile>',
  'Read output format from a file. Will read a single line from the specified file, and use that line as the format.',
  '-g <request|vxid>',
  'The grouping of the log records. The default is to group by vxid.',
  '-h Print program usage and exit',
  '-j Make format-specifier replacements JSON-compatible. When escaping characters, use JSON-style \\uXXXX escape sequences instead of C-style \\xXX sequences. Empty strings will be replaced with "" instead of "-", and empty integers will be replaced with null. Use -F or -f in combination with -j to write JSON logs.',
  '-L <limit>',
  'Sets the upper limit of incomplete transactions kept before the oldest transaction is force completed. A warning record is synthesized when this happens. This setting keeps an upper bound on the memory usage of running queries. Defaults to 1000 transactions.',
].join('\n');

describe('an option and what it does on one line, without a full stop', () => {
  it('heads none of the chunks after it', () => {
    const chunks = chunkText(OPTIONS, 400, 100);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.split('\n')[0]).not.toMatch(/^-h /);
  });

  it("leads no other option's sentences in an answer", async () => {
    const chunks = chunkText(OPTIONS, 400, 100).map((text, i) =>
      doc('varnish/man/varnishncsa.1.pdf', text, i),
    );
    const library = libraryOf(chunks, {
      varnishncsa: 3.6,
      [stem('write')]: 2.1,
      [stem('log')]: 1.7,
      [stem('lines')]: 2,
      [stem('safe')]: 2.5,
      [stem('embed')]: 3,
      json: 2.4,
    });
    const reply = await answerOf(
      library,
      'How can I get varnishncsa to write log lines that are safe to embed in JSON?',
    );
    expect(reply).not.toMatch(/^-h:/);
  });
});

// aria2c(1) as a PDF (the twenty-fourth new user's trial, I3): an option line whose syntax is
// dense with marks was skipped as code, so its definition had no name and was refused.
const ARIA2C = [
  'Close connection if download speed is lower than or equal to this value(bytes per sec). This option does not affect BitTorrent downloads. Default: 0',
  '-x, --max-connection-per-server=<NUM>',
  'The maximum number of connections to one server for each download. Default: 1',
  '--max-file-not-found=<NUM>',
  'If aria2 receives "file not found" status from the remote HTTP/FTP servers NUM times without getting a single byte, then force the download to fail.',
].join('\n');

describe('an option line dense with the marks of its syntax', () => {
  it('heads its definition, as any option line does', async () => {
    const reply = await answerOf(
      libraryOf([doc('man/aria2c.1.pdf', ARIA2C)]),
      'What is the default of --max-connection-per-server in aria2c?',
    );
    expect(reply).toMatch(/^-x, --max-connection-per-server=<NUM>: .*Default: 1/);
  });
});

// prosody.cfg.lua (the twenty-second new user's trial): a Lua comment starts with '--' as a long
// option does, but a setting commented out there is code, and heads nothing.
const PROSODY = [
  '---Set up a MUC (multi-user chat) room server on conference.example.com:',
  '--Component "conference.example.com" "muc"',
  '--- Store MUC messages in an archive and allow users to access it',
  '--modules_enabled = { "muc_mam" }',
  '',
  '---Set up a file sharing component',
  '--Component "share.example.com" "http_file_share"',
  '',
  '---Set up an external component (default component port is 5347)',
].join('\n');

describe('a Lua comment that starts as a long option does', () => {
  it('heads nothing: what is not in the file is not answered from the line under it', async () => {
    const reply = await answerOf(
      libraryOf([doc('prosody/etc/prosody.cfg.lua', PROSODY)]),
      "What is the maximum upload file size for Prosody's http_file_share component?",
    );
    expect(reply).toMatch(/^I couldn't find anything/);
  });
});
