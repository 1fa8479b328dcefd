/**
 * Where a configuration file's line is: the sections and stanzas around it (`[fs_types]`,
 * `small = {` … `}`, nginx's `server {`, Apache's `<Directory /var/www>`). A setting inside one is
 * that one's (mke2fs.conf's `inode_ratio = 4096` is small file systems', not the default), and is
 * shown inside it.
 */
export interface ConfigBlock {
  /** The names of the sections and stanzas it is in, outermost first (`fs_types small`). */
  name: string;
  /** The lines that open them, and those that close them (where the text has them). */
  lines: number[];
  /** It is inside a stanza, not only a section: its values are that stanza's, not the file's defaults. */
  stanza: boolean;
}

/** An INI or TOML section's line: `[defaults]`, `[[servers]]`. */
const SECTION = /^\[{1,2}\s*([^\][]+?)\s*\]{1,2}$/;
/** A stanza's first line: a name (and words), maybe `=`, then `{` (`small = {`, `location /api {`). */
const STANZA_OPEN = /^([\w.:/*~^$-]+(?:\s+[^\s{}=#;]+)*)\s*=?\s*\{$/;
const STANZA_CLOSE = /^\};?$/;
/** An XML-like section (`<Directory /var/www>` … `</Directory>`, `<VirtualHost *:80>`). */
const TAG_OPEN = /^<([A-Za-z][\w.-]*)(\s[^<>]*)?>$/;
const TAG_CLOSE = /^<\/([A-Za-z][\w.-]*)>$/;

interface Open {
  name: string;
  line: number;
  /** The tag's name, for an XML-like section. */
  tag?: string;
}

/** A line that opens or closes a section or a stanza: structure, not a setting. */
export function isBlockLine(line: string): boolean {
  const text = line.trim();
  return [SECTION, STANZA_OPEN, STANZA_CLOSE, TAG_OPEN, TAG_CLOSE].some((shape) => shape.test(text));
}

/** For each line of a configuration file's text, the block it is in, if any. */
export function configBlocks(lines: string[]): (ConfigBlock | undefined)[] {
  let section: Open | undefined;
  const stanzas: Open[] = [];
  const inside: { line: number; section: Open | undefined; stanzas: Open[] }[] = [];
  /** Each opening line -> the line that closes it. */
  const closedAt = new Map<number, number>();
  lines.forEach((raw, line) => {
    const text = raw.trim();
    if (!text || /^[#;]/.test(text)) return;
    const sectionName = SECTION.exec(text);
    if (sectionName) {
      section = { name: sectionName[1]!, line };
      stanzas.length = 0;
      return;
    }
    const opened = STANZA_OPEN.exec(text);
    const tag = opened ? null : TAG_OPEN.exec(text);
    if (opened || tag) {
      stanzas.push(
        tag
          ? { name: `${tag[1]}${tag[2] ?? ''}`.trim(), line, tag: tag[1]!.toLowerCase() }
          : { name: opened![1]!, line },
      );
      return;
    }
    const closedTag = TAG_CLOSE.exec(text)?.[1]?.toLowerCase();
    if (STANZA_CLOSE.test(text) || closedTag) {
      const at = stanzas.findLastIndex((s) => (closedTag ? s.tag === closedTag : s.tag === undefined));
      if (at >= 0) {
        closedAt.set(stanzas[at]!.line, line);
        stanzas.length = at;
      }
      return;
    }
    if (section || stanzas.length) inside.push({ line, section, stanzas: [...stanzas] });
  });
  const blocks: (ConfigBlock | undefined)[] = lines.map(() => undefined);
  for (const { line, section, stanzas } of inside) {
    const opens = [...(section ? [section] : []), ...stanzas];
    blocks[line] = {
      name: opens.map((o) => o.name).join(' '),
      lines: [
        ...opens.map((o) => o.line),
        ...stanzas.flatMap((s) => (closedAt.has(s.line) ? [closedAt.get(s.line)!] : [])),
      ],
      stanza: stanzas.length > 0,
    };
  }
  return blocks;
}
