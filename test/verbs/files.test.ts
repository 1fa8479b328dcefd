import { afterEach, describe, expect, it } from 'vitest';
import { runDelete } from '../../src/commands/files/delete.js';
import { runGet } from '../../src/commands/files/get.js';
import { runList } from '../../src/commands/files/list.js';
import { runWait } from '../../src/commands/files/wait.js';
import { CliError, PartialFailure } from '../../src/errors.js';
import { reportError } from '../../src/report.js';
import { Chalk } from 'chalk';
import { type Fake, fakeContext } from '../helpers/context.js';

const file = (id: string, status = 'COMPLETED', extra: Record<string, unknown> = {}) => ({
  id,
  originalFilename: `${id}.pdf`,
  fileSize: 2048,
  mimeType: 'application/pdf',
  indexingStatus: status,
  createdAt: '2026-11-22T10:00:00Z',
  ...extra,
});
const notFound = { error: { code: 'not_found', message: 'file not found' } };

let fake: Fake;
afterEach(() => fake?.agent.close());

describe('files list and get', () => {
  it('lists files as rows, sizes in bytes when piped and readable on a terminal', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files?limit=50').reply(200, { data: [file('f1')], meta: { returned: 1, limit: 50 } });
    await runList(fake.ctx, {});
    expect(fake.stdout()).toBe('f1\tf1.pdf\t2048\tapplication/pdf\tCOMPLETED\t2026-11-22T10:00:00Z\t\n');
    fake = fakeContext({ tty: true, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files?limit=50').reply(200, { data: [file('f1')] });
    await runList(fake.ctx, {});
    expect(fake.stdout()).toContain('2.0 kB');
  });

  it("shows a FAILED file's failure code piped and on a terminal, indexingError in JSON", async () => {
    const failed = file('f2', 'FAILED');
    const detail = { ...failed, indexingError: { code: 'parse_error', message: 'the PDF cannot be read' } };
    for (const [options, tty] of [
      [{}, false],
      [{}, true],
      [{ json: true }, false],
    ] as const) {
      fake = fakeContext({ options, tty, columns: 200, env: { NO_COLOR: '1' } });
      // The list does not carry the reason (nor does the published interface's): the detail does.
      fake.on('GET', '/v1/files?limit=50').reply(200, { data: [file('f1'), failed] });
      fake.on('GET', '/v1/files/f2').reply(200, { data: detail });
      await runList(fake.ctx, {});
      const out = fake.stdout();
      if ('json' in options) expect(JSON.parse(out)).toEqual([file('f1'), detail]);
      // Beside other files, the code alone: their names keep the room.
      else if (tty) expect(out).toMatch(/ERROR\n[\s\S]*FAILED +\S.* +parse_error\n/);
      else
        expect(out.split('\n')[1]).toBe(
          'f2\tf2.pdf\t2048\tapplication/pdf\tFAILED\t2026-11-22T10:00:00Z\tparse_error',
        );
    }
  });

  it('on a terminal too narrow for the type, leaves it out and keeps the name whole', async () => {
    const long = file('file_P1gQkUDJx6ulRe', 'COMPLETED', {
      originalFilename: 'memcached-protocol.txt.gz',
      mimeType: 'application/gzip',
    });
    fake = fakeContext({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files?limit=50').reply(200, { data: [long] });
    await runList(fake.ctx, {});
    const [header, row] = fake.stdout().split('\n');
    expect(header!.split(/\s+/)).toEqual(['ID', 'NAME', 'SIZE', 'STATUS', 'CREATED']);
    expect(row).toContain('memcached-protocol.txt.gz');
    fake = fakeContext({ tty: true, columns: 120, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files?limit=50').reply(200, { data: [long] });
    await runList(fake.ctx, {});
    expect(fake.stdout()).toContain('application/gzip');
  });

  it('on a narrower terminal, leaves out the creation time, then the size, rather than cut names to stubs', async () => {
    // A README check as a new user: at 60 columns every name was cut to 6 characters (`h…y.md`).
    const rows = ['handbook/holiday-policy.md', 'handbook/expenses-policy.md'].map((name, i) =>
      file(`file_P1gQkUDJx6ulR${i}`, 'COMPLETED', { originalFilename: name }),
    );
    const list = async (columns: number) => {
      fake = fakeContext({ tty: true, columns, env: { NO_COLOR: '1' } });
      fake.on('GET', '/v1/files?limit=50').reply(200, { data: rows });
      await runList(fake.ctx, {});
      const [header, ...lines] = fake.stdout().trimEnd().split('\n');
      return { header: header!.split(/\s+/), names: lines.map((l) => l.split(/\s+/)[1]!) };
    };
    const at60 = await list(60);
    expect(at60.header).toEqual(['ID', 'NAME', 'SIZE', 'STATUS']);
    for (const name of at60.names) expect(name.length).toBeGreaterThanOrEqual(20);
    expect(at60.names[0]).toMatch(/^handbo\S*…\S*-policy\.md$/);
    const at52 = await list(52);
    expect(at52.header).toEqual(['ID', 'NAME', 'STATUS']);
    // Wide enough, every column.
    expect((await list(100)).header).toEqual(['ID', 'NAME', 'SIZE', 'TYPE', 'STATUS', 'CREATED']);
  });

  it('on a terminal too narrow for a name, cuts it in its middle: the end tells two files apart', async () => {
    const rows = ['usrdoc/misc/dpkg-README.api', 'usrdoc/misc/diffutils-changelog.gz'].map((name, i) =>
      file(`file_P1gQkUDJx6ulR${i}`, 'COMPLETED', { originalFilename: name }),
    );
    // Narrow enough that, the optional columns gone, the names are still cut.
    fake = fakeContext({ tty: true, columns: 46, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files?limit=50').reply(200, { data: rows });
    await runList(fake.ctx, {});
    const names = fake
      .stdout()
      .split('\n')
      .slice(1, 3)
      .map((l) => l.split(/\s+/)[1]!);
    expect(names[0]).toMatch(/^usr\S*…\S*\.api$/);
    expect(names[1]).toMatch(/^usr\S*…\S*log\.gz$/);
  });

  it('on a terminal, lists one status without the columns every row shares or none has', async () => {
    const failed = file('f2', 'FAILED');
    const detail = { ...failed, indexingError: { code: 'parse_error', message: 'the PDF cannot be read' } };
    fake = fakeContext({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files?limit=50&status=FAILED').reply(200, { data: [failed] });
    fake.on('GET', '/v1/files/f2').reply(200, { data: detail });
    await runList(fake.ctx, { status: 'FAILED' });
    const [header, row] = fake.stdout().split('\n');
    expect(header!.split(/\s+/)).toEqual(['ID', 'NAME', 'CREATED', 'ERROR']);
    expect(row).toMatch(/^f2 +f2\.pdf +\S.* +parse_error: the PDF cannot be read$/);
    fake = fakeContext({ tty: true, columns: 80, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files?limit=50&status=COMPLETED').reply(200, { data: [file('f1')] });
    await runList(fake.ctx, { status: 'COMPLETED' });
    expect(fake.stdout().split('\n')[0]!.split(/\s+/)).toEqual(['ID', 'NAME', 'SIZE', 'TYPE', 'CREATED']);
    // Piped, the same columns whatever the filter.
    fake = fakeContext();
    fake.on('GET', '/v1/files?limit=50&status=COMPLETED').reply(200, { data: [file('f1')] });
    await runList(fake.ctx, { status: 'COMPLETED' });
    expect(fake.stdout()).toBe('f1\tf1.pdf\t2048\tapplication/pdf\tCOMPLETED\t2026-11-22T10:00:00Z\t\n');
  });

  it('shows a detail record with its indexing error, sanitised', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/f1').reply(200, {
      data: file('f1', 'FAILED', { indexingError: { code: 'ocr', message: 'bad\u001b[2Jpage' } }),
    });
    await runGet(fake.ctx, 'f1');
    expect(fake.stdout()).toContain('Error\tocr: badpage\n');
  });
});

describe('files get by name', () => {
  it('shows the file a name names when no file has it as id, its detail read by id', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/manual.pdf').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, {
      data: [file('f1'), file('f2', 'COMPLETED', { originalFilename: 'manual.pdf' })],
    });
    fake.on('GET', '/v1/files/f2').reply(200, {
      data: file('f2', 'FAILED', {
        originalFilename: 'manual.pdf',
        indexingError: { code: 'no_text', message: 'no text' },
      }),
    });
    await runGet(fake.ctx, 'manual.pdf');
    expect(fake.stdout()).toContain('ID\tf2\n');
    expect(fake.stdout()).toContain('Error\tno_text: no text\n');
  });

  it('asks for an id when two files have the name, and says neither id nor name was found', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/same.md').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, {
      data: [
        file('f1', 'COMPLETED', { originalFilename: 'same.md' }),
        file('f3', 'COMPLETED', { originalFilename: 'same.md' }),
      ],
    });
    const twice = (await runGet(fake.ctx, 'same.md').catch((e: unknown) => e)) as CliError;
    expect(twice).toBeInstanceOf(CliError);
    expect(twice.exitCode).toBe(2);
    expect(twice.message).toBe('2 files are named same.md');
    expect(twice.hint).toContain('f1, f3');
    fake.agent.close();
    fake = fakeContext();
    fake.on('GET', '/v1/files/nope.md').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, { data: [file('f1')] });
    const none = (await runGet(fake.ctx, 'nope.md').catch((e: unknown) => e)) as Error;
    expect(none.message).toBe('no file has the id or name nope.md');
  });
});

describe('files get by the name in its folder', () => {
  it('finds a file of a docs folder by its name alone when no file has the whole name', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/find.pdf').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, {
      data: [
        file('f1', 'COMPLETED', { originalFilename: 'man/find.pdf.bak' }),
        file('f2', 'COMPLETED', { originalFilename: 'man/find.pdf' }),
      ],
    });
    fake
      .on('GET', '/v1/files/f2')
      .reply(200, { data: file('f2', 'COMPLETED', { originalFilename: 'man/find.pdf' }) });
    await runGet(fake.ctx, 'find.pdf');
    expect(fake.stdout()).toContain('Name\tman/find.pdf\n');
  });

  it('asks which, with each one’s whole name, when two folders hold the name', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/README.md').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, {
      data: [
        file('f1', 'COMPLETED', { originalFilename: 'a/README.md' }),
        file('f3', 'COMPLETED', { originalFilename: 'b/README.md' }),
      ],
    });
    const err = (await runGet(fake.ctx, 'README.md').catch((e: unknown) => e)) as CliError;
    expect(err).toBeInstanceOf(CliError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('2 files are named README.md in their folders');
    expect(err.hint).toBe('give one’s id or whole name: f1 (a/README.md), f3 (b/README.md)');
  });
});

describe('files get times', () => {
  it('shows every time of the record as it shows the creation: relative on a terminal, exact piped', async () => {
    const record = file('f1', 'COMPLETED', {
      createdAt: '2026-11-22T11:00:00Z',
      indexedAt: '2026-11-22T11:00:01Z',
    });
    fake = fakeContext({ tty: true, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files/f1').reply(200, { data: record });
    await runGet(fake.ctx, 'f1');
    expect(fake.stdout()).toMatch(/Created: +1h ago\n/);
    expect(fake.stdout()).toMatch(/Indexed at: +1h ago\n/);
    fake.agent.close();
    fake = fakeContext();
    fake.on('GET', '/v1/files/f1').reply(200, { data: record });
    await runGet(fake.ctx, 'f1');
    expect(fake.stdout()).toContain('Indexed at\t2026-11-22T11:00:01Z\n');
  });
});

describe('files delete', () => {
  it('treats an empty list of ids as a successful no-op, as xargs -r does', async () => {
    fake = fakeContext({ stdin: '\n  \n' });
    await runDelete(fake.ctx, ['-'], { yes: true });
    expect(fake.stdout()).toBe('');
    fake = fakeContext({ tty: true, stdinIsTTY: false, stdin: '' });
    await runDelete(fake.ctx, ['-'], { yes: true });
    expect(fake.stderr()).toContain('nothing to delete');
  });

  it('prints what it deleted and throws a PartialFailure carrying each failure', async () => {
    fake = fakeContext({ stdin: 'f1 f2\nf3\n' });
    fake.on('DELETE', '/v1/files/f1').reply(204, '');
    fake.on('DELETE', '/v1/files/f2').reply(404, notFound);
    fake.on('DELETE', '/v1/files/f3').reply(204, '');
    const err = await runDelete(fake.ctx, ['-'], { yes: true }).catch((e: unknown) => e);
    expect(fake.stdout()).toBe('deleted\tf1\ndeleted\tf3\n');
    expect(err).toBeInstanceOf(PartialFailure);
    expect((err as PartialFailure).exitCode).toBe(3);
    expect((err as PartialFailure).failures.map((f) => f.id)).toEqual(['f2']);
  });

  it('with --json, prints the deleted as one document and reports one JSON object per failure', async () => {
    fake = fakeContext({ options: { json: true } });
    // Each file given is looked up (an id, or else a name): f2 is neither, and stays as given.
    fake.on('GET', '/v1/files/f1').reply(200, { data: file('f1') });
    fake.on('GET', '/v1/files/f2').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, { data: [file('f1')], meta: { nextCursor: null } });
    fake.on('DELETE', '/v1/files/f1').reply(204, '');
    fake.on('DELETE', '/v1/files/f2').reply(404, notFound);
    const err = await runDelete(fake.ctx, ['f1', 'f2'], { yes: true }).catch((e: unknown) => e);
    expect(JSON.parse(fake.stdout())).toEqual([{ id: 'f1', deleted: true }]);
    let stderr = '';
    const code = reportError(err, {
      json: true,
      debug: false,
      color: new Chalk({ level: 0 }),
      write: (s) => (stderr += s),
    });
    expect(code).toBe(3);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      error: {
        id: 'f2',
        code: 'not_found',
        message: 'file f2 not found',
        hint: '`kb files list` shows the files there are',
        exitCode: 3,
        status: 404,
      },
    });
  });

  it('lists what a dry run would delete, and refuses without --yes when it cannot ask', async () => {
    fake = fakeContext();
    fake
      .on('GET', '/v1/files/f1')
      .reply(200, { data: file('f1') })
      .times(2);
    await runDelete(fake.ctx, ['f1'], { dryRun: true });
    expect(fake.stdout()).toBe('would-delete\tf1\tf1.pdf\n');
    fake = fakeContext();
    await expect(runDelete(fake.ctx, ['f1'], {})).rejects.toThrow(/without --yes/);
  });
});

describe('files wait and delete by a name two files have', () => {
  // A README-only new user's trial: `kb files get handbook.pdf` asked which of the two, while
  // `kb files wait handbook.pdf` and `kb files delete handbook.pdf --yes` said "not found" (exit 3).
  const twoNamed = () => {
    const fake = fakeContext();
    fake.on('GET', '/v1/files/same.md').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, {
      data: [
        file('f1', 'COMPLETED', { originalFilename: 'same.md' }),
        file('f3', 'COMPLETED', { originalFilename: 'same.md' }),
      ],
    });
    return fake;
  };

  it.each([
    ['wait', (f: Fake) => runWait(f.ctx, ['same.md'], { timeout: '5s', interval: '10ms' })],
    ['delete', (f: Fake) => runDelete(f.ctx, ['same.md'], { yes: true })],
  ] as const)('%s asks which, as files get does, and does nothing', async (_, run) => {
    fake = twoNamed();
    const err = (await run(fake).catch((e: unknown) => e)) as CliError;
    expect(err).toBeInstanceOf(CliError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('2 files are named same.md');
    expect(err.hint).toContain('f1, f3');
    expect(fake.stdout()).toBe('');
  });
});

describe('files wait', () => {
  it('prints each change of state piped and ends when all are COMPLETED', async () => {
    fake = fakeContext();
    // The file given is looked up once (an id, or else a name), then polled.
    fake.on('GET', '/v1/files/f1').reply(200, { data: file('f1', 'PROCESSING') });
    fake.on('GET', '/v1/files/f1').reply(200, { data: file('f1', 'PROCESSING') });
    fake.on('GET', '/v1/files/f1').reply(200, { data: file('f1', 'COMPLETED') });
    await runWait(fake.ctx, ['f1'], { timeout: '5s', interval: '10ms' });
    expect(fake.stdout()).toBe('f1\tPROCESSING\tf1.pdf\nf1\tCOMPLETED\tf1.pdf\n');
  });

  it('fails with exit 1 naming the file and its sanitised error when one FAILED', async () => {
    fake = fakeContext({ options: { json: true } });
    fake
      .on('GET', '/v1/files/f1')
      .reply(200, { data: file('f1\u001b]0;x\u0007', 'FAILED', { indexingError: 'cannot\u009b2J read' }) })
      .times(2);
    const err = (await runWait(fake.ctx, ['f1'], { timeout: '5s', interval: '10ms' }).catch(
      (e: unknown) => e,
    )) as CliError;
    expect(err.exitCode).toBe(1);
    expect(JSON.parse(fake.stdout())[0].indexingStatus).toBe('FAILED');
    let stderr = '';
    reportError(err, {
      json: false,
      debug: false,
      color: new Chalk({ level: 0 }),
      write: (s) => (stderr += s),
    });
    expect(stderr).toMatch(/^error: f1.* failed indexing: cannot read\n$/);
    expect(stderr).not.toMatch(/[\u001b\u009b\u0007]/);
  });

  it('waits for every file before failing, then names each that FAILED', async () => {
    fake = fakeContext();
    fake
      .on('GET', '/v1/files/f1')
      .reply(200, { data: file('f1', 'FAILED', { indexingError: { code: 'a', message: 'one' } }) })
      .times(2);
    fake
      .on('GET', '/v1/files/f2')
      .reply(200, { data: file('f2', 'PROCESSING') })
      .times(2);
    fake
      .on('GET', '/v1/files/f3')
      .reply(200, { data: file('f3', 'FAILED', { indexingError: { code: 'b', message: 'two' } }) })
      .times(2);
    fake.on('GET', '/v1/files/f2').reply(200, { data: file('f2', 'COMPLETED') });
    const err = (await runWait(fake.ctx, ['f1', 'f2', 'f3'], { timeout: '5s', interval: '10ms' }).catch(
      (e: unknown) => e,
    )) as CliError;
    expect(fake.stdout()).toContain('f2\tCOMPLETED\tf2.pdf\n');
    expect([err.exitCode, err.message]).toEqual([
      1,
      '2 files failed indexing: f1 (f1.pdf): a: one; f3 (f3.pdf): b: two',
    ]);
  });

  // Trial 40: piped, `kb files wait --all` gave ids alone, and left out files the docs folder's
  // scan listed after it had started.
  it('--all names each file and waits for files listed after it started', async () => {
    fake = fakeContext();
    const none = { data: [], meta: { nextCursor: null } };
    const listed = (...files: unknown[]) => ({ data: files, meta: { nextCursor: null } });
    fake.on('GET', '/v1/files?status=FAILED&limit=100').reply(200, none).persist();
    fake.on('GET', '/v1/files?status=PROCESSING&limit=100').reply(200, none).persist();
    fake.on('GET', '/v1/files?status=PENDING&limit=100').reply(200, listed(file('f1', 'PENDING')));
    fake.on('GET', '/v1/files/f1').reply(200, { data: file('f1', 'PENDING') });
    fake
      .on('GET', '/v1/files?status=PENDING&limit=100')
      .reply(200, listed(file('f1', 'PENDING'), file('f2', 'PENDING')));
    fake.on('GET', '/v1/files/f1').reply(200, { data: file('f1', 'COMPLETED') });
    fake
      .on('GET', '/v1/files/f2')
      .reply(200, { data: file('f2', 'COMPLETED', { originalFilename: 'a\tb.md' }) });
    fake.on('GET', '/v1/files?status=PENDING&limit=100').reply(200, none).persist();
    await runWait(fake.ctx, [], { all: true, timeout: '5s', interval: '10ms' });
    expect(fake.stdout()).toBe('f1\tPENDING\tf1.pdf\nf1\tCOMPLETED\tf1.pdf\nf2\tCOMPLETED\ta b.md\n');
  });

  it('times out with exit 124', async () => {
    fake = fakeContext();
    fake
      .on('GET', '/v1/files/f1')
      .reply(200, { data: file('f1', 'PENDING') })
      .persist();
    const err = (await runWait(fake.ctx, ['f1'], { timeout: '50ms', interval: '10ms' }).catch(
      (e: unknown) => e,
    )) as CliError;
    expect(err.exitCode).toBe(124);
  });
});

describe('files given by name (a new user: `kb files get pricing.md` worked, wait and delete said not found)', () => {
  const pricing = { ...file('f7'), originalFilename: 'docs/pricing.md' };
  const listed = { data: [file('f1'), pricing], meta: { nextCursor: null } };

  it('wait looks a name up and waits for that file', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/pricing.md').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, listed);
    fake.on('GET', '/v1/files/f7').reply(200, { data: pricing }).times(2);
    await runWait(fake.ctx, ['pricing.md'], { timeout: '5s', interval: '10ms' });
    expect(fake.stdout()).toBe('f7\tCOMPLETED\tdocs/pricing.md\n');
  });

  it('delete looks a name up and deletes that file', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/files/pricing.md').reply(404, notFound);
    fake.on('GET', '/v1/files?limit=100').reply(200, listed);
    fake.on('GET', '/v1/files/f7').reply(200, { data: pricing });
    fake.on('DELETE', '/v1/files/f7').reply(204, '');
    await runDelete(fake.ctx, ['pricing.md'], { yes: true });
    expect(fake.stdout()).toBe('deleted\tf7\n');
  });

  it('delete on a terminal asks nothing when none of the files given is there', async () => {
    fake = fakeContext({ tty: true, env: { NO_COLOR: '1' } });
    fake.on('GET', '/v1/files/file_nope').reply(404, notFound).times(2);
    fake.on('GET', '/v1/files?limit=100').reply(200, listed);
    const err = await runDelete(fake.ctx, ['file_nope'], {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartialFailure);
    expect((err as PartialFailure).exitCode).toBe(3);
    expect(fake.stderr()).not.toContain('Delete this file?');
  });
});

describe('files delete --status', () => {
  it('selects every file in the status, every page, before deleting any', async () => {
    const failed = Array.from({ length: 130 }, (_, i) => file(`f${i}`, 'FAILED'));
    fake = fakeContext();
    fake
      .on('GET', '/v1/files?status=FAILED&limit=100')
      .reply(200, { data: failed.slice(0, 100), meta: { nextCursor: 'n' } });
    fake
      .on('GET', '/v1/files?status=FAILED&limit=100&cursor=n')
      .reply(200, { data: failed.slice(100), meta: { nextCursor: null } });
    for (const f of failed) fake.on('DELETE', `/v1/files/${f.id}`).reply(204, '');
    await runDelete(fake.ctx, [], { status: 'FAILED', yes: true });
    expect(fake.stdout().trim().split('\n')).toEqual(failed.map((f) => `deleted\t${f.id}`));
  });
});
