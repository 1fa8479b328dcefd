import { afterEach, describe, expect, it } from 'vitest';
import searchCommand, { runSearch, source } from '../../src/commands/search/index.js';
import { CliError } from '../../src/errors.js';
import { type Fake, fakeContext } from '../helpers/context.js';
import { parseVerb } from '../helpers/verb.js';

const HIT = {
  rank: 1,
  fileId: 'file_1',
  filename: 'manual.pdf',
  pages: [3, 3],
  score: 12.3456,
  answers: true,
  text: 'Badges\nThe badge reader resets every night at 2 am.',
  passages: [{ text: 'The badge reader resets\tevery night at 2 am.', relevance: 0.9 }],
};
const OTHER = {
  rank: 2,
  fileId: 'file_2',
  filename: 'notes.md',
  pages: null,
  score: 1.5,
  answers: false,
  text: 'Parking\n\nThe garage opens at 6 am.',
  passages: [],
};
const ANSWER = { query: 'When does the badge reader reset?', answered: true, data: [HIT, OTHER] };

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.agent.close();
  fake = undefined;
});

describe('kb search flags', () => {
  it('takes the question as words, --limit from 1 to 50 and --thread', async () => {
    const res = await parseVerb(undefined, searchCommand, [
      'search',
      'When',
      'does',
      'it',
      'reset?',
      '-L',
      '5',
      '--thread',
      'thr_1',
    ]);
    expect(res.args).toEqual([['When', 'does', 'it', 'reset?'], { limit: 5, thread: 'thr_1' }]);
    expect((await parseVerb(undefined, searchCommand, ['search', '--limit', '50', '-'])).args).toEqual([
      ['-'],
      { limit: 50 },
    ]);
    expect((await parseVerb(undefined, searchCommand, ['search'])).args).toEqual([[], {}]);
    for (const bad of ['0', '51', '-1', '1.5', 'ten']) {
      const res = await parseVerb(undefined, searchCommand, ['search', 'x', '--limit', bad]);
      expect(res.args).toBeUndefined();
      expect(res.stderr).toContain(`argument '${bad}' is invalid. expected a whole number from 1 to 50`);
    }
  });
});

describe('kb search output', () => {
  it('piped: rank, source, score to 2 decimals, answers, one line of text; no header', async () => {
    fake = fakeContext();
    fake.on('GET', '/v1/search?q=When+does+the+badge+reader+reset%3F&limit=2').reply(200, ANSWER);
    await runSearch(fake.ctx, ['When', 'does', 'the', 'badge', 'reader', 'reset?'], { limit: 2 });
    expect(fake.stdout()).toBe(
      '1\tmanual.pdf p. 3\t12.35\ttrue\tThe badge reader resets every night at 2 am.\n' +
        '2\tnotes.md\t1.50\tfalse\tParking The garage opens at 6 am.\n',
    );
    expect(fake.stderr()).toBe('');
  });

  it('on a terminal: a table fitted to the width, ✓ for a chunk that answers', async () => {
    fake = fakeContext({ tty: true, columns: 60, env: { NO_COLOR: '1' } });
    fake.on('GET', /^\/v1\/search\?/).reply(200, ANSWER);
    await runSearch(fake.ctx, ['badge'], {});
    const lines = fake.stdout().trimEnd().split('\n');
    expect(lines).toEqual([
      '#  SOURCE           SCORE  ANSWERS  TEXT',
      '1  manual.pdf p. 3  12.35  ✓        The badge reader resets…',
      '2  notes.md         1.50            Parking The garage open…',
    ]);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
  });

  // README's new user: at 80 columns a long file name lost its page number (`…/bgp-…`).
  it('on a terminal a long source keeps its page: the name is cut in its middle', async () => {
    fake = fakeContext({ tty: true, columns: 50, env: { NO_COLOR: '1' } });
    const long = {
      ...ANSWER.data[0],
      filename: 'networking/routing/frr-bgp-configuration-guide.pdf',
      pages: [12, 12],
    };
    fake.on('GET', /^\/v1\/search\?/).reply(200, { ...ANSWER, data: [long] });
    await runSearch(fake.ctx, ['badge'], {});
    const [, row] = fake.stdout().trimEnd().split('\n');
    expect(row).toMatch(/^1 {2}network.*…guide\.pdf p\. 12 /);
    expect(row!.length).toBeLessThanOrEqual(50);
  });

  it('--thread asks for the question as a follow-up; the question may come from stdin', async () => {
    fake = fakeContext({ stdin: '  What replaces it?\n' });
    fake.on('GET', '/v1/search?q=What+replaces+it%3F&threadId=thr_1').reply(200, ANSWER);
    await runSearch(fake.ctx, [], { thread: 'thr_1' });
    expect(fake.stdout()).toMatch(/^1\tmanual\.pdf p\. 3\t/);
  });

  it('--json: the whole answer; --jsonl: a chunk a line; when nothing answers, a warning on stderr as JSON', async () => {
    const whole = fakeContext({ options: { json: true } });
    whole.on('GET', /^\/v1\/search\?/).reply(200, ANSWER);
    await runSearch(whole.ctx, ['badge'], {});
    expect(JSON.parse(whole.stdout())).toEqual(ANSWER);
    expect(whole.stderr()).toBe('');
    await whole.agent.close();

    fake = fakeContext({ options: { jsonl: true } });
    fake.on('GET', /^\/v1\/search\?/).reply(200, { ...ANSWER, answered: false });
    await runSearch(fake.ctx, ['badge'], {});
    expect(fake.stdout()).toBe(`${JSON.stringify(HIT)}\n${JSON.stringify(OTHER)}\n`);
    expect(JSON.parse(fake.stderr())).toMatchObject({ warning: { code: 'not_answered', shown: 2 } });
  });

  it('when nothing answers: a note on stderr, on a terminal or not', async () => {
    fake = fakeContext({ env: { NO_COLOR: '1' } });
    fake.on('GET', /^\/v1\/search\?/).reply(200, { query: 'x', answered: false, data: [] });
    await runSearch(fake.ctx, ['x'], {});
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe(
      'note: nothing retrieved answers this question: the assistant would say it found nothing ("not found")\n',
    );
  });

  it('refuses an empty question, and a terminal on stdin with no words', async () => {
    await expect(runSearch(fakeContext({ stdin: '  \n' }).ctx, ['-'], {})).rejects.toMatchObject({
      message: 'the question is empty',
      hint: 'give it as words (`kb search how do I rotate the logs`) or on stdin',
    });
    await expect(runSearch(fakeContext({ tty: true }).ctx, [], {})).rejects.toThrow('no question given');
  });

  it.each([404, 405, 501])('a service without the route (%i): one line saying so, exit 2', async (status) => {
    fake = fakeContext({ options: { retries: '0' } });
    fake.on('GET', /^\/v1\/search\?/).reply(status, { error: { code: 'route_not_found', message: 'no' } });
    const err = await runSearch(fake.ctx, ['x'], {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({
      message: 'this service has no search endpoint (an extension of kb serve)',
      exitCode: 2,
    });
  });
});

describe('source', () => {
  it('cites a chunk as an answer does', () => {
    expect(source({ filename: 'a.pdf', pages: [3, 3] })).toBe('a.pdf p. 3');
    expect(source({ filename: 'a.pdf', pages: [3, 5] })).toBe('a.pdf pp. 3–5');
    expect(source({ filename: 'a.md', pages: null })).toBe('a.md');
    expect(source({ filename: 'a.md', pages: [5, 2] })).toBe('a.md');
  });
});
