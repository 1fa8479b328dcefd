import { joinFilledProse } from './filled-prose.js';
import type { HeadingMark } from './formats.js';
import { namesColumns, recordLine } from './record-line.js';
import { parseHtml, type TagAttributes } from './html-events.js';

/** Elements whose content is never text a reader sees. */
const HIDDEN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
]);
/**
 * Elements that end a line: the text on either side is not one sentence. `h` is a heading without
 * a level (XHTML 2's; sqlite-doc's pragma.html names each pragma with a hidden `<h>`): its text
 * is a line of its own, never the end of the paragraph before it.
 */
const BLOCKS = new Set(
  'address article aside blockquote br caption dd details dialog div dl dt fieldset figcaption figure footer form h h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot title ul'.split(
    ' ',
  ),
);

/**
 * Elements of a sentence's text (HTML's phrasing content). A list inside one is no part of the
 * sentence, which HTML allows only as a popup: haproxy's keyword dropdowns ("timeout connect" /
 * "This keyword is available in sections : Rings …").
 */
const PHRASING = new Set(
  'a abbr b bdi bdo cite code em font i kbd label mark q s samp small span strong sub sup tt u var'.split(
    ' ',
  ),
);

/**
 * A line at least this much of whose text is link text is navigation (a menu, a table of
 * contents, an index entry, "next | previous"): left out, as readers' boilerplate removal does.
 */
const NAVIGATION_LINK_SHARE = 0.5;

/** An address as written, less what readers leave out of one: its scheme, `www.`, a closing `/`. */
const bareAddress = (address: string) =>
  address
    .trim()
    .toLowerCase()
    .replace(/^(?:[a-z][a-z0-9+.-]*:(?:\/\/)?)?(?:www\.)?/, '')
    .replace(/\/$/, '');

/**
 * Whether a link's text is an address, its own or any (`https://github.com/eclipse/mosquitto/issues`,
 * `mqtt.org`): written for the reader to see, as in a README's list of where things are, not a
 * menu's entry (mosquitto's README.docx, a new user's trial 28: its list of addresses had been
 * left out as navigation).
 */
function showsAddress(text: string, address: string | undefined): boolean {
  const shown = text.trim();
  if (/^(?:https?|ftp):\/\/\S+$/i.test(shown)) return true;
  return address !== undefined && bareAddress(shown) === bareAddress(address);
}

interface Table {
  headers: string[] | undefined;
  row: string[] | undefined;
  cell: string | undefined;
  /** How much of the row so far is link text (inside `linkDepth` links). */
  linkChars: number;
  linkDepth: number;
  /** How much of the cell so far is link text, and how many of the row's cells are all link text. */
  cellLinkChars: number;
  linkCells: number;
  /** The row's td cells: a first row of th cells only names the columns. */
  dataCells: number;
  /** The row that names the columns, read only if no row follows it (each row says their names). */
  header?: string;
  rows: number;
}

/** Elements whose lines are headings, whatever their shape. */
const HEADINGS = new Set(['title', 'h', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** The levels of the headings whose element says it. */
const LEVELS = new Map([1, 2, 3, 4, 5, 6].map((level) => [`h${level}`, level]));
/**
 * Elements whose lines are never headings: a paragraph ("With this table, the statement" before
 * an example), preformatted text (code), a list's item. A paragraph all in bold that does not end
 * as a sentence or a label does (sqlite-doc's FAQ: `<p><b>(5) Can multiple applications…?</b></p>`).
 */
const NOT_HEADINGS = new Set(['p', 'pre', 'li']);
const BOLD = new Set(['b', 'strong']);

/**
 * The text of an HTML document as a reader sees it: entities decoded, the title kept as the
 * first line, hidden content (scripts, styles, templates, comments) left out, a line per block
 * (and per line of preformatted text), inline tags joining their words as written, each table row
 * as `Header: value; …`, and navigation left out: lines that are mostly links, and links that
 * are only a symbol (a heading's ¶ permalink).
 */
export function htmlToText(html: string): string {
  return readHtml(html).text;
}

/**
 * The text of an HTML document (see `htmlToText`), and for each of its lines whether the markup
 * makes it a heading (true), says it is none (false), or leaves that to its shape (undefined).
 */
export function readHtml(html: string): {
  text: string;
  headings: HeadingMark[];
  depths: number[];
} {
  const lines: string[] = [];
  const headings: HeadingMark[] = [];
  /** The page marks its tables' headers (`<th>`): a table's first row of data cells is data. */
  const marksHeaders = /<th[\s>]/i.test(html);
  /** Per line, how many definition lists (`<dl>`) it is in. */
  const depths: number[] = [];
  /** How many of the open blocks are `<dl>`s (counted as they open and close: blocks nest a million deep). */
  let lists = 0;
  /** The open block elements, innermost last, with the number of lines before each. */
  const blocks: { name: string; from: number }[] = [];
  let bold = 0;
  /** Letters and digits of the line so far, and how many of them are bold. */
  let chars = 0;
  let boldChars = 0;
  /** The last line pushed was all bold. */
  let allBold = false;
  let line = '';
  let hidden = 0;
  /** The attributes of each open element, innermost last, and whether it is phrasing content. */
  const opened: (TagAttributes & { phrasing: boolean })[] = [];
  let title = '';
  let inTitle = false;
  let pre = 0;
  let link: string | undefined;
  let linkChars = 0;
  const tables: Table[] = [];
  /** The line of the last definition term (`<dt>`) while nothing has followed it. */
  let term: number | undefined;
  /** Per line, the <pre> block it is a line of (0: none). */
  const preOf: number[] = [];
  /** A <pre> block's lines as written, their spaces kept: where its columns are. */
  const preLines = new Map<number, string>();
  /** Blank lines of a <pre> since its last line: kept before its next (they end its paragraphs). */
  let preBlank = 0;
  let preBlocks = 0;
  /** How many of the open elements are a page's navigation (`<nav>`, `role="navigation"`). */
  let navigating = 0;
  /** The anchors (`<a name>`, ids) since the last line: a link to one of them is its heading's own. */
  const anchors = new Set<string>();
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    const block = blocks.at(-1)?.name;
    // A page's navigation is left out whole, its headings too ("Navigation", "Previous topic");
    // elsewhere, a line mostly of links, but not a heading, whatever it links to (texi2html's link
    // to their contents entry), nor preformatted text.
    const navigation =
      navigating > 0 ||
      (!(block && HEADINGS.has(block)) &&
        // Preformatted text's links are its cross-references (a man page's `showq(8)`).
        !pre &&
        linkChars > 0 &&
        linkChars >= NAVIGATION_LINK_SHARE * text.replace(/\s/g, '').length);
    if (text && !navigation) {
      anchors.clear();
      if (pre) {
        preLines.set(lines.length, '\n'.repeat(preBlank) + line.trimEnd());
        preBlank = 0;
      }
      lines.push(text);
      depths.push(lists);
      preOf.push(pre ? preBlocks : 0);
      headings.push(
        block && HEADINGS.has(block)
          ? (LEVELS.get(block) ?? true)
          : block && NOT_HEADINGS.has(block)
            ? false
            : undefined,
      );
      allBold = chars > 0 && boldChars === chars;
    } else if (pre && !text) preBlank++;
    line = '';
    linkChars = 0;
    chars = boldChars = 0;
  };
  /** A table's row as a line of its own. */
  const tableLine = (row: string) => {
    lines.push(row);
    headings.push(undefined);
    depths.push(lists);
    preOf.push(0);
  };
  const count = (text: string) => {
    const n = text.replace(/[^\p{L}\p{N}]/gu, '').length;
    chars += n;
    if (bold) boldChars += n;
  };
  const write = (text: string) => {
    count(text);
    if (!pre) line += text;
    else
      text.split('\n').forEach((part, i) => {
        if (i > 0) flush();
        line += part;
      });
  };
  /** The block `name` ends: a paragraph of one line all in bold, not ended as a sentence or a label, is a heading. */
  const closeBlock = (name: string) => {
    const at = blocks.findLastIndex((b) => b.name === name);
    if (at === -1) return;
    const { from } = blocks[at]!;
    for (let i = at; i < blocks.length; i++) if (blocks[i]!.name === 'dl') lists--;
    blocks.length = at;
    if (name === 'p' && allBold && lines.length === from + 1 && !/[.:;,]$/.test(lines[from]!))
      headings[from] = true;
  };
  parseHtml(
    {
      onopentag(name, attributes) {
        // Every element opened is closed (the parser closes what a document leaves open). What
        // is hidden from readers inline is decoration (an icon, a permalink); a block so hidden
        // is most often the page behind a dialog, saved while it was open: read all the same.
        const popup = (name === 'ul' || name === 'ol') && opened.some((o) => o.phrasing);
        const decoration =
          popup || (attributes.hidden && !BLOCKS.has(name) && name !== 'body' && name !== 'html');
        if (attributes.anchor) anchors.add(attributes.anchor);
        // A page's furniture, left out whole: its navigation, and its footer.
        const navigation = attributes.navigation || name === 'nav' || name === 'footer';
        if (navigation) navigating++;
        opened.push({ ...attributes, hidden: decoration, navigation, phrasing: PHRASING.has(name) });
        if (decoration) hidden++;
        if (name === 'title') inTitle = true;
        else if (HIDDEN.has(name)) hidden++;
        if (hidden) return;
        if (name === 'pre' && pre++ === 0) {
          preBlocks++;
          preBlank = 0;
        }
        if (BOLD.has(name)) bold++;
        const table = tables.at(-1);
        // 2<sup>64</sup> is 2^64, not 264.
        if (name === 'sup') {
          if (table?.cell !== undefined) table.cell += '^';
          else if (link !== undefined) link += '^';
          else line += '^';
        }
        // A named anchor (`<a name>`, Lua's manual's headings) is text, not a link.
        const isLink = name === 'a' && attributes.href;
        if (isLink && table?.cell === undefined) link = '';
        if (name === 'table') {
          flush();
          tables.push({
            headers: undefined,
            row: undefined,
            cell: undefined,
            linkChars: 0,
            linkDepth: 0,
            cellLinkChars: 0,
            linkCells: 0,
            dataCells: 0,
            rows: 0,
          });
        } else if (table && name === 'tr') {
          table.row = [];
          table.linkChars = 0;
          table.linkCells = 0;
          table.dataCells = 0;
        } else if (table?.cell !== undefined && isLink) table.linkDepth++;
        else if (table && (name === 'td' || name === 'th')) {
          table.cell = '';
          table.cellLinkChars = 0;
          if (name === 'td') table.dataCells++;
        } else if (table?.cell !== undefined) {
          if (BLOCKS.has(name)) table.cell += ' ';
        } else if (BLOCKS.has(name)) {
          flush();
          if (!table) {
            blocks.push({ name, from: lines.length });
            if (name === 'dl') lists++;
          }
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (hidden) return;
        const table = tables.at(-1);
        if (table?.cell !== undefined) {
          table.cell += text;
          if (table.linkDepth) {
            const chars = text.replace(/\s/g, '').length;
            table.linkChars += chars;
            table.cellLinkChars += chars;
          }
        } else if (link !== undefined) link += text;
        else if (!table) write(text);
      },
      onclosetag(name) {
        const attributes = opened.pop();
        if (attributes?.navigation) {
          // Its last words are its own ("Built with Sphinx…" directly in the footer).
          flush();
          navigating--;
        }
        if (attributes?.hidden) hidden = Math.max(0, hidden - 1);
        const isLink = name === 'a' && !!attributes?.href;
        if (name === 'title') inTitle = false;
        else if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        // Nor does a hidden element's own end count (a popup list's is no line's end).
        if (hidden || attributes?.hidden) return;
        if (name === 'pre') {
          // Its last line is its own.
          if (!tables.length) flush();
          pre = Math.max(0, pre - 1);
        }
        if (BOLD.has(name)) bold = Math.max(0, bold - 1);
        const table = tables.at(-1);
        if (isLink && link !== undefined) {
          // A link that is only a symbol is a permalink or an icon, not words. One to the anchor
          // at its own place (haproxy's `<a name="3.2-tune.bufsize">` then `<a
          // href="#3.2-tune.bufsize">tune.bufsize</a>`) is its heading's text, not navigation.
          if (/[\p{L}\p{N}]/u.test(link)) {
            const target = attributes?.target;
            if (
              (target === undefined || !anchors.has(fragment(target))) &&
              !showsAddress(link, attributes?.address)
            )
              linkChars += link.replace(/\s/g, '').length;
            write(link);
          }
          link = undefined;
        } else if (table && (name === 'td' || name === 'th') && table.cell !== undefined) {
          const cell = table.cell.replace(/\s+/g, ' ').trim();
          table.row?.push(cell);
          if (cell && table.cellLinkChars >= cell.replace(/\s/g, '').length) table.linkCells++;
          table.cell = undefined;
        } else if (table?.cell !== undefined && isLink) {
          table.linkDepth = Math.max(0, table.linkDepth - 1);
        } else if (table && name === 'tr' && table.row) {
          // A row mostly of links is navigation too (an index's columns of entries), or one most
          // of whose cells are links (DocBook's Prev / Up / Home / Next around its chapter's title).
          const chars = table.row.join('').replace(/\s/g, '').length;
          const cells = table.row.filter(Boolean).length;
          // Not a label and its value ("Author:" / a link to the author's page).
          const labelled = LABEL.test(table.row[0] ?? '');
          const navigation =
            !labelled &&
            ((table.linkChars > 0 && table.linkChars >= NAVIGATION_LINK_SHARE * chars) ||
              table.linkCells * 2 > cells);
          if (!navigation) for (const row of rowLines(table, marksHeaders)) tableLine(row);
          table.row = undefined;
        } else if (name === 'table') {
          if (!table!.rows && table!.header) tableLine(table!.header);
          tables.pop();
        } else if (!table && name === 'dt') {
          // Terms of one definition, each in its own <dt> (`-u`, `--include-untracked`), are one
          // line, as a manual shows them: `-u, --include-untracked`.
          const before = lines.length;
          flush();
          closeBlock(name);
          if (term !== undefined && term === before - 1 && lines.length === before + 1) {
            preLines.delete(lines.length - 1);
            lines[term] = `${lines[term]}, ${lines.pop()!}`;
            headings.pop();
            depths.pop();
            preOf.pop();
          } else if (lines.length === before + 1) term = before;
        } else if (!table && BLOCKS.has(name)) {
          flush();
          closeBlock(name);
        }
      },
    },
    html,
  );
  flush();
  const read = joinFilledProse(lines, headings, depths, preOf, preLines);
  const heading = title.replace(/\s+/g, ' ').trim();
  if (heading && read.lines[0] !== heading) {
    read.lines.unshift(heading);
    read.headings.unshift(true);
    read.depths.unshift(0);
  }
  return { text: read.lines.join('\n'), headings: read.headings, depths: read.depths };
}

/**
 * A table row as text: a first row that names the columns (header cells, or short labels as
 * a Word table's first row is, on a page with no header cells) names them in the rows after it;
 * a table without one has its rows' cells joined as they are.
 */
function rowLines(table: Table, marksHeaders: boolean): string[] {
  const cells = table.row!;
  if (!cells.some(Boolean)) return [];
  if (!table.headers) {
    // Not a first row that is a label and its value ("Module Name:" / "imfile"), nor one of data
    // cells on a page whose headers are header cells (Graphviz's `tl` / Top Left).
    const names =
      !LABEL.test(cells[0] ?? '') && (table.dataCells === 0 || (!marksHeaders && namesColumns(cells)));
    table.headers = names ? cells : [];
    if (names) {
      table.header = cells.filter(Boolean).join('; ');
      return [];
    }
  }
  table.rows++;
  const headers = table.headers;
  const parts = cells
    .map((cell, i) => (cell ? (headers[i] ? `${headers[i]}: ${cell}` : cell) : ''))
    .filter(Boolean);
  // A row of one cell no header names is that cell's text, not a record ended as a sentence
  // (docutils' option lists: `--keepalive args` above its definition's row).
  const named = cells.some((cell, i) => cell && headers[i]);
  return [parts.length === 1 && !named ? parts[0]! : recordLine(parts)];
}

/** A cell that labels the one after it (`Author:`, `Default:`). */
const LABEL = /^[^:]{1,40}:$/;

/** A link's fragment as the anchor it names (`tune.bufsize%20(Global%20parameters)`). */
function fragment(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}
