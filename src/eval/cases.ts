import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import { UsageError } from '../errors.js';
import { titleFrom } from '../util/title.js';
import {
  cites,
  contains,
  containsAny,
  type Expectation,
  matches,
  notContains,
  parsePattern,
  within,
} from './expectations.js';

export interface Turn {
  question: string;
  expectations: Expectation[];
}

/** One case: a conversation of one or more turns, each with what its answer must satisfy. */
export interface EvalCase {
  name: string;
  file: string;
  line: number;
  turns: Turn[];
}

/** A cases file that cannot be run: `FILE:LINE: problem`, exit 2, before any request. */
export class CasesFileError extends UsageError {
  constructor(file: string, line: number, problem: string) {
    super(`${file}:${line}: ${problem}`, 'see `kb eval --help` for the format of a cases file');
  }
}

const EXPECT_KEYS = ['contains', 'icontains', 'notContains', 'matches', 'sources', 'maxMs'] as const;
const ASSERT_TYPES = [
  'contains',
  'icontains',
  'not-contains',
  'contains-any',
  'contains-all',
  'regex',
  'latency',
];

/** Where a field of a case is in its file, for messages. */
type LineOf = (path: (string | number)[]) => number;

/** The cases of one file: YAML or JSON (`{cases: [...]}`, or promptfoo's `tests`), or JSONL. */
export function parseCases(file: string, text: string): EvalCase[] {
  if (/\.jsonl$/i.test(file)) {
    const cases: EvalCase[] = [];
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (err) {
        throw new CasesFileError(file, i + 1, `not JSON (${(err as Error).message})`);
      }
      cases.push(caseFrom(raw, file, i + 1, () => i + 1, cases.length));
    });
    if (cases.length === 0) throw new CasesFileError(file, 1, 'no cases');
    return cases;
  }
  // JSON is YAML too: one parser, with line numbers, for both.
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const lineAt = (offset: number | undefined) => (offset === undefined ? 1 : lines.linePos(offset).line);
  if (doc.errors.length) {
    const error = doc.errors[0]!;
    throw new CasesFileError(file, lineAt(error.pos[0]), error.message.split('\n')[0]!);
  }
  const root = doc.contents;
  const list = isMap(root) ? (root.get('cases', true) ?? root.get('tests', true)) : root;
  if (!isSeq(list))
    throw new CasesFileError(file, lineAt(root?.range?.[0]), 'expected `cases:` with a list of cases');
  if (list.items.length === 0) throw new CasesFileError(file, lineAt(list.range?.[0]), 'no cases');
  return list.items.map((item, index) => {
    const node = item as Node;
    const line = lineAt(node.range?.[0]);
    const lineOf: LineOf = (path) => {
      const found = isMap(node) || isSeq(node) ? (node.getIn(path, true) as Node | undefined) : undefined;
      return found?.range ? lineAt(found.range[0]) : line;
    };
    return caseFrom(node.toJSON(), file, line, lineOf, index);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function caseFrom(raw: unknown, file: string, line: number, lineOf: LineOf, index: number): EvalCase {
  const fail = (path: (string | number)[], problem: string): never => {
    throw new CasesFileError(file, lineOf(path), problem);
  };
  if (!isObject(raw)) return fail([], 'a case must be an object with a question');
  for (const key of ['name', 'description'] as const)
    if (raw[key] !== undefined && (typeof raw[key] !== 'string' || !raw[key].trim()))
      fail([key], `\`${key}\` must be a non-empty string`);
  let turns: Turn[];
  if (raw.turns !== undefined) {
    if (!Array.isArray(raw.turns) || raw.turns.length === 0)
      return fail(['turns'], '`turns` must be a list of {question, expect}');
    turns = raw.turns.map((turn, i) => {
      if (!isObject(turn)) return fail(['turns', i], 'a turn must be an object with a question');
      return turnFrom(turn, ['turns', i], fail);
    });
  } else turns = [turnFrom(raw, [], fail)];
  // promptfoo names a test by its `description`.
  const name =
    (raw.name as string | undefined)?.trim() ??
    (raw.description as string | undefined)?.trim() ??
    (titleFrom(turns[0]!.question) || `case ${index + 1}`);
  return { name, file, line, turns };
}

function turnFrom(
  raw: Record<string, unknown>,
  at: (string | number)[],
  fail: (path: (string | number)[], problem: string) => never,
): Turn {
  const vars = isObject(raw.vars) ? raw.vars : {};
  const question = raw.question ?? vars.question ?? vars.prompt;
  if (typeof question !== 'string' || !question.trim())
    return fail(
      [...at, raw.question === undefined ? 'vars' : 'question'],
      'missing `question` (a non-empty string)',
    );
  const expectations = [
    ...(raw.expect === undefined ? [] : fromExpect(raw.expect, [...at, 'expect'], fail)),
    ...(raw.assert === undefined ? [] : fromAssert(raw.assert, [...at, 'assert'], fail)),
  ];
  if (expectations.length === 0)
    fail(
      at,
      'no expectations: add `expect:` (contains, icontains, notContains, matches, sources, maxMs) or `assert:`',
    );
  return { question, expectations };
}

/** A text or a list of texts; numbers count as their text (YAML reads `contains: 29` as a number). */
function texts(
  value: unknown,
  path: (string | number)[],
  fail: (p: (string | number)[], m: string) => never,
): unknown {
  const text = (v: unknown) => typeof v === 'string' || typeof v === 'number';
  const ok = text(value) || (Array.isArray(value) && value.length > 0 && value.every(text));
  if (!ok) fail(path, `\`${path.at(-1)}\` must be a string or a list of strings`);
  return Array.isArray(value) ? value.map(String) : String(value);
}

function pattern(
  value: unknown,
  path: (string | number)[],
  fail: (p: (string | number)[], m: string) => never,
) {
  if (typeof value !== 'string') return fail(path, '`matches` must be a regular expression (a string)');
  try {
    return matches(parsePattern(value), value);
  } catch (err) {
    return fail(path, `invalid regular expression: ${(err as Error).message}`);
  }
}

function milliseconds(
  value: unknown,
  path: (string | number)[],
  fail: (p: (string | number)[], m: string) => never,
) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    return fail(path, `\`${path.at(-1)}\` must be a number of milliseconds above 0`);
  return within(value);
}

function fromExpect(
  raw: unknown,
  at: (string | number)[],
  fail: (p: (string | number)[], m: string) => never,
) {
  if (!isObject(raw)) return fail(at, '`expect` must be an object');
  const out: Expectation[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const path = [...at, key];
    switch (key as (typeof EXPECT_KEYS)[number]) {
      case 'contains':
        out.push(contains(texts(value, path, fail)));
        break;
      case 'icontains':
        out.push(contains(texts(value, path, fail), true));
        break;
      case 'notContains':
        out.push(notContains(texts(value, path, fail)));
        break;
      case 'matches':
        out.push(pattern(value, path, fail));
        break;
      case 'sources':
        out.push(cites(texts(value, path, fail)));
        break;
      case 'maxMs':
        out.push(milliseconds(value, path, fail));
        break;
      default:
        fail(path, `unknown expectation "${key}" (known: ${EXPECT_KEYS.join(', ')})`);
    }
  }
  return out;
}

function fromAssert(
  raw: unknown,
  at: (string | number)[],
  fail: (p: (string | number)[], m: string) => never,
) {
  if (!Array.isArray(raw)) return fail(at, '`assert` must be a list of {type, value}');
  return raw.map((item, i): Expectation => {
    const path = [...at, i];
    if (!isObject(item) || typeof item.type !== 'string')
      return fail(path, 'an assertion must be {type, value}');
    const value = item.value;
    switch (item.type) {
      case 'contains':
        return contains(texts(value, [...path, 'value'], fail));
      case 'icontains':
        return contains(texts(value, [...path, 'value'], fail), true);
      case 'not-contains':
        return notContains(texts(value, [...path, 'value'], fail));
      case 'contains-any':
        return containsAny(texts(value, [...path, 'value'], fail));
      case 'contains-all':
        return contains(texts(value, [...path, 'value'], fail));
      case 'regex':
        return pattern(value, [...path, 'value'], fail);
      case 'latency':
        return milliseconds(
          item.threshold ?? value,
          [...path, item.threshold === undefined ? 'value' : 'threshold'],
          fail,
        );
      default:
        return fail(
          [...path, 'type'],
          `assertion type "${item.type}" is not supported by kb eval (supported: ${ASSERT_TYPES.join(', ')})`,
        );
    }
  });
}
