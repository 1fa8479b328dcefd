import type { Message, ThreadWithMessages } from '../api/types.js';
import { sanitizeText } from '../util/sanitize.js';
import { colorStatus, relativeTime, roleLabel } from './format.js';
import type { IO } from './streams.js';

export interface Transcript {
  header(thread: ThreadWithMessages): string;
  /** One message: a label line, then the content, word-wrapped on a terminal. */
  message(message: Message): string;
}

/** Renders threads for `io`; the wrapping code is loaded only when stdout is a terminal. */
export async function transcriptFor(io: IO): Promise<Transcript> {
  const wrap = io.stdoutIsTTY ? (await import('./wrap-text.js')).wrapText : undefined;
  return {
    header: (thread) => renderThreadHeader(io, thread),
    message(message) {
      const when = io.stdoutIsTTY ? relativeTime(message.createdAt) : message.createdAt;
      const text = sanitizeText(message.content ?? '');
      const body = wrap ? wrap(text, Math.max(20, io.columns - 2)) : text;
      return `${roleLabel(io.color, message.role)} ${io.color.dim(`· ${when}`)}\n${body}\n`;
    },
  };
}

function renderThreadHeader(io: IO, thread: ThreadWithMessages): string {
  const when = io.stdoutIsTTY ? relativeTime(thread.createdAt) : thread.createdAt;
  const count = thread.messages.length;
  return (
    `${io.color.bold(sanitizeText(thread.title ?? ''))}\n` +
    `${io.color.dim(`${thread.id} · `)}${colorStatus(io.color, String(thread.status))}${io.color.dim(` · created ${when} · ${count} message${count === 1 ? '' : 's'}`)}\n`
  );
}
