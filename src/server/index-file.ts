import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import { siblingTempPath } from '../util/temp-path.js';
import { type IndexImage, TOKENIZER_VERSION } from './search.js';

/**
 * The search indexes, stored next to --data so that a restart need not index every document
 * again. The file is derived state: the journal stays the truth. A file that is damaged, from
 * another version or another byte order is not read (the indexes are rebuilt from the journal),
 * and one that is outdated is used only for the files whose stamps still match.
 *
 * Layout: a line `kb-index <format>`, a line of JSON (the header), then the binary body: per
 * workspace, its chunk lengths (uint32) and postings (float64), each padded to 8 bytes.
 */
const FORMAT = 1;
const MAGIC = `kb-index ${FORMAT}\n`;

interface Section {
  workspaceId: string;
  files: IndexImage['files'];
  terms: IndexImage['terms'];
  chunks: number;
  postings: number;
}

interface Header {
  tokenizer: number;
  endianness: string;
  sha256: string;
  sections: Section[];
}

export function indexFileFor(dataFile: string): string {
  return `${dataFile}.index`;
}

const padded = (bytes: number) => Math.ceil(bytes / 8) * 8;

/**
 * Writes the images atomically (a new file, then rename), 0600 like the journal. The writing
 * happens off the event loop: the images are copies, so the indexes may change meanwhile.
 */
export async function writeIndexFile(path: string, images: Map<string, IndexImage>): Promise<void> {
  const sections: Section[] = [];
  const parts: Uint8Array[] = [];
  for (const [workspaceId, image] of images) {
    sections.push({
      workspaceId,
      files: image.files,
      terms: image.terms,
      chunks: image.lengths.length,
      postings: image.postings.length,
    });
    parts.push(
      view(image.lengths),
      new Uint8Array(padded(image.lengths.byteLength) - image.lengths.byteLength),
    );
    parts.push(view(image.postings));
  }
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  const header: Header = {
    tokenizer: TOKENIZER_VERSION,
    endianness: endianness(),
    sha256: hash.digest('hex'),
    sections,
  };
  const head = Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`);
  // A name no one can have planted (exclusive create never follows a link), in the same directory.
  const tmp = siblingTempPath(path);
  const file = await open(tmp, 'wx', 0o600);
  try {
    await file.writev([head, ...parts]);
    await file.sync();
    await file.close();
    await rename(tmp, path);
  } catch (err) {
    await file.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** The stored images, or why they cannot be used. A missing file is no images and no problem. */
export function readIndexFile(path: string): { images: Map<string, IndexImage>; problem?: string } {
  const images = new Map<string, IndexImage>();
  if (!existsSync(path)) return { images };
  try {
    const data = readFileSync(path);
    if (data.subarray(0, MAGIC.length).toString() !== MAGIC)
      return { images, problem: 'not an index file of this version' };
    const end = data.indexOf(10, MAGIC.length);
    if (end < 0) return { images, problem: 'no header' };
    const header = JSON.parse(data.subarray(MAGIC.length, end).toString()) as Header;
    if (header.tokenizer !== TOKENIZER_VERSION)
      return { images, problem: 'made by another version of the tokenizer' };
    if (header.endianness !== endianness())
      return { images, problem: 'made on a machine of another byte order' };
    const body = data.subarray(end + 1);
    if (createHash('sha256').update(body).digest('hex') !== header.sha256)
      return { images, problem: 'checksum mismatch' };
    let at = 0;
    for (const section of header.sections) {
      const lengthBytes = section.chunks * 4;
      const postingBytes = section.postings * 8;
      if (at + padded(lengthBytes) + postingBytes > body.length)
        return { images: new Map(), problem: 'truncated' };
      // Copies, so that the typed arrays are aligned whatever the buffer's offset.
      const lengths = new Uint32Array(section.chunks);
      view(lengths).set(body.subarray(at, at + lengthBytes));
      at += padded(lengthBytes);
      const postings = new Float64Array(section.postings);
      view(postings).set(body.subarray(at, at + postingBytes));
      at += postingBytes;
      images.set(section.workspaceId, { files: section.files, terms: section.terms, lengths, postings });
    }
    return { images };
  } catch (err) {
    return { images: new Map(), problem: (err as Error).message };
  }
}

function view(array: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
