import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { errnoText, readUserFile } from '../../util/user-file.js';

/** `key=value` with a typed value: numbers, true/false/null, `@file` for a file's text, else a string. */
export function typedField(pair: string): [string, unknown] {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`invalid field "${pair}": expected key=value`);
  const key = pair.slice(0, eq);
  const raw = pair.slice(eq + 1);
  if (raw.startsWith('@')) {
    const file = raw.slice(1);
    if (file !== '-') return [key, readUserFile(file, `the file for field ${key}`).toString('utf8')];
    try {
      return [key, readFileSync(0, 'utf8')];
    } catch (err) {
      throw new UsageError(`cannot read stdin for field ${key}: ${errnoText(err)}`);
    }
  }
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  if (raw === 'null') return [key, null];
  if (/^-?\d+(\.\d+)?$/.test(raw)) return [key, Number(raw)];
  return [key, raw];
}

export function stringField(pair: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`invalid query parameter "${pair}": expected key=value`);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}

export function header(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new UsageError(`invalid header "${line}": expected "Name: value"`);
  return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
}
