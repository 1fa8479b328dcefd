import { describe, expect, it } from 'vitest';
import { CasesFileError, parseCases } from '../../src/eval/cases.js';
import { evaluate } from '../../src/eval/expectations.js';
import { compareWithBaseline, junit, summarize } from '../../src/eval/report.js';

const observed = (answer: string, sources: string[] = [], latencyMs = 100) => ({
  answer,
  sources,
  latencyMs,
});
const problem = (file: string, text: string) => {
  try {
    parseCases(file, text);
  } catch (err) {
    expect(err).toBeInstanceOf(CasesFileError);
    return (err as Error).message;
  }
  throw new Error('parsed');
};

describe('cases files', () => {
  it('reads YAML, JSON and JSONL, with promptfoo-style assertions, naming cases from their question', async () => {
    const yaml = parseCases('c.yaml', 'cases:\n  - question: How much?\n    expect:\n      contains: 29\n');
    const json = parseCases(
      'c.json',
      '{"cases": [{"name": "n", "question": "Q", "expect": {"icontains": ["a", "b"]}}]}',
    );
    const jsonl = parseCases(
      'c.jsonl',
      '{"question":"Q1","expect":{"matches":"/x+/i"}}\n\n{"question":"Q2","assert":[{"type":"not-contains","value":"no"}]}\n',
    );
    const promptfoo = parseCases(
      'p.yaml',
      'tests:\n  - vars: { question: Q }\n    assert:\n      - { type: latency, threshold: 10 }\n',
    );
    expect(yaml[0]).toMatchObject({ name: 'How much?', line: 2 });
    expect(json[0]!.name).toBe('n');
    expect(jsonl.map((c) => c.line)).toEqual([1, 3]);
    expect(promptfoo[0]!.turns[0]!.question).toBe('Q');
    expect((await evaluate(jsonl[0]!.turns[0]!.expectations, observed('XxX')))[0]!.passed).toBe(true);
    expect((await evaluate(promptfoo[0]!.turns[0]!.expectations, observed('a', [], 11)))[0]).toMatchObject({
      passed: false,
      reason: 'took 11 ms, more than 10 ms',
    });
  });

  it.each([
    [
      'c.yaml',
      'cases:\n  - question: A\n    expect: { contains: x }\n  - name: no question\n    expect: { contains: x }\n',
      /^c\.yaml:4: missing `question`/,
    ],
    [
      'c.yaml',
      'cases:\n  - question: A\n    expect:\n      contain: x\n',
      /^c\.yaml:4: unknown expectation "contain"/,
    ],
    [
      'c.yaml',
      'cases:\n  - question: A\n    expect:\n      matches: "(unclosed"\n',
      /^c\.yaml:4: invalid regular expression/,
    ],
    ['c.yaml', 'cases:\n  - question: A\n', /^c\.yaml:2: no expectations/],
    [
      'c.yaml',
      'cases:\n  - question: A\n    expect: { maxMs: -1 }\n',
      /^c\.yaml:3: `maxMs` must be a number/,
    ],
    [
      'c.yaml',
      'cases:\n  - question: A\n    assert:\n      - type: llm-rubric\n        value: x\n',
      /^c\.yaml:4: assertion type "llm-rubric" is not supported/,
    ],
    ['c.yaml', 'cases: [\n  {question: A\n', /^c\.yaml:\d+: /],
    ['c.yaml', 'nothing: here\n', /^c\.yaml:1: expected `cases:`/],
    [
      'c.json',
      '{"cases": [\n  {"question": "A", "expect": {"contains": true}}\n]}',
      /^c\.json:2: `contains` must be a string or a list/,
    ],
    ['c.jsonl', '{"question":"A","expect":{"contains":"x"}}\n{"question":\n', /^c\.jsonl:2: not JSON/],
  ])('refuses an invalid file with FILE:LINE: %s', (file, text, message) => {
    expect(problem(file, text)).toMatch(message);
  });
});

describe('expectations', () => {
  it('check text, case, absence, patterns, sources and latency, each with a reason', async () => {
    const [c] = parseCases(
      'c.yaml',
      'cases:\n  - question: Q\n    expect:\n      contains: [29 dollars, Growth]\n      icontains: growth\n      notContains: Starter\n      matches: /\\b29\\b/\n      sources: [pricing.md]\n      maxMs: 500\n',
    );
    const good = await evaluate(
      c!.turns[0]!.expectations,
      observed('The Growth plan is 29 dollars.', ['pricing.md']),
    );
    expect(good.every((r) => r.passed)).toBe(true);
    const bad = await evaluate(c!.turns[0]!.expectations, observed('Starter costs 12.', ['faq.md'], 900));
    expect(bad.map((r) => r.reason)).toEqual([
      'does not contain "29 dollars", "Growth"',
      'does not contain "growth"',
      'contains "Starter"',
      'does not match /\\b29\\b/',
      'does not cite "pricing.md" (cited: faq.md)',
      'took 900 ms, more than 500 ms',
    ]);
  });

  it('take a page citation as citing its file, and a page asked for only from that page', async () => {
    const [c] = parseCases(
      'c.yaml',
      'cases:\n  - question: Q\n    expect:\n      sources: [manual.pdf, guide.pdf p. 2]\n',
    );
    const check = async (sources: string[]) =>
      (await evaluate(c!.turns[0]!.expectations, observed('A', sources))).map((r) => r.reason ?? 'ok');
    expect(await check(['manual.pdf pp. 3–4', 'guide.pdf p. 2'])).toEqual(['ok']);
    expect(await check(['manual.pdf p. 3', 'guide.pdf p. 5'])).toEqual([
      'does not cite "guide.pdf p. 2" (cited: manual.pdf p. 3, guide.pdf p. 5)',
    ]);
  });
});

describe('reports', () => {
  const cases = parseCases(
    'c.yaml',
    'cases:\n  - name: a & b\n    question: Q\n    expect: { contains: yes }\n  - name: two\n    question: Q\n    expect: { contains: yes }\n',
  );
  const run = async (i: number, answer: string) => {
    const expectations = await evaluate(cases[i]!.turns[0]!.expectations, observed(answer));
    const passed = expectations.every((e) => e.passed);
    return {
      case: cases[i]!,
      repetition: 0,
      threadId: `thr_${i}`,
      passed,
      turns: [{ question: 'Q', answer, sources: [], latencyMs: 100, expectations, passed }],
    };
  };
  it('summarise runs, compare with a baseline, and write JUnit with escaped text', async () => {
    const report = summarize(cases, [await run(0, 'no <way>'), await run(1, 'yes')], 1234);
    expect(report.totals).toMatchObject({ cases: 2, passed: 1, failed: 1, passRate: 0.5, notRun: 0 });
    expect(
      compareWithBaseline(report, {
        cases: [
          { name: 'a & b', passed: true },
          { name: 'two', passed: false },
        ],
      }),
    ).toEqual({
      regressions: ['a & b'],
      fixes: ['two'],
    });
    const xml = junit(report);
    expect(xml).toContain('<testsuite name="kb eval" tests="2" failures="1"');
    expect(xml).toContain('<testcase name="a &amp; b" classname="c.yaml"');
    expect(xml).toContain(
      '<failure message="contains: does not contain &quot;yes&quot;">Q: Q\nA: no &lt;way&gt;</failure>',
    );
  });
});
