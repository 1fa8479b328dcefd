import type { ChalkInstance } from 'chalk';
import wrapAnsi from 'wrap-ansi';
import type { Message, ThreadWithMessages } from '../api/types.js';
import { sanitizeText } from '../util/sanitize.js';
import { colorStatus, relativeTime } from './format.js';
import type { IO } from './streams.js';

export function roleLabel(color: ChalkInstance, role: string): string {
  if (role === 'user') return color.bold.cyan('You');
  if (role === 'assistant') return color.bold.magenta('Assistant');
  return color.bold(sanitizeText(role));
}

/** One message: a label line, then the content word-wrapped to the terminal. */
export function renderMessage(io: IO, message: Message, body?: string): string {
  const when = io.stdoutIsTTY ? relativeTime(message.createdAt) : message.createdAt;
  const text = body ?? sanitizeText(message.content ?? '');
  const wrapped = io.stdoutIsTTY
    ? wrapAnsi(text, Math.max(20, io.columns - 2), { hard: true, trim: false })
    : text;
  return `${roleLabel(io.color, message.role)} ${io.color.dim(`· ${when}`)}\n${wrapped}\n`;
}

export function renderThreadHeader(io: IO, thread: ThreadWithMessages): string {
  const when = io.stdoutIsTTY ? relativeTime(thread.createdAt) : thread.createdAt;
  const count = thread.messages.length;
  return (
    `${io.color.bold(sanitizeText(thread.title ?? ''))}\n` +
    `${io.color.dim(`${thread.id} · `)}${colorStatus(io.color, String(thread.status))}${io.color.dim(` · created ${when} · ${count} message${count === 1 ? '' : 's'}`)}\n`
  );
}
