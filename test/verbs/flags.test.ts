import { describe, expect, it } from 'vitest';
import loginCommand from '../../src/commands/auth/login.js';
import evalCommand from '../../src/commands/eval/index.js';
import deleteFilesCommand from '../../src/commands/files/delete.js';
import listFilesCommand from '../../src/commands/files/list.js';
import waitCommand from '../../src/commands/files/wait.js';
import listThreadsCommand from '../../src/commands/threads/list.js';
import sendCommand from '../../src/commands/threads/send.js';
import createWebhookCommand from '../../src/commands/webhooks/create.js';
import deleteWebhooksCommand from '../../src/commands/webhooks/delete.js';
import triggerCommand from '../../src/commands/webhooks/trigger.js';
import { UsageError } from '../../src/errors.js';
import { parseVerb } from '../helpers/verb.js';

describe('flag parsing, in-process', () => {
  it('list verbs take a status in any case, and a limit as a whole number of 1 or more', async () => {
    expect(
      (await parseVerb('threads', listThreadsCommand, ['threads', 'ls', '-s', 'open', '--limit', '10'])).args,
    ).toEqual([{ status: 'OPEN', limit: 10 }]);
    expect((await parseVerb('files', listFilesCommand, ['files', 'list', '--all', '--quiet'])).args).toEqual([
      { all: true, quiet: true },
    ]);
    for (const bad of ['0', '-1', '1.5', '1e3', '0x10', '9007199254740993']) {
      const res = await parseVerb('threads', listThreadsCommand, ['threads', 'list', '--limit', bad]);
      expect(res.args).toBeUndefined();
      expect(res.error?.exitCode).toBe(1); // commander's; kb's exit path maps it to 2
      expect(res.stderr).toContain(
        `option '-L, --limit <n>' argument '${bad}' is invalid. expected a whole number of 1 or more`,
      );
    }
    const status = await parseVerb('files', listFilesCommand, ['files', 'list', '--status', 'DONE']);
    expect(status.stderr).toContain('expected one of PENDING, PROCESSING, COMPLETED, FAILED');
  });

  it('threads send takes the message as words, and --stream', async () => {
    const res = await parseVerb('threads', sendCommand, [
      'threads',
      'send',
      'thr_1',
      'How',
      'much?',
      '--stream',
    ]);
    expect(res.args).toEqual(['thr_1', ['How', 'much?'], { stream: true }]);
  });

  it('every delete takes ids or -, --yes, --dry-run and --all', async () => {
    for (const [group, factory] of [
      ['files', deleteFilesCommand],
      ['webhooks', deleteWebhooksCommand],
    ] as const) {
      const res = await parseVerb(group, factory, [group, 'rm', 'a_1', 'a_2', '-', '--yes', '--dry-run']);
      expect(res.args).toEqual([['a_1', 'a_2', '-'], { yes: true, dryRun: true }]);
      expect((await parseVerb(group, factory, [group, 'delete', '--all'])).args).toEqual([[], { all: true }]);
    }
  });

  it('files wait: --timeout, before or after the verb, is how long it waits (default 10m)', async () => {
    const after = await parseVerb('files', waitCommand, ['files', 'wait', '--all', '--timeout', '2m']);
    expect(after.args).toEqual([[], { timeout: '2m', interval: '2s', all: true }]);
    const before = await parseVerb('files', waitCommand, ['--timeout', '30s', 'files', 'wait', '--all']);
    expect(before.args).toEqual([[], { timeout: '30s', interval: '2s', all: true }]);
    const defaults = await parseVerb('files', waitCommand, ['files', 'wait', 'file_1']);
    expect(defaults.args).toEqual([['file_1'], { timeout: '10m', interval: '2s', all: undefined }]);
  });

  it('repeatable options collect every use', async () => {
    const res = await parseVerb('webhooks', createWebhookCommand, [
      'webhooks',
      'create',
      '--url',
      'https://x.test/hook',
      '-e',
      'file.indexed',
      '--event',
      'message.created',
    ]);
    expect(res.args).toEqual([{ url: 'https://x.test/hook', event: ['file.indexed', 'message.created'] }]);
    const trigger = await parseVerb('webhooks', triggerCommand, [
      'webhooks',
      'trigger',
      'file.indexed',
      '--forward-to',
      'http://127.0.0.1:1/h',
      '--secret-file',
      'a',
      '--secret-file',
      'b',
    ]);
    expect(trigger.args).toEqual(['file.indexed', expect.objectContaining({ secretFile: ['a', 'b'] })]);
  });

  it('kb eval: defaults, whole numbers, and a pass rate as a share or a percentage', async () => {
    const res = await parseVerb(undefined, evalCommand, [
      'eval',
      'a.yaml',
      'b.json',
      '-c',
      '2',
      '--min-pass-rate',
      '90%',
    ]);
    expect(res.args).toEqual([
      ['a.yaml', 'b.json'],
      expect.objectContaining({ concurrency: 2, repeat: 1, minPassRate: 0.9 }),
    ]);
    expect(
      (await parseVerb(undefined, evalCommand, ['eval', 'a.yaml', '--repeat', '0'])).error,
    ).toBeDefined();
  });

  it('kb auth login refuses a key given as an argument, before anything runs', async () => {
    await expect(parseVerb('auth', loginCommand, ['auth', 'login', 'kb_secret_123'])).rejects.toBeInstanceOf(
      UsageError,
    );
    expect((await parseVerb('auth', loginCommand, ['auth', 'login', '--with-key'])).args).toEqual([
      { withKey: true },
    ]);
  });
});
