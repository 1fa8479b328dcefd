import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import { siblingTempPath } from '../util/temp-path.js';
import { type IndexImage, TOKENIZER_VERSION } from './search.js';

/**
 * The search indexes, stored next to --data so that a restart need not index every document
 * again. The file is derived state: the journal stays the truth. Anything wrong with it (a
 * link, a FIFO, another user's file, a damaged or foreign one, counts that do not add up) means
 * it is not read and the indexes are rebuilt from the journal; one that is outdated is used
 * only for the files whose stamps still match.
 *
 * Layout: a line `kb-index <format>`, a line with the SHA-256 (hex) of everything after it, a
 * line of JSON (the header), then the binary body: per workspace, its chunk lengths (uint32)
 * and postings (float64), each padded to 8 bytes. The header's counts must add up to the
 * body's length exactly.
 */
const FORMAT = 2;
const MAGIC = `kb-index ${FORMAT}\n`;
/** Larger than any index kb serve writes (20,000 documents take ~60 MB): refused before reading. */
const MAX_BYTES = 2 * 1024 ** 3;

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
  sections: Section[];
}

export function indexFileFor(dataFile: string): string {
  return `${dataFile}.index`;
}

const padded = (bytes: number) => Math.ceil(bytes / 8) * 8;

/**
 * Writes the images atomically (a new file, written whole and fsynced, then renamed), 0600 like
 * the journal. The writing happens off the event loop: the images are copies, so the indexes
 * may change meanwhile. A short write (a full disk) leaves the old file in place.
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
  const header: Header = { tokenizer: TOKENIZER_VERSION, endianness: endianness(), sections };
  const headerLine = Buffer.from(`${JSON.stringify(header)}\n`);
  const hash = createHash('sha256').update(headerLine);
  for (const part of parts) hash.update(part);
  const head = Buffer.from(`${MAGIC}${hash.digest('hex')}\n`);
  const all = [head, headerLine, ...parts];
  const total = all.reduce((sum, part) => sum + part.byteLength, 0);
  // A name no one can have planted (exclusive create never follows a link), in the same directory.
  const tmp = siblingTempPath(path);
  const file = await open(tmp, 'wx', 0o600);
  try {
    let written = 0;
    while (written < total) {
      const { bytesWritten } = await file.writev(remaining(all, written));
      if (bytesWritten === 0) throw new Error('the disk took no more bytes');
      written += bytesWritten;
    }
    await file.sync();
    await file.close();
    await rename(tmp, path);
  } catch (err) {
    await file.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** The parts from byte `offset` of them on. */
function remaining(parts: Uint8Array[], offset: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  for (const part of parts) {
    if (offset >= part.byteLength) offset -= part.byteLength;
    else {
      rest.push(offset ? part.subarray(offset) : part);
      offset = 0;
    }
  }
  return rest;
}

export type IndexFileRead = { images: Map<string, IndexImage>; problem?: string };

/** The stored images, or why they cannot be used. A missing file is no images and no problem. */
export function readIndexFile(path: string): IndexFileRead {
  const images = new Map<string, IndexImage>();
  let data: Buffer;
  try {
    const read = readOwnFile(path);
    if (read === undefined) return { images };
    if (typeof read === 'string') return { images, problem: read };
    data = read;
  } catch (err) {
    return {
      images,
      problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    };
  }
  try {
    if (data.subarray(0, MAGIC.length).toString() !== MAGIC)
      return { images, problem: 'not an index file of this version' };
    const hashEnd = MAGIC.length + 65;
    if (data[hashEnd - 1] !== 10) return { images, problem: 'no checksum' };
    const sum = data.subarray(MAGIC.length, hashEnd - 1).toString();
    const rest = data.subarray(hashEnd);
    if (createHash('sha256').update(rest).digest('hex') !== sum)
      return { images, problem: 'checksum mismatch' };
    const end = rest.indexOf(10);
    if (end < 0) return { images, problem: 'no header' };
    const header = JSON.parse(rest.subarray(0, end).toString()) as unknown;
    const body = rest.subarray(end + 1);
    const problem = checkHeader(header, body.length);
    if (problem) return { images, problem };
    const { sections } = header as Header;
    let at = 0;
    for (const section of sections) {
      const lengthBytes = section.chunks * 4;
      const postingBytes = section.postings * 8;
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

/**
 * The file's bytes, if it is a regular file of this user's that no one else may write, not
 * reached through a link, and not larger than any index; else why not, or undefined when there
 * is none. Opened without waiting (a FIFO) and without following a link (/dev/zero).
 */
function readOwnFile(path: string): Buffer | string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return 'a link, not a file: not followed';
    throw err;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not a regular file';
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
      return 'owned by another user: not trusted';
    if (stat.mode & 0o022) return 'writable by other users: not trusted';
    if (stat.size > MAX_BYTES) return `${stat.size} bytes, larger than any index`;
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** Why the header cannot describe a body of `bodyLength` bytes, checked before anything is allocated. */
function checkHeader(header: unknown, bodyLength: number): string | undefined {
  if (typeof header !== 'object' || header === null) return 'the header is not an object';
  const { tokenizer, endianness: order, sections } = header as Partial<Header>;
  if (tokenizer !== TOKENIZER_VERSION) return 'made by another version of the tokenizer';
  if (order !== endianness()) return 'made on a machine of another byte order';
  if (!Array.isArray(sections)) return 'the header has no sections';
  let expected = 0;
  for (const section of sections as unknown[]) {
    const s = section as Partial<Section>;
    if (typeof s?.workspaceId !== 'string' || !isCount(s.chunks) || !isCount(s.postings))
      return 'a section with bad counts';
    if (!Array.isArray(s.files) || !Array.isArray(s.terms)) return 'a section without files or terms';
    let chunks = 0;
    for (const f of s.files as unknown[]) {
      if (!Array.isArray(f) || typeof f[0] !== 'string' || typeof f[1] !== 'string' || !isCount(f[2]))
        return 'a bad file entry';
      chunks += f[2];
    }
    let postings = 0;
    for (const t of s.terms as unknown[]) {
      if (!Array.isArray(t) || typeof t[0] !== 'string' || !isCount(t[1])) return 'a bad term entry';
      postings += t[1];
    }
    if (chunks !== s.chunks || postings !== s.postings) return 'counts that do not add up';
    expected += padded(s.chunks * 4) + s.postings * 8;
    if (expected > bodyLength) return 'truncated';
  }
  if (expected !== bodyLength) return 'truncated';
  return undefined;
}

function view(array: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
