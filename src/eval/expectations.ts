import { citedFilename } from '../util/citation.js';
import { PatternMatcher, PatternTimeout } from './pattern-matcher.js';

/** What one turn of a case produced. */
export interface Observed {
  answer: string;
  sources: string[];
  latencyMs: number;
}

/** One expectation of a turn: a kind, what was expected, and how it is checked. */
export interface Expectation {
  kind: string;
  expected: unknown;
  /** Undefined when it holds; otherwise why not, in a line. */
  check(observed: Observed, patterns: PatternMatcher): string | undefined | Promise<string | undefined>;
}

export interface ExpectationResult {
  kind: string;
  expected: unknown;
  passed: boolean;
  reason?: string;
}

const quote = (s: string) => JSON.stringify(s);

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** The answer contains each text (`ignoreCase` for icontains). */
export function contains(value: unknown, ignoreCase = false): Expectation {
  const wanted = list(value);
  const fold = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  return {
    kind: ignoreCase ? 'icontains' : 'contains',
    expected: value,
    check: ({ answer }) => {
      const missing = wanted.filter((w) => !fold(answer).includes(fold(w)));
      return missing.length ? `does not contain ${missing.map(quote).join(', ')}` : undefined;
    },
  };
}

/** The answer contains none of the texts. */
export function notContains(value: unknown): Expectation {
  const unwanted = list(value);
  return {
    kind: 'notContains',
    expected: value,
    check: ({ answer }) => {
      const found = unwanted.filter((w) => answer.includes(w));
      return found.length ? `contains ${found.map(quote).join(', ')}` : undefined;
    },
  };
}

/** The answer contains at least one of the texts (promptfoo's contains-any). */
export function containsAny(value: unknown): Expectation {
  const options = list(value);
  return {
    kind: 'containsAny',
    expected: value,
    check: ({ answer }) =>
      options.some((o) => answer.includes(o))
        ? undefined
        : `contains none of ${options.map(quote).join(', ')}`,
  };
}

/** The answer matches a regular expression: `pattern`, or `/pattern/flags`. */
export function matches(pattern: RegExp, source: string): Expectation {
  return {
    kind: 'matches',
    expected: source,
    check: async ({ answer }, patterns) => {
      try {
        return (await patterns.test(pattern, answer)) ? undefined : `does not match ${source}`;
      } catch (err) {
        if (err instanceof PatternTimeout) return err.message;
        throw err;
      }
    },
  };
}

/** Parses `pattern` or `/pattern/flags`; throws SyntaxError with the reason when it is invalid. */
export function parsePattern(text: string): RegExp {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(text);
}

/**
 * The reply cites each file (the `sources` of the assistant's message): `manual.pdf` is cited
 * by `manual.pdf p. 3`; `manual.pdf p. 3` asks for that page.
 */
export function cites(value: unknown): Expectation {
  const wanted = list(value);
  return {
    kind: 'sources',
    expected: value,
    check: ({ sources }) => {
      const missing = wanted.filter((w) => !sources.some((s) => s === w || citedFilename(s) === w));
      if (missing.length === 0) return undefined;
      return `does not cite ${missing.map(quote).join(', ')} (cited: ${sources.length ? sources.join(', ') : 'nothing'})`;
    },
  };
}

/** The reply came within `ms` milliseconds. */
export function within(ms: number): Expectation {
  return {
    kind: 'maxMs',
    expected: ms,
    check: ({ latencyMs }) =>
      latencyMs <= ms ? undefined : `took ${Math.round(latencyMs)} ms, more than ${ms} ms`,
  };
}

let shared: PatternMatcher | undefined;

/** Each expectation's result; `matches` patterns run in a worker with a deadline (see PatternMatcher). */
export async function evaluate(
  expectations: Expectation[],
  observed: Observed,
  patterns: PatternMatcher = (shared ??= new PatternMatcher()),
): Promise<ExpectationResult[]> {
  return Promise.all(
    expectations.map(async (e) => {
      const reason = await e.check(observed, patterns);
      return reason === undefined
        ? { kind: e.kind, expected: e.expected, passed: true }
        : { kind: e.kind, expected: e.expected, passed: false, reason };
    }),
  );
}
