import type { Node, ParseError } from 'jsonc-parser';
import { importPackage } from '../../../import-package.js';
import { unwrapText } from './plain-text.js';
import { recordLine } from './record-line.js';

/** A JSON document's value, and the comments written above its properties and items, if any. */
export type ReadJson =
  { ok: true; value: unknown; notes?: Notes; trailing?: string[] } | { ok: false; message: string };

/** The comments above each property (by name) or item (by index) of an object or list. */
type Notes = WeakMap<object, Map<string | number, string[]>>;

/**
 * A JSON file's value. One that JSON does not parse may be JSON with comments (Kea's and VS Code's
 * configuration files, tsconfig.json: `// Addresses will be assigned with a lifetime of 4000
 * seconds.` above `"valid-lifetime": 4000`), read by jsonc-parser with its comments kept: they
 * say what the values under them are.
 */
export async function readJson(text: string): Promise<ReadJson> {
  let jsonError: Error;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    jsonError = err as Error;
  }
  if (!/\/[/*]/.test(text)) return { ok: false, message: jsonError.message };
  const jsonc = await importPackage<typeof import('jsonc-parser')>('jsonc-parser');
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (err) {
    // Its parser recurses: a document nested deeper than the stack.
    if (err instanceof RangeError) return { ok: false, message: 'it is nested too deeply' };
    throw err;
  }
  if (errors.length || !root) return { ok: false, message: jsonError.message };
  const comments: Comment[] = [];
  jsonc.visit(text, {
    onComment: (offset, length) =>
      comments.push({ offset, text: commentText(text.slice(offset, offset + length)) }),
  });
  const notes: Notes = new WeakMap();
  return { ok: true, ...valueOf(root, comments, notes), notes };
}

interface Comment {
  offset: number;
  text: string;
}

/** A comment's words without its marks: a line's `//`, a block's opening and closing marks and the `*` at each of its lines' starts. */
function commentText(comment: string): string {
  const body = comment.startsWith('//') ? comment.slice(2) : comment.slice(2, -2);
  return body
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd())
    .join('\n')
    .trim();
}

/**
 * The value of a parsed tree, each comment noted on the property or item written after it (those
 * after the last value, in `trailing`). Iterative: any depth.
 */
function valueOf(root: Node, comments: Comment[], notes: Notes): { value: unknown; trailing: string[] } {
  let next = 0;
  /** The comments written before `offset` and not yet noted. */
  const before = (offset: number): string[] => {
    const taken: string[] = [];
    while (next < comments.length && comments[next]!.offset < offset) taken.push(comments[next++]!.text);
    if (!taken.length) return taken;
    // A comment's lines, and a run of line comments, are filled prose: its sentences whole.
    return unwrapText(taken.join('\n'))
      .split('\n')
      .filter((line) => line.trim());
  };
  const note = (container: object, key: string | number, offset: number) => {
    const said = before(offset);
    if (!said.length) return;
    const byKey = notes.get(container) ?? new Map<string | number, string[]>();
    byKey.set(key, said);
    notes.set(container, byKey);
  };
  const top: { value?: unknown } = {};
  // Each node with where its value goes. Values are set as they come off the stack, in the
  // document's order, so each takes the comments between the value before it and itself.
  const stack: [node: Node, set: (value: unknown) => void][] = [[root, (v) => (top.value = v)]];
  while (stack.length) {
    const [node, set] = stack.pop()!;
    if (node.type === 'object') {
      const object: Record<string, unknown> = {};
      set(object);
      const properties = node.children ?? [];
      for (let i = properties.length - 1; i >= 0; i--) {
        const property = properties[i]!;
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || !valueNode) continue;
        const key = String(keyNode.value);
        stack.push([valueNode, (v) => (note(object, key, property.offset), (object[key] = v))]);
      }
    } else if (node.type === 'array') {
      const list: unknown[] = [];
      set(list);
      const items = node.children ?? [];
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i]!;
        stack.push([item, (v) => (note(list, i, item.offset), (list[i] = v))]);
      }
    } else set(node.value);
  }
  return { value: top.value, trailing: before(Infinity) };
}

/**
 * A record a line (an object whose values are plain, or lists of plain values: `name: Jira link;
 * plan: Growth; tags: a, b.`; an empty list says nothing), unless it is longer than a chunk
 * (a map of hundreds of keys, SPDX's licenses: a line each); other values each on a line of
 * their own, named by their key, a list of plain values on one; a comment above a value on the
 * lines before it. Iterative: any depth.
 */
export function jsonToText(root: unknown, notes?: Notes): string {
  const lines: string[] = [];
  // Each value with the key it is under, and whether that key is its own (a property's) or its
  // list's (an item's): a record under its own key is named by it (`uniqueItems: type: boolean; …`).
  // Or the comments above one.
  const stack: ([value: unknown, key: string, own: boolean] | { said: string[] })[] = [[root, '', false]];
  const push = (container: object, at: string | number, item: [unknown, string, boolean]) => {
    stack.push(item);
    const said = notes?.get(container)?.get(at);
    if (said) stack.push({ said });
  };
  while (stack.length) {
    const top = stack.pop()!;
    if (!Array.isArray(top)) {
      for (const line of top.said) lines.push(line);
      continue;
    }
    const [value, key, own] = top;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object') lines.push(`${key ? `${key}: ` : ''}${String(value)}`);
    else if (Array.isArray(value)) {
      if (key && value.every(isScalar)) {
        const said = listed(value);
        for (let i = 0; i < value.length; i++)
          for (const line of notes?.get(value)?.get(i) ?? []) lines.push(line);
        if (said) lines.push(`${key}: ${said}`);
      } else for (let i = value.length - 1; i >= 0; i--) push(value, i, [value[i], key, false]);
    } else {
      const entries = Object.entries(value);
      const record =
        entries.length > 1 && entries.every(([, v]) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)))
          ? recordOf(entries)
          : undefined;
      if (record !== undefined && record.length <= MAX_RECORD_LENGTH) {
        for (const [k] of entries) for (const line of notes?.get(value)?.get(k) ?? []) lines.push(line);
        if (record) lines.push(own && key ? `${key}: ${record}` : record);
        continue;
      }
      for (let i = entries.length - 1; i >= 0; i--)
        push(value, entries[i]![0], [entries[i]![1], entries[i]![0], true]);
    }
  }
  return lines.join('\n');
}

/** A record longer than this is no line of its own: longer than a chunk, it would be cut anywhere. */
const MAX_RECORD_LENGTH = 800;

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

/** A list of plain values as a record's value says it (`a, b`): none of its nulls or empty strings. */
const listed = (values: unknown[]) =>
  values
    .filter((v) => v !== null && v !== '')
    .map(String)
    .join(', ');

/** An object of plain values as one record line ('' when every value is empty). */
function recordOf(entries: [string, unknown][]): string {
  const cells = entries
    .map(([k, v]) => [k, Array.isArray(v) ? listed(v) : v] as const)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${k}: ${String(v)}`);
  return cells.length ? recordLine(cells) : '';
}
