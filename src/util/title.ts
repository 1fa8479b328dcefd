/** A thread title from the first message: one line, at most ~60 characters, cut at a word. */
export function titleFrom(message: string, max = 60): string {
  const line = message.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line || 'New chat';
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
