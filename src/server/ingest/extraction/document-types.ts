import { extname } from 'node:path';

/**
 * The version of how documents are read (extraction and chunking): bumped whenever a format is
 * read differently. A folder file read by an older version is read again at start, so that an
 * upgrade's better reading reaches what is already indexed (2: #33's reading of manuals; 3: a long
 * signature repeated by name in the chunks under it; 4: OCR of scanned pages and images; 5: the terms of one HTML definition on one line;
 * 6: text files of any other name, README or changelog, read as text, and .gz unpacked, instead of FAILED unsupported_type;
 * 7: a UTF-8 text with stray windows-1252 bytes read as both, not all as windows-1252;
 * 8: a PDF's accent and math glyphs for ~ ^ * < > - read as those characters;
 * 9: a CSV's or TSV's # comments read as text, not as its header, and a commented header as its columns;
 * 10: HTML's level-less <h> a line of its own, and a chunk's repeated heading a line of its own;
 * 11: HTML's headings by its markup: h1-h6 and a paragraph all in bold are, a paragraph, code and a list item are not;
 * 12: an option line (`-s ca_key`) leads its definition's chunks, on the next page too, and heads nothing after it;
 * 13: a definition list's term (a method's signature) heads only the text inside its list;
 * 14: inline HTML hidden from readers (aria-hidden="true": texinfo's "#" and "TOC" links) is left out;
 * 15: a named anchor (`<a name>`, no href) is text, not a link (Lua's manual's headings);
 * 16: a text's overstrikes (nroff's bold `P\bP` and underline `_\bP`) read as the letter struck last;
 * 17: HTML's link to the anchor at its own place (haproxy's keywords, vim's option lines) is text, not navigation;
 * 18: HTML's <pre> blocks of prose filled to a width (haproxy's manuals) read as paragraphs, not a line each;
 * 19: a table's label cell (`<th>Default:</th>`) runs into its value: `Default: Off`, not `Default:; Off`;
 * 20: a record (a table's row, a CSV line, a JSON object) that ends a sentence is not ended twice (`Meaning: Any character.`, not `..`);
 * 21: a <pre> block's last line is the block's own (a prose block of three lines ending without a line break is joined);
 * 22: an HTML heading is never navigation, whatever it links to, but in a page's <nav> or role="navigation";
 * 23: a text's `#` comments join each other as prose, never a setting nor a setting commented out;
 * 24: a text FAQ's `Q:` and `A:` start items, so their wrapped lines, indented to their text, join them;
 * 25: an HTML table's row most of whose cells are links is navigation (DocBook's Prev / Up / Home / Next);
 * 42: reStructuredText's literal-block marks (`file: ::`, `file::`) read as the colon they stand for;
 * 43: a text's tables drawn with pipes and rules read a row at a time, a cell's wrapped lines joined;
 * 44: a line's section number (`2. `, `3.3.5. `) ends no sentence, so the line heads what follows; an item of a list heads nothing;
 * 45: on an HTML page that marks its tables' headers with <th>, a table's first row of data cells is a row, not its header;
 * 46: a text's settings are lines of their own, commented out or not, and a comment's mark before a tab is no term; the line under an option is its definition, never a heading;
 * 47: an option and what it does on one line (`-h Print program usage and exit`) heads nothing;
 * 48: nor does a tag of markup or of a configuration block alone on its line (`</Plugin>`);
 * 49: nor a box's title alone on its line ("Note", "Warning");
 * 50: nor a line of code with a `//` comment after it;
 * 51: a text's comments marked with ';' are comments, as those marked with '#' are, and an item
 * may be a term and a dash (`transaction  - after transaction finishes`);
 * 52: or, after a sentence's end, a term in lower case and a colon (`always: fsync after every write…`));
 * 53: a PDF's sentence that a page break cuts is whole on the page it starts on;
 * 54: a line of an example (a command with its options, an address, a PEM boundary) heads nothing;
 * a comment at a chunk's end goes on to the next whole;
 * 55: a text's paragraph filled narrower than its usual width is read whole;
 * 56: lines of three cells or more separated by tabs are a table's rows, however wide their cells;
 * 57: in HTML, a link whose text is an address is no navigation (a README's list of addresses);
 * 58: a sentence a PDF's page break cuts before a figure ("The default percentage is" / "5%.") is
 *     kept whole on the page it starts on.
 * 59: the short rest of a paragraph a PDF's page break cuts mid-sentence goes with it; an option
 *     under another option's line in a PDF starts a line of its own; a comment at a chunk's end
 *     goes on with its `#Default:` label and its empty `#` lines (all were left at 58 before).
 * 60: a line of two cells or more separated by tabs, next to a table's row and aligned with it, is a
 *     row too (/etc/services' `rsync\t\t873/tcp`).
 * 61: groff's doubled single quotes in a PDF (`‘‘connection refused’’`) are read as double quotes.
 * 65: a setting commented out (`#update_config=1`) and a comment's question head no chunk.
 * 66: a name in capitals cut at a line's end (`IRQBAL-` / `ANCE_BANNED_CPUS`) is whole again; a
 *     name's initial ("Darrick J. Wong") ends no sentence; an option's short form after a gap
 *     (`--buffer     , -b`) is the option's, and an option under another starts a line.
 * 67: a manual page's `NOTES` and `SEE ALSO` in capitals are its sections' headings, no box's titles.
 * 68: a number a sentence wraps to goes on with it ("…UDP port" / "323. You need…"), nroff's `o`
 *     bullets are items, a justified line is no term row, labels lined up in a column are rows,
 *     and a word in capitals hyphenated at a line end is whole when written whole beside it.
 * 69: JSON with comments is read, each comment above the value under it; a table drawn with
 *     box-drawing characters is read as one drawn with pipes, its header over several lines; in
 *     `--help` text an option set left of the description above it starts a line, and a colon
 *     inside a parenthesis ends none ("(default:" / "ecdsa)").
 * 70: terms and their descriptions lined up in a column (a program's subcommands) are lines of
 *     their own.
 */
export const READER_VERSION = 72;

/** The types kb serve indexes, by extension, with the MIME type a file of each is listed with. */
export const DOCUMENT_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.gif': 'image/gif',
};

/** Documents that are pictures: their text is recognised (OCR). */
export const IMAGE_EXTENSIONS = new Set(
  Object.keys(DOCUMENT_TYPES).filter((ext) => DOCUMENT_TYPES[ext]!.startsWith('image/')),
);

const OTHER_TYPES: Record<string, string> = {
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
};

export function mimeTypeFor(filename: string): string {
  const ext = extname(filename).toLowerCase();
  return DOCUMENT_TYPES[ext] ?? OTHER_TYPES[ext] ?? 'application/octet-stream';
}

/** The MIME type of a file whose text was read: one of a type kb does not know was read as text. */
export function readMimeTypeFor(filename: string): string {
  const ext = extname(filename).toLowerCase();
  return ext === '.gz' ? OTHER_TYPES[ext]! : (DOCUMENT_TYPES[ext] ?? 'text/plain');
}

export const SUPPORTED = Object.keys(DOCUMENT_TYPES).join(' ');

/** Every code a FAILED file can carry, with what it means: for help, docs and tests. */
export const FAILURE_CODES: Record<string, string> = {
  unsupported_type: 'not one of the supported types, and not text (a program, a picture, an archive)',
  empty_file: 'the file is empty',
  binary_content: 'a text type that holds binary data',
  parse_error: 'a damaged PDF, Word, JSON, CSV, gzip or image file',
  encrypted: 'a PDF protected by a password',
  no_text_layer: 'a PDF whose pages are images (scanned), with OCR off (--no-ocr)',
  no_text: 'nothing to index once the markup is removed (a scan: no text recognised)',
  too_large:
    'larger than --max-file-size, a .gz that unpacks to more than it, a Word document or .gz that unpacks to more than 256 MiB, or an image of more than 40 megapixels',
  outside_folder: 'a link in the docs folder to a file outside it',
  not_regular: 'not a regular file (a device, FIFO or socket)',
  unreadable: 'the file could not be read',
  extract_timeout: 'reading its text took longer than the limit',
  extract_crashed: 'reading its text ran out of memory or crashed',
};
