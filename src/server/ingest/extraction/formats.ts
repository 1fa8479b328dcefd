import { basename, extname } from 'node:path';
import { importPackage } from '../../../import-package.js';
import { DOCUMENT_TYPES, IMAGE_EXTENSIONS, SUPPORTED } from './document-types.js';
import { DocxParts, PartsTooLarge } from './docx-parts.js';
import type { IndexingError, OcrReport } from '../../state/model.js';
import { readHtml } from './html-text.js';
import { imageText, MAX_IMAGE_PIXELS } from './image-text.js';
import { jsonToText, readJson } from './json-text.js';
import { readMarkdown } from './markdown-text.js';
import { pdfPageText, withoutRunningLines, withSentencesWhole } from './pdf-text.js';
import { withDrawnTables } from './drawn-table.js';
import { unwrapText, withoutOverstrikes } from './plain-text.js';
import { recordLine } from './record-line.js';
import { type OcrReader, recognisePages } from './scanned-pages.js';
import { decodeText, looksLikeText } from './text-decode.js';
import { gunzip } from './gzip.js';

/** A stretch of a document's text, and the page it is on where the format has pages. */
/**
 * A line's heading by its markup: its level where the markup gives one (Markdown's `##`, HTML's
 * `<h2>`: 2), true where it gives none (a bold paragraph), false for no heading, undefined when
 * its shape decides.
 */
export type HeadingMark = boolean | number | undefined;

export interface Section {
  text: string;
  page?: number;
  /**
   * For each line of `text`, whether the format's markup makes it a heading (HTML's `<h2>`),
   * says it is none (a paragraph, code), or leaves that to its shape (undefined).
   */
  headings?: HeadingMark[];
  /**
   * For each line of `text`, how many definition lists (HTML's `<dl>`) it is in: a term's heading
   * (a method's signature in its `<dt>`) heads the lines as deep as it, not those after its list.
   */
  depths?: number[];
}

export type Extraction =
  { ok: true; sections: Section[]; ocr?: OcrReport } | { ok: false; error: IndexingError };

const fail = (code: string, message: string): Extraction => ({ ok: false, error: { code, message } });

/**
 * The text of a document, in sections (a PDF's pages), or the indexing error that explains why
 * there is none. With `ocr`, scanned pages and images are read too. A `.gz` is read as the file
 * it unpacks to (`changelog.Debian.gz` as `changelog.Debian`, `manual.pdf.gz` as a PDF), no
 * larger than `maxFileBytes`.
 */
export async function extractDocument(
  filename: string,
  bytes: Uint8Array,
  ocr?: OcrReader,
  maxFileBytes?: number,
): Promise<Extraction> {
  if (bytes.length === 0 || extname(filename).toLowerCase() !== '.gz')
    return extractUnpacked(filename, bytes, ocr);
  const unpacked = gunzip(filename, bytes, maxFileBytes);
  if (!unpacked.ok) return unpacked;
  // Once: a .gz inside is not unpacked again.
  return extractUnpacked(filename.slice(0, -'.gz'.length), unpacked.bytes, ocr);
}

async function extractUnpacked(filename: string, bytes: Uint8Array, ocr?: OcrReader): Promise<Extraction> {
  if (bytes.length === 0) return fail('empty_file', 'the file is empty');
  const ext = extname(filename).toLowerCase();
  if (!(ext in DOCUMENT_TYPES)) return extractOtherType(filename, ext, bytes);
  if (ext === '.pdf') return extractPdf(bytes, ocr);
  if (IMAGE_EXTENSIONS.has(ext)) {
    const image = await imageText(bytes, ocr);
    if (!image.ok) return image;
    const read = finish([{ text: image.text }]);
    return read.ok ? { ...read, ocr: image.ocr } : fail('no_text', 'no text was recognised in the image');
  }
  if (ext === '.docx') return extractDocx(bytes);
  const decoded = decodeText(bytes);
  if (!decoded.ok) return fail('binary_content', 'the file holds binary data, not text');
  let text = decoded.text;
  if (ext === '.html' || ext === '.htm') return finish([readHtml(text)]);
  if (ext === '.json') {
    const json = await readJson(text);
    if (!json.ok) return fail('parse_error', `the JSON cannot be parsed: ${json.message}`);
    text = await decodeEntities([jsonToText(json.value, json.notes), ...(json.trailing ?? [])].join('\n'));
  } else if (ext === '.csv' || ext === '.tsv') {
    try {
      text = await decodeEntities(await tableToText(text, ext === '.tsv' ? '\t' : ','));
    } catch (err) {
      return fail(
        'parse_error',
        `the ${ext.slice(1).toUpperCase()} cannot be parsed: ${(err as Error).message}`,
      );
    }
  } else if (ext === '.md' || ext === '.markdown') return finish([await readMarkdown(text)]);
  else text = await plainText(text);
  return finish([{ text }]);
}

/** A text file's text: overstrikes resolved, entities decoded, filled lines joined. */
const plainText = async (text: string) => unwrapText(await decodeEntities(withoutOverstrikes(text)));

/**
 * A file of a type kb does not know (README, changelog, Makefile, a .conf, .rst or .log): read
 * as a `.txt` when its bytes are text, else unsupported.
 */
async function extractOtherType(filename: string, ext: string, bytes: Uint8Array): Promise<Extraction> {
  const decoded = looksLikeText(bytes) ? decodeText(bytes) : undefined;
  if (decoded?.ok) return finish([{ text: await plainText(decoded.text) }]);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b)
    return fail(
      'unsupported_type',
      `${basename(filename)} is compressed (gzip) but not named .gz, or compressed twice: decompress it to index it`,
    );
  return fail(
    'unsupported_type',
    `${ext ? `a ${ext} file` : 'a file with no extension'} whose bytes are not text (a program, a picture, compressed data) cannot be indexed; supported: ${SUPPORTED}, and text of any other name`,
  );
}

/** Sections with their white space tidied; none left means there was no text. */
function finish(sections: Section[]): Extraction {
  const tidy = sections.map(tidySection).filter((s) => s.text.length > 0);
  if (!tidy.length) return fail('no_text', 'no text could be extracted from the file');
  return { ok: true, sections: tidy };
}

/** A section tidied; its lines' headings kept while its lines are the same (HTML's are already tidy). */
function tidySection(section: Section): Section {
  const text = tidyText(section.text);
  const { headings, depths, ...rest } = section;
  if (!headings) return { ...rest, text };
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines === headings.length
    ? { ...rest, text, headings, ...(depths && { depths }) }
    : { ...rest, text };
}

/** Runs of spaces become one, line ends \n, blank lines at most one; each pass only where it has work (a document may be 100 MB). */
function tidyText(text: string): string {
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  if (/[\t\f\v\u00a0]| {2}/.test(text)) text = text.replace(/[ \t\f\v\u00a0]+/g, ' ');
  if (/ \n|\n /.test(text)) text = text.replace(/ ?\n ?/g, '\n');
  if (text.includes('\n\n\n')) text = text.replace(/\n{3,}/g, '\n\n');
  return text.trim();
}

/**
 * Character references (`&#39;`, `&gt;`) decoded: text exported from HTML (a JSON API's strings,
 * a CSV from a web tool, a text dump) often carries them. Only complete references, ended by `;`.
 */
async function decodeEntities(text: string): Promise<string> {
  if (!/&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(text)) return text;
  const { decodeHTMLStrict } = await importPackage<typeof import('entities')>('entities');
  return decodeHTMLStrict(text);
}

/**
 * A row a line, each value named by its column: `priority: Urgent; first response: 30 minutes.`
 * A file that opens with `#` comments (tzdata's zone1970.tab, a BED or VCF file) has them read as
 * its text and skipped among its rows, and a last comment that holds the delimiter names its
 * columns (`#codes<TAB>coordinates<TAB>TZ<TAB>comments`).
 */
async function tableToText(text: string, delimiter: string): Promise<string> {
  const { parse } = await importPackage<typeof import('csv-parse/sync')>('csv-parse/sync');
  const preamble = commentPreamble(text, delimiter);
  const rows = parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
    // The comments skipped, among the rows too where the file writes comments (elsewhere a row
    // may start with #, `#1`); when its header row does (`#,name`), only those it opens with.
    ...(preamble &&
      (preamble.hashedHeader ? { from_line: preamble.lines + 1 } : { comment: '#', comment_no_infix: true })),
  }) as string[][];
  const [header, ...body] = preamble?.header ? [preamble.header, ...rows] : rows;
  if (!header) return preamble?.text ?? '';
  // One row alone is the table's only record, not the names of columns that hold nothing.
  if (!body.length && !preamble?.header) {
    const cells = header.filter(Boolean);
    return [...(preamble?.text ? [preamble.text] : []), ...(cells.length ? [recordLine(cells)] : [])].join(
      '\n',
    );
  }
  const names = header.map((name, i) => name || `column ${i + 1}`);
  const lines = body
    .map((row) => {
      const cells = row
        .map((cell, i) => (cell ? `${names[i] ?? `column ${i + 1}`}: ${cell}` : ''))
        .filter(Boolean);
      return cells.length ? recordLine(cells) : '';
    })
    .filter(Boolean);
  return [...(preamble?.text ? [preamble.text] : []), ...lines].join('\n');
}

/**
 * The `#` comments a table opens with, as text, and the column names its last one gives when it
 * holds the delimiter (a name hyphenated onto the comment above it, `#country-` / `#codes…`, is
 * whole again). A `#` followed by the delimiter names a column (`#,name,notes`): no comment.
 */
function commentPreamble(
  text: string,
  delimiter: string,
): { text: string; lines: number; hashedHeader: boolean; header?: string[] } | undefined {
  const comments: string[] = [];
  let start = 0;
  while (text[start] === '#' && text[start + 1] !== delimiter) {
    const end = text.indexOf('\n', start);
    comments.push(text.slice(start + 1, end === -1 ? text.length : end).replace(/\r$/, ''));
    start = end === -1 ? text.length : end + 1;
  }
  if (!comments.length) return undefined;
  const lines = comments.length;
  const hashedHeader = text[start] === '#';
  let header: string[] | undefined;
  const last = comments.at(-1)!;
  const cells = last.split(delimiter).map((cell) => cell.trim());
  if (cells.filter(Boolean).length >= 2) {
    comments.pop();
    const above = comments.at(-1)?.trim();
    if (above && /\p{L}-$/u.test(above) && !above.includes(' ')) {
      comments.pop();
      cells[0] = `${above}${cells[0]}`;
    }
    header = cells;
  }
  const prose = unwrapText(comments.map((line) => line.replace(/^#* ?/, '').trimEnd()).join('\n')).trim();
  return header ? { text: prose, lines, hashedHeader, header } : { text: prose, lines, hashedHeader };
}

async function extractPdf(bytes: Uint8Array, ocr: OcrReader | undefined): Promise<Extraction> {
  const { getDocumentProxy } = await importPackage<typeof import('unpdf')>('unpdf');
  const pages: string[] = [];
  let scanned: OcrReport | undefined;
  try {
    // pdf.js takes the buffer over: a copy, so that the caller's stays whole.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      isEvalSupported: false,
      maxImageSize: MAX_IMAGE_PIXELS,
    });
    try {
      for (let n = 1; n <= pdf.numPages; n++) {
        const page = await pdf.getPage(n);
        const content = await page.getTextContent();
        pages.push(pdfPageText(content.items.filter((item) => 'str' in item)));
        page.cleanup();
      }
      if (ocr) scanned = await recognisePages(pdf, pages, ocr);
    } finally {
      void pdf.destroy();
    }
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException')
      return fail('encrypted', 'the PDF is protected by a password; save an unprotected copy to index it');
    return fail('parse_error', `the PDF cannot be read: ${(err as Error).message}`);
  }
  // A table drawn with pipes (doveadm-pw(1)'s rounds) is read as its records, as in plain text.
  const extracted = finish(
    withSentencesWhole(withoutRunningLines(pages)).map((text, i) => ({
      text: withDrawnTables(text.split('\n')).join('\n'),
      page: i + 1,
    })),
  );
  const count = `${pages.length} page${pages.length === 1 ? '' : 's'}`;
  if (!extracted.ok && pages.length > 0 && scanned)
    return fail(
      'no_text',
      `${count}, no text layer, and OCR recognised no text${scanned.skipped ? ` (not read: ${scanned.skipped})` : ''}`,
    );
  if (!extracted.ok && pages.length > 0)
    return fail('no_text_layer', `${count}, no extractable text: scanned images? OCR is off (--no-ocr)`);
  return extracted.ok && scanned ? { ...extracted, ocr: scanned } : extracted;
}

async function extractDocx(bytes: Uint8Array): Promise<Extraction> {
  // CommonJS: its exports are the module's default.
  const mammoth = (await importPackage<{ default: typeof import('mammoth') }>('mammoth')).default;
  let html: string;
  try {
    const parts = new DocxParts(bytes);
    // mammoth reads the package through `file` (its own zip reader's interface): every part
    // unpacked within the limit. Images are never read (their text is nothing).
    const file = {
      exists: (name: string) => parts.has(name),
      read: async (name: string, encoding?: string) => {
        const part = parts.read(name);
        if (encoding === 'base64') return part.toString('base64');
        return encoding ? new TextDecoder(encoding).decode(part) : part;
      },
    };
    html = (
      await mammoth.convertToHtml({ file } as unknown as { buffer: Buffer }, {
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
      })
    ).value;
  } catch (err) {
    if (err instanceof PartsTooLarge)
      return fail('too_large', `the Word document cannot be read: ${err.message}`);
    return fail('parse_error', `the Word document cannot be read: ${(err as Error).message}`);
  }
  return finish([readHtml(html)]);
}
