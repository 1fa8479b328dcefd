import type { Block } from './render.js';

/** A reply's blocks split where the arriving text can no longer change them. */
export interface BlockSplit<T extends Block> {
  /** Complete: drawn now, they are drawn as the whole reply would draw them. */
  done: T[];
  /** From the first block that may still change (it is still arriving) to the end. */
  open: T[];
  /** How much of the text the complete blocks span. */
  length: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A fenced code block whose closing fence has ended (with its line break). */
function closedFence(raw: string): boolean {
  const opening = FENCE.exec(raw)?.[1];
  if (!opening || !raw.endsWith('\n')) return false;
  const lines = raw.slice(0, -1).split('\n');
  const closing = lines.length > 1 ? /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines.at(-1)!)?.[1] : undefined;
  return Boolean(closing && closing[0] === opening[0] && closing.length >= opening.length);
}

/** How many line breaks follow the last text of `block`, counting the blank space after it. */
function breaksAfter(block: Block, next: Block | undefined): number {
  const tail = block.raw.slice(block.raw.trimEnd().length) + (next?.type === 'space' ? next.raw : '');
  return tail.split('\n').length - 1;
}

/**
 * Whether `block` is complete before another block starts: a fenced code block at the end of
 * its closing fence's line, a heading or a rule at the end of its line, a paragraph, a table or
 * a quote at a blank line. A list or indented code can go on after a blank line, so they wait.
 */
function endedItself(block: Block, next: Block | undefined): boolean {
  switch (block.type) {
    case 'code':
      return closedFence(block.raw + (next?.type === 'space' ? next.raw.slice(0, 1) : ''));
    case 'heading':
    case 'hr':
      return breaksAfter(block, next) >= 1;
    case 'paragraph':
    case 'table':
    case 'blockquote':
      return breaksAfter(block, next) >= 2;
    default:
      return false;
  }
}

/** `[text][label]` and `[label][]`, of a link or an image: a reference, whose label is the second or the first. */
const REFERENCE = /\[((?:\\.|[^\\[\]])*)\]\[((?:\\.|[^\\[\]])*)\]/g;

/** How marked finds a label among the definitions. */
const normalLabel = (label: string) => label.replace(/\s+/g, ' ').toLowerCase();

/** Whether `block` has a full or collapsed reference (`[x][1]`, `[x][]`) to a label not in `defined`. */
function refersToUndefined(block: Block, defined: Set<string>): boolean {
  if (block.type === 'code' || block.type === 'def' || !block.raw.includes('][')) return false;
  const text = block.raw.replace(/`[^`\n]*`/g, '');
  for (const [, first, second] of text.matchAll(REFERENCE))
    if (!defined.has(normalLabel(second || first!))) return true;
  return false;
}

/**
 * Splits a reply's blocks (marked's lexer, in order) into those that are complete and those that
 * may still change as text arrives. A block is complete when it ended itself (endedItself) or
 * when the next one has begun: that one has a whole first line, since `2` may still become `2.`
 * and continue a list, or a `-` an item. Once the reply has `ended`, every block is complete.
 * Until then, a block with a reference (`[x][1]`) whose definition is neither among `defined`
 * (labels defined earlier in the reply) nor complete after it waits, and those after it with
 * it: the definition may still come, as the whole reply would resolve it.
 */
export function splitBlocks<T extends Block>(
  blocks: T[],
  ended: boolean,
  defined: ReadonlySet<string> = new Set(),
): BlockSplit<T> {
  let count = ended ? blocks.length : 0;
  const lastBreak = blocks.findLastIndex((b) => b.raw.includes('\n'));
  for (let i = 0; !ended && i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type === 'space') continue;
    const after = blocks.findIndex((b, j) => j > i && b.type !== 'space');
    const begun = after !== -1 && after <= lastBreak;
    if (!begun && !endedItself(block, blocks[i + 1])) break;
    count = i + 1;
  }
  if (!ended) {
    const labels = new Set(defined);
    for (const block of blocks.slice(0, count)) if (block.type === 'def' && block.tag) labels.add(block.tag);
    const waiting = blocks.findIndex((b, i) => i < count && refersToUndefined(b, labels));
    if (waiting !== -1) count = waiting;
  }
  const done = blocks.slice(0, count);
  return { done, open: blocks.slice(count), length: done.reduce((n, b) => n + b.raw.length, 0) };
}

/**
 * The block still arriving as it may be shown before it is complete: without a last line that
 * has no letter yet (it may still become a fence, a rule, a bullet or a table's delimiter row),
 * and with an inline code span or a `**` left open closed, so that their markers do not show.
 * A code block is shown as it is; a table by whole rows (drawing one costs milliseconds).
 */
export function previewSource(open: string, kind: 'code' | 'table' | 'text'): string {
  const lastBreak = open.lastIndexOf('\n');
  const partial = open.slice(lastBreak + 1);
  let text = kind !== 'table' && /\p{L}/u.test(partial) ? open : open.slice(0, lastBreak + 1);
  if (kind !== 'text') return text;
  text = text
    .trimEnd()
    .replace(/(?<![*\\])\*$/, '')
    .trimEnd();
  if ((text.match(/(?<![`\\])`(?!`)/g) ?? []).length % 2) return `${text}\``;
  if ((text.replace(/`[^`\n]*`/g, '').match(/\*\*/g) ?? []).length % 2)
    text = text.endsWith('**') ? text.slice(0, -2).trimEnd() : `${text}**`;
  return text;
}

/**
 * The blocks of a preview, less a last paragraph that starts with a pipe: a table still at its
 * header row reads as one, and is shown once its delimiter row makes it a table.
 */
export function withoutTableToBe<T extends Block>(blocks: T[]): T[] {
  const last = blocks.findLastIndex((b) => b.type !== 'space');
  return last !== -1 && blocks[last]!.type === 'paragraph' && /^ {0,3}\|/.test(blocks[last]!.raw)
    ? blocks.slice(0, last)
    : blocks;
}
