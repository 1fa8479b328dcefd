import { endianness } from 'node:os';
import { readDerivedFile, writeDerivedFile } from '../state/derived-file.js';
import { type IndexImage, TOKENIZER_VERSION } from './chunk-index.js';

/**
 * The search indexes, stored next to --data so that a restart need not index every document
 * again: a derived file (see derived-file.ts: checked before it is trusted, rebuilt on doubt);
 * one that is outdated is used only for the files whose stamps still match.
 *
 * Body: per workspace, its chunk lengths (uint32) and postings (float64), each padded to 8
 * bytes. The header's counts must add up to the body's length exactly.
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
  await writeDerivedFile(path, MAGIC, header, parts);
}

export type IndexFileRead = { images: Map<string, IndexImage>; problem?: string };

/** The stored images, or why they cannot be used. A missing file is no images and no problem. */
export function readIndexFile(path: string): IndexFileRead {
  const images = new Map<string, IndexImage>();
  const read = readDerivedFile(path, MAGIC, MAX_BYTES);
  if (read === undefined) return { images };
  if ('problem' in read) return { images, problem: read.problem };
  try {
    const { header, body } = read;
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
