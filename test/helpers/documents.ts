/**
 * Small documents made at test time, so that no fixture is downloaded: PDFs (bench/pdf.js, which
 * the bench uses too) and .docx packages from their XML.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import { tempDir } from './cli.js';

export { makePdf, scannedPage } from '../../bench/pdf.js';

const xmlEscape = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

export type DocxBlock = { heading: string } | { paragraph: string } | { table: string[][] };

/** A .docx (WordprocessingML) with headings, paragraphs and tables. */
export async function makeDocx(blocks: DocxBlock[]): Promise<Buffer> {
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if ('heading' in block)
        return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${run(block.heading)}</w:p>`;
      if ('paragraph' in block) return `<w:p>${run(block.paragraph)}</w:p>`;
      const rows = block.table
        .map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`)
        .join('');
      return `<w:tbl>${rows}</w:tbl>`;
    })
    .join('');
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  );
  zip.file(
    'word/styles.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

/**
 * A zip bomb: a .docx (makeDocx's parts, read back with jszip) whose word/document.xml unpacks to
 * `size` bytes of zeros from a few hundred kB. Its headers say it is `claims` bytes (a bomb
 * that lies), else its true size. Deflated by zlib: jszip's deflate takes 10 s for 300 MiB.
 */
export async function makeDocxBomb(size: number, claims = size): Promise<Buffer> {
  const zip = await JSZip.loadAsync(await makeDocx([{ paragraph: 'A bomb.' }]));
  const parts: { name: string; data: Buffer; size: number }[] = [];
  for (const file of Object.values(zip.files)) {
    if (file.dir) continue;
    const data = await file.async('nodebuffer');
    parts.push(
      file.name === 'word/document.xml'
        ? { name: file.name, data: Buffer.alloc(size), size: claims }
        : { name: file.name, data, size: data.length },
    );
  }
  return zipOf(parts);
}

/** A zip of deflated entries, each with the size given (CRCs left 0: readers do not check them). */
function zipOf(parts: { name: string; data: Buffer; size: number }[]): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const packed = deflateRawSync(part.data, { level: 9 });
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(part.size, 22);
    header.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(part.size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    local.push(header, name, packed);
    central.push(entry, name);
    offset += header.length + name.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, directory, end]);
}

/** A throwaway folder holding `docs/` with these files, and where `--data` would go. */
export function docsFolder(files: Record<string, string>): { dir: string; docs: string; data: string } {
  const dir = tempDir();
  const docs = join(dir, 'docs');
  mkdirSync(docs);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(docs, name)), { recursive: true });
    writeFileSync(join(docs, name), text);
  }
  return { dir, docs, data: join(dir, 'state.db') };
}

/**
 * redis.conf as Debian ships it, around appendfsync (a twenty-fifth new user's trial): its modes
 * a comment's items, each a term, a colon and what it does, far above the setting.
 */
export const REDIS_APPENDFSYNC_MODES = [
  '# Redis supports three different modes:',
  '#',
  "# no: don't fsync, just let the OS flush the data when it wants. Faster.",
  '# always: fsync after every write to the append only log. Slow, Safest.',
  '# everysec: fsync only one time every second. Compromise.',
  '#',
];

/**
 * freshclam.conf(5) as a PDF's text (a twenty-ninth new user's trial): each directive with the
 * kind of its value, its text, and its default on a line of its own.
 */
export const FRESHCLAM_CONF_DIRECTIVES = [
  'LogFileMaxSize SIZE',
  'Limit the size of the log file. The logger will be automatically disabled if the file is greater than SIZE. Value of 0 disables the limit.',
  'Default: 1M',
  'LogTime BOOL',
  'Log time with each message.',
  'Default: no',
  'LogFacility STRING',
  "Specify the type of syslog messages - please refer to 'man syslog' for facility names. Default: LOG_LOCAL6",
];
