import { recordLine } from './record-line.js';
import type { HeadingMark } from './formats.js';
import type { Token, Tokens } from 'marked';
import { importPackage } from '../../../import-package.js';
import { htmlToText } from './html-text.js';

/**
 * The text of a Markdown document as a reader sees it, read by marked's lexer (CommonMark and
 * GFM): markers gone, an underscore inside a word kept (`max_connections`), entities decoded,
 * a line per block, links as their text, images as their alt text, and each table row as
 * `Header: value; …` as HTML tables are read. With each line, whether its markup makes it a
 * heading (`#### When I try to use 'cd' with sudo…`, a FAQ's question however long), says it is
 * none (a paragraph, an item, code) or leaves that to its shape (a table, HTML), as HTML's are.
 */
export async function readMarkdown(markdown: string): Promise<{ text: string; headings: HeadingMark[] }> {
  const [{ Lexer }, { decodeHTMLStrict }] = await Promise.all([
    importPackage<typeof import('marked')>('marked'),
    importPackage<typeof import('entities')>('entities'),
  ]);
  const inline = (tokens: Token[] | undefined) => inlineText(tokens, decodeHTMLStrict);
  const tableLines = (table: Tokens.Table) => tableText(table, inline);
  const { matter, body } = frontMatter(markdown);
  const lines: string[] = [];
  const headings: HeadingMark[] = [];
  const add = (text: string, heading: HeadingMark) => {
    for (const line of text.split('\n'))
      if (line.trim()) {
        lines.push(line);
        headings.push(heading);
      }
  };
  for (const line of matter) add(line, false);
  // Iterative over the blocks: a deeply nested quote or list cannot exhaust the stack.
  const stack: Token[] = Lexer.lex(body, { gfm: true }).reverse();
  while (stack.length) {
    const token = stack.pop()!;
    switch (token.type) {
      case 'heading':
        add(inline((token as Tokens.Heading).tokens), (token as Tokens.Heading).depth);
        break;
      case 'paragraph': {
        if (isBadgeRow(token as Tokens.Paragraph)) break;
        const text = inline((token as Tokens.Paragraph).tokens);
        add(text, isBoldHeading(token as Tokens.Paragraph, text) ? true : false);
        break;
      }
      case 'text': {
        const t = token as Tokens.Text;
        add(t.tokens ? inline(t.tokens) : t.text, false);
        break;
      }
      case 'code':
        add((token as Tokens.Code).text, false);
        break;
      case 'html':
        add(htmlToText((token as Tokens.HTML).text), undefined);
        break;
      case 'table':
        for (const line of tableLines(token as Tokens.Table)) add(line, undefined);
        break;
      case 'list':
        for (const item of [...(token as Tokens.List).items].reverse())
          stack.push(...[...item.tokens].reverse());
        break;
      case 'blockquote':
        stack.push(...[...(token as Tokens.Blockquote).tokens].reverse());
        break;
      default:
        // space, hr, def: nothing a reader reads
        break;
    }
  }
  return { text: lines.join('\n'), headings };
}

/**
 * A paragraph of linked images only: a README's badges (`[![CI](…badge.svg)](…/actions)`), whose
 * words ("CI Coverity Scan Build Status Mailing List…") say nothing of the project. A picture
 * that links nowhere keeps its words (its alt text).
 */
function isBadgeRow(paragraph: Tokens.Paragraph): boolean {
  const tokens = paragraph.tokens.filter((t) => !(t.type === 'text' && !t.raw.trim()) && t.type !== 'br');
  return (
    tokens.length > 0 &&
    tokens.every(
      (t) =>
        t.type === 'link' &&
        (t as Tokens.Link).tokens.length > 0 &&
        (t as Tokens.Link).tokens.every((i) => i.type === 'image'),
    )
  );
}

/** A paragraph of one line all in bold, not ended as a sentence or a label, is a heading (`**Installation**`), as in HTML. */
function isBoldHeading(paragraph: Tokens.Paragraph, text: string): boolean {
  const [only, ...rest] = paragraph.tokens;
  return !rest.length && only?.type === 'strong' && !text.includes('\n') && !/[.:;,]$/.test(text.trim());
}

/**
 * The text of inline tokens: emphasis, code and links as their words, inline HTML tags dropped.
 * The lexer leaves character references in text as written (`&lt;`): decoded here, not in code.
 */
function inlineText(tokens: Token[] | undefined, decode: (text: string) => string): string {
  const inline = (inner: Token[] | undefined) => inlineText(inner, decode);
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'text':
        // A line end inside a paragraph is a soft break: the sentence goes on.
        out +=
          'tokens' in token && token.tokens
            ? inline(token.tokens)
            : decode((token as Tokens.Text).text).replace(/\n/g, ' ');
        break;
      case 'escape':
      case 'codespan':
        out += (token as Tokens.Codespan).text;
        break;
      case 'image':
        out += (token as Tokens.Image).text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'html':
        break;
      default:
        out +=
          'tokens' in token && token.tokens
            ? inline(token.tokens)
            : ((token as { text?: string }).text ?? '');
    }
  }
  return out;
}

function tableText(table: Tokens.Table, inline: (tokens: Token[]) => string): string[] {
  const headers = table.header.map((cell) => inline(cell.tokens).trim());
  const lines = [headers.filter(Boolean).join('; ')];
  for (const row of table.rows) {
    const cells = row
      .map((cell, i) => {
        const value = inline(cell.tokens).trim();
        return value ? (headers[i] ? `${headers[i]}: ${value}` : value) : '';
      })
      .filter(Boolean);
    if (cells.length) lines.push(recordLine(cells));
  }
  return lines;
}

/**
 * A page's front matter (Jekyll, Hugo, MkDocs): YAML from a first line `---` to the next `---` or
 * `...`, or Hugo's TOML between `+++` lines. Its lines are the page's metadata (`title: …`), each a
 * line of its own; read as Markdown, they would be a setext heading over the page under a rule. It
 * begins with a key (`title:`, TOML's `title =`) or a comment: a page may begin with a rule.
 */
const FRONT_MATTER =
  /^(---|\+\+\+)[ \t]*\r?\n((?:[\w.-]+[ \t]*[:=]|#)[\s\S]*?)\r?\n(?:\1|\.\.\.)[ \t]*(?:\r?\n|$)/;

function frontMatter(markdown: string): { matter: string[]; body: string } {
  const found = FRONT_MATTER.exec(markdown);
  if (!found) return { matter: [], body: markdown };
  const matter = found[2]!
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return { matter, body: markdown.slice(found[0].length) };
}
