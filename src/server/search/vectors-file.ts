import { endianness } from 'node:os';
import { readDerivedFile, writeDerivedFile } from '../state/derived-file.js';
import type { VectorImage } from './vector-index.js';

/**
 * The chunk vectors, stored next to --data (`<data>.vectors`) so that a restart need not embed
 * every document again: a derived file under the same rules as the search index (checked before
 * it is trusted, rebuilt on doubt). Vectors of another model are not used.
 *
 * Body: per workspace, its vectors (float32), one after another. The header's counts must add
 * up to the body's length exactly.
 */
const MAGIC = 'kb-vectors 1\n';
const MAX_BYTES = 4 * 1024 ** 3;

interface Section {
  workspaceId: string;
  files: VectorImage['files'];
  dimensions: number;
}

interface Header {
  model: string;
  endianness: string;
  sections: Section[];
}

export function vectorsFileFor(dataFile: string): string {
  return `${dataFile}.vectors`;
}

export async function writeVectorsFile(
  path: string,
  model: string,
  images: Map<string, VectorImage>,
): Promise<void> {
  const sections: Section[] = [];
  const parts: Uint8Array[] = [];
  for (const [workspaceId, image] of images) {
    sections.push({ workspaceId, files: image.files, dimensions: image.dimensions });
    parts.push(new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength));
  }
  const header: Header = { model, endianness: endianness(), sections };
  await writeDerivedFile(path, MAGIC, header, parts);
}

export type VectorsFileRead = { images: Map<string, VectorImage>; problem?: string };

/** The stored vectors of `model`, or why they cannot be used. A missing file is no vectors and no problem. */
export function readVectorsFile(path: string, model: string): VectorsFileRead {
  const images = new Map<string, VectorImage>();
  const read = readDerivedFile(path, MAGIC, MAX_BYTES);
  if (read === undefined) return { images };
  if ('problem' in read) return { images, problem: read.problem };
  const problem = checkHeader(read.header, read.body.length, model);
  if (problem) return { images, problem };
  let at = 0;
  for (const section of (read.header as Header).sections) {
    const count = section.files.reduce((sum, [, , n]) => sum + n, 0) * section.dimensions;
    // A copy, so that the floats are aligned whatever the buffer's offset.
    const data = new Float32Array(count);
    new Uint8Array(data.buffer).set(read.body.subarray(at, at + count * 4));
    at += count * 4;
    images.set(section.workspaceId, { files: section.files, dimensions: section.dimensions, data });
  }
  return { images };
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function checkHeader(header: unknown, bodyLength: number, model: string): string | undefined {
  if (typeof header !== 'object' || header === null) return 'the header is not an object';
  const h = header as Partial<Header>;
  if (h.model !== model) return `made with another model (${String(h.model)})`;
  if (h.endianness !== endianness()) return 'made on a machine of another byte order';
  if (!Array.isArray(h.sections)) return 'the header has no sections';
  let expected = 0;
  for (const section of h.sections as unknown[]) {
    const s = section as Partial<Section>;
    if (
      typeof s?.workspaceId !== 'string' ||
      !isCount(s.dimensions) ||
      s.dimensions === 0 ||
      !Array.isArray(s.files)
    )
      return 'a bad section';
    for (const f of s.files as unknown[])
      if (!Array.isArray(f) || typeof f[0] !== 'string' || typeof f[1] !== 'string' || !isCount(f[2]))
        return 'a bad file entry';
    expected += s.files.reduce((sum, f) => sum + f[2], 0) * s.dimensions * 4;
    if (expected > bodyLength) return 'truncated';
  }
  return expected === bodyLength ? undefined : 'truncated';
}
