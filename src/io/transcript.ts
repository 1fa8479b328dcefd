import type { Message, ThreadWithMessages } from '../api/types.js';
import { colorStatus, roleLabel, unfinishedMark } from './format.js';
import type { Output } from './output.js';

/**
 * A thread as people read it: a header, then each message with its role and time, word-wrapped
 * on a terminal, Markdown's marks left out. It is given the sanitised record (Output.record), so every field is safe.
 */
export async function transcriptView(
  output: Output,
  options: { last?: number } = {},
): Promise<(thread: ThreadWithMessages) => string> {
  const { io } = output;
  // On a terminal, Markdown's marks left out (a block of code as its lines), wrapped at word boundaries.
  const terminal = io.stdoutIsTTY
    ? { ...(await import('./wrap-text.js')), ...(await import('../chat/render.js')) }
    : undefined;
  const message = (m: Message) => {
    const text = String(m.content ?? '');
    const body = terminal
      ? terminal.wrapText(terminal.plainMarkdown(text), Math.max(20, io.columns - 2))
      : text;
    const mark = unfinishedMark(m);
    return `${roleLabel(io.color, String(m.role))} ${io.color.dim(`· ${output.time(m.createdAt)}`)}\n${body}\n${mark ? `${io.color.dim(mark)}\n` : ''}`;
  };
  return (thread) => {
    const messages = Array.isArray(thread.messages) ? thread.messages : [];
    const count = messages.length;
    const shown = options.last && options.last > 0 ? messages.slice(-options.last) : messages;
    const header =
      `${io.color.bold(String(thread.title ?? ''))}\n` +
      `${io.color.dim(`${thread.id} · `)}${colorStatus(io.color, String(thread.status))}${io.color.dim(` · created ${output.time(thread.createdAt)} · ${count} message${count === 1 ? '' : 's'}`)}\n`;
    if (shown.length === 0) return `${header}\n${io.color.dim('No messages yet.')}\n`;
    return header + shown.map((m) => `\n${message(m)}`).join('');
  };
}
