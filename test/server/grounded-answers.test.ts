import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';

// Documents shaped as real manuals are (#33): a settings reference in HTML, a back-of-book index
// and a table of contents, a function reference; each test's question fails on the old code.
const SETTINGS = `<html><head><title>Resource Consumption</title></head><body>
<h1>Resource Consumption</h1>
<p>These settings control how much memory the server uses for its work.</p>
<dl>
<dt>shared_buffers (integer)</dt>
<dd><p>Sets the amount of memory the database server uses for shared memory buffers. The default is typically 128 megabytes (128MB), but might be less if your kernel settings will not support it.</p></dd>
<dt>work_mem (integer)</dt>
<dd><p>Sets the base maximum amount of memory to be used by a query operation (such as a sort or hash table) before writing to temporary disk files. If this value is specified without units, it is taken as kilobytes. The default value is four megabytes (4MB). Note that a complex query might perform several sort and hash operations at the same time.</p></dd>
<dt>hash_mem_multiplier (floating point)</dt>
<dd><p>Used to compute the maximum amount of memory that hash-based operations can use. The final limit is determined by multiplying work_mem by hash_mem_multiplier. The default value is 2.0, which makes hash-based operations use twice the usual work_mem base amount.</p></dd>
<dt>maintenance_work_mem (integer)</dt>
<dd><p>Specifies the maximum amount of memory to be used by maintenance operations, such as VACUUM and CREATE INDEX. The default value is 64 megabytes (64MB).</p></dd>
<dt>autovacuum_work_mem (integer)</dt>
<dd><p>Specifies the maximum amount of memory to be used by each autovacuum worker process. The default value is -1, indicating that the value of maintenance_work_mem should be used instead.</p></dd>
</dl></body></html>`;

const entries = [
  ['upper', 'String Functions and Operators', 'Range/Multirange Functions and Operators'],
  ['lower', 'String Functions and Operators', 'Range/Multirange Functions and Operators'],
  ['work_mem', 'Resource Consumption', 'Sorting and hashing'],
  ['maintenance_work_mem', 'Resource Consumption', 'Routine Vacuuming'],
  ['VACUUM', 'Routine Vacuuming', 'SQL Commands'],
  ['shared_buffers', 'Resource Consumption', 'Kernel Resources'],
  ['timeout', 'Client Connection Defaults', 'Statement Behavior'],
  ['string', 'String Functions and Operators', 'Data Types'],
  ['memory', 'Resource Consumption', 'Kernel Resources', 'Shared Memory'],
  ['default value', 'Resource Consumption', 'Statement Behavior', 'Client Connection Defaults'],
];
// A back-of-book index: every entry a link to the pages that treat it.
const INDEX = `<html><head><title>Index</title></head><body><h1>Index</h1><dl>${entries
  .map(([term, ...places]) => `<dt>${term}, ${places.map((p) => `<a href="#${p}">${p}</a>`).join(', ')}</dt>`)
  .join('\n')}</dl></body></html>`;
// A table of contents.
const CONTENTS = `<html><head><title>Contents</title></head><body><nav><ul>${[
  '19.4. Resource Consumption',
  '19.4.1. Memory',
  '19.4.2. Disk',
  '19.5. Write Ahead Log',
  '9.4. String Functions and Operators',
  '9.20. Range/Multirange Functions and Operators',
  '24.1. Routine Vacuuming',
  '20.11. Client Connection Defaults',
  '20.12. Statement Behavior',
]
  .map((t) => `<li><a href="#">${t}</a></li>`)
  .join('')}</ul></nav></body></html>`;
const STRINGS = `<html><head><title>String Functions</title></head><body><h1>String Functions and Operators</h1>
<p>This section describes functions and operators for examining and manipulating string values.</p>
<h2>upper</h2><p>upper(text) converts the string to all upper case, according to the rules of the database's locale. For example, upper('tom') returns TOM.</p>
<h2>lower</h2><p>lower(text) converts the string to all lower case, according to the rules of the database's locale.</p>
</body></html>`;

const LOADER = `# The config loader

## load_config(path)

Reads the settings file at \`path\` and gives back a dictionary of its settings, with every key in lower case.
Relative paths are resolved against the current working directory, and a missing file is treated as an empty one.
Environment variables named in the file as \${NAME} are expanded before the settings are read, so that secrets need not be written in it.
Comments start with a hash sign and run to the end of the line; blank lines are ignored.
Keys may be repeated, and the last value given wins, which lets a local file override a shared one.
When the file cannot be parsed, it returns None and logs the line number of the first bad line.

## save_config(path, settings)

Writes the settings to the file at \`path\`, replacing what it held.
`;
const SQL = `# Errors in queries

A query with a syntax error returns SQLSTATE 42601 and the position of the error. Syntax errors are reported before anything runs, and the statement returns no rows.
A query that divides by zero returns SQLSTATE 22012.
`;

const UBUNTU = `version,codename,series,created,release,eol
13.04,Raring Ringtail,raring,2012-10-18,2013-04-25,2014-01-27
20.04 LTS,Focal Fossa,focal,2019-10-17,2020-04-23,2025-05-29
22.04 LTS,Jammy Jellyfish,jammy,2021-10-14,2022-04-21,2027-06-01
`;
const RELEASES = `version,codename,series,created,release,eol
10,Buster,buster,2017-06-17,2019-07-06,2022-09-10
11,Bullseye,bullseye,2019-07-06,2021-08-14,2024-08-14
12,Bookworm,bookworm,2021-08-14,2023-06-10,2026-06-10
`;
const VARIABLES = `HISTFILESIZE
The maximum number of lines contained in the history file. When this variable is assigned a value, the history file is truncated, if necessary, to contain no more than that number of lines by removing the oldest entries.
HISTSIZE
The maximum number of commands to remember on the history list. If the value is 0, commands are not saved in the history list. The shell sets the default value to the value of HISTSIZE after reading any startup files. The default value is 500.
`;

let server: RunningServer;
let key: string;
beforeAll(async () => {
  const docs = tempDir();
  writeFileSync(join(docs, 'runtime-config-resource.html'), SETTINGS);
  writeFileSync(join(docs, 'bookindex.html'), INDEX);
  writeFileSync(join(docs, 'toc.html'), CONTENTS);
  writeFileSync(join(docs, 'functions-string.html'), STRINGS);
  writeFileSync(join(docs, 'loader.md'), LOADER);
  writeFileSync(join(docs, 'sql-errors.md'), SQL);
  writeFileSync(join(docs, 'data-debian.csv'), RELEASES);
  writeFileSync(join(docs, 'data-ubuntu.csv'), UBUNTU);
  writeFileSync(
    join(docs, 'readme-tabulate.md'),
    '# Text formatting\n\nBy default, tabulate removes leading and trailing whitespace from each cell. To keep it, set the module-level flag PRESERVE_WHITESPACE to True.\n',
  );
  writeFileSync(join(docs, 'bash-variables.txt'), VARIABLES);
  // Other documents about syntax errors, enough that the loader is not among a search's best.
  for (const tool of ['awk', 'sed', 'jq', 'yaml', 'toml', 'css', 'regex', 'shell'])
    writeFileSync(
      join(docs, `${tool}-errors.md`),
      `# ${tool} errors\n\nOn a syntax error, ${tool} returns exit status 2 and prints the error with its line. A syntax error stops ${tool} before any input is read.\n`,
    );
  server = await startTestServer({ docsDir: docs });
  key = Object.values(server.keys)[0]!;
});
afterAll(() => server.close());

async function thread() {
  const { id } = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
  return async (content: string): Promise<{ content: string; sources: string[] }> =>
    (await api(server, key, 'POST', `/v1/threads/${id}/messages`, { content })).json.data.aiResponse;
}
const firstSentence = (answer: string) => answer.split(/\n\nSources:/)[0]!.split(/(?<=[.!?])\s/)[0]!;

describe('small talk', () => {
  // A new user's trial 42: "hello" was answered with BIRD's OSPF "Hello interval", with citations.
  it('is answered as such, citing nothing', async () => {
    const ask = await thread();
    const hello = await ask('Hello!');
    expect(hello.content).toMatch(/^Hello! Ask me anything about this workspace's documents/);
    expect(hello.sources).toEqual([]);
    // A question after it is answered from the documents.
    expect((await ask('What is the default value of work_mem?')).content).toContain('4MB');
    expect((await ask('thanks')).content).toBe("You're welcome.");
  });
});

describe('answers from manuals (#33)', () => {
  it("answers with the subject's own passage, not one that mentions it in passing (cause 5)", async () => {
    const ask = await thread();
    const answer = await ask('What is the default value of work_mem?');
    expect(firstSentence(answer.content)).toContain('4MB');
    expect(answer.content).not.toContain('2.0');
    expect(answer.sources).toEqual(['runtime-config-resource.html']);
  });

  it('shows a sentence that needs its heading with it (cause 4)', async () => {
    const ask = await thread();
    const answer = await ask('What is the default of maintenance_work_mem?');
    expect(firstSentence(answer.content)).toMatch(/^maintenance_work_mem \(integer\): .*64MB/);
  });

  it('does not answer from an index page or a table of contents (cause 6)', async () => {
    const ask = await thread();
    const answer = await ask('What does upper do to a string?');
    expect(answer.sources).toEqual(['functions-string.html']);
    expect(answer.content).toContain('upper case');
    const none = await ask('Which functions and operators work on ranges?');
    expect(none.sources).not.toContain('bookindex.html');
    expect(none.sources).not.toContain('toc.html');
  });

  it('answers a follow-up from the passage the previous answer cited (cause 7)', async () => {
    const ask = await thread();
    const first = await ask('What does load_config do?');
    expect(first.sources).toEqual(['loader.md']);
    const follow = await ask('What does it return on a syntax error?');
    expect(follow.sources[0]).toBe('loader.md');
    expect(follow.content).toContain('returns None');
  });

  it("reads a passage with the name of its document: a data file's rows are about what the file is named for", async () => {
    const ask = await thread();
    const answer = await ask('When was Debian 11 released?');
    expect(answer.sources).toEqual(['data-debian.csv']);
    expect(firstSentence(answer.content)).toContain('release: 2021-08-14');
  });

  it('goes on to the sentence after the one that matches, in its paragraph, when that one sets it up', async () => {
    const ask = await thread();
    const answer = await ask(
      'What default value does the shell give HISTSIZE after reading the startup files?',
    );
    expect(answer.sources).toEqual(['bash-variables.txt']);
    expect(answer.content).toContain('The default value is 500.');
  });

  it('does not go on to a sentence about another subject', async () => {
    const ask = await thread();
    const answer = await ask('When was Debian 11 released?');
    expect(answer.content).not.toMatch(/Bookworm|Buster/);
  });

  it('does not answer about a version, a number or an identifier with a passage about another', async () => {
    const ask = await thread();
    expect((await ask('When was Ubuntu 22.04 released?')).content).toContain('release: 2022-04-21');
    const none = await ask('When was Ubuntu 27.04 released?');
    expect(none.sources).toEqual([]);
    const option = await ask('What does the reload_config option of load_config do?');
    expect(option.sources).toEqual([]);
  });

  it('finds a dotted name by its last part where that is a name of its own', async () => {
    const ask = await thread();
    const answer = await ask('What is the tabulate.PRESERVE_WHITESPACE flag for?');
    expect(answer.sources).toEqual(['readme-tabulate.md']);
    expect(answer.content).toContain('PRESERVE_WHITESPACE to True');
  });
});
