import type { Message, ThreadWithMessages } from '../api/types.js';
import { unfinishedMark } from './format.js';

function label(role: string): string {
  return role === 'user' ? 'You' : role === 'assistant' ? 'Assistant' : role;
}

/** A reply's last line naming its sources. */
const SOURCES_LINE = /(?:^|\n)Sources: [^\n]*$/;

/** A thread as a Markdown document: its title, then each message under its role and time. */
export function threadAsMarkdown(thread: ThreadWithMessages): string {
  const messages: Message[] = Array.isArray(thread.messages) ? thread.messages : [];
  const parts = [
    `# ${String(thread.title ?? '').trim() || 'Untitled thread'}`,
    `_${thread.id} · ${thread.status} · created ${thread.createdAt} · ${messages.length} message${messages.length === 1 ? '' : 's'}_`,
    ...messages.map((m) => {
      const content = String(m.content ?? '').trim();
      // kb serve's replies end with their sources already ("Sources: [pricing.md]").
      const sources =
        Array.isArray(m.sources) && m.sources.length && !SOURCES_LINE.test(content)
          ? `\n\n_Sources: ${m.sources.join(', ')}_`
          : '';
      const mark = unfinishedMark(m);
      const note = mark ? `\n\n> **Note:** ${mark.slice(1, -1)}: this reply is incomplete.` : '';
      return `## ${label(String(m.role))} · ${m.createdAt}\n\n${content}${note}${sources}`;
    }),
  ];
  return `${parts.join('\n\n')}\n`;
}
