import { inflateRawSync } from 'node:zlib';

/** At most this much of one Word document's parts is unpacked (its text and styles; images are never read). */
export const DOCX_UNPACKED_LIMIT = 256 * 1024 * 1024;

/** A part would unpack past the limit: a zip bomb, or more than kb serve reads of one document. */
export class PartsTooLarge extends Error {}
/** The package is not a zip kb serve can read. */
export class DamagedPackage extends Error {}

interface Entry {
  flags: number;
  method: number;
  compressedSize: number;
  /** What the archive says it unpacks to (checked before unpacking, and not trusted while). */
  size: number;
  headerOffset: number;
}

const mib = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KiB`
      : `${Math.round(bytes / 1024 / 1024)} MiB`;

/**
 * The parts of a .docx package (a zip), unpacked one at a time when asked for, never more than
 * `limit` bytes in all: a part whose declared size passes what is left FAILs before it is
 * unpacked, and one that unpacks to more than it declared is stopped by zlib when it passes the
 * limit. jszip (mammoth's own reader) unpacks whatever an entry holds, outside the worker's heap.
 */
export class DocxParts {
  readonly #bytes: Buffer;
  readonly #entries: Map<string, Entry>;
  #left: number;

  constructor(bytes: Uint8Array, limit = DOCX_UNPACKED_LIMIT) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#entries = centralDirectory(this.#bytes);
    this.#left = limit;
    this.limit = limit;
  }

  readonly limit: number;

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The part's bytes. Throws PartsTooLarge past the limit, DamagedPackage when it cannot be read. */
  read(name: string): Buffer {
    const entry = this.#entries.get(name);
    if (!entry) throw new DamagedPackage(`it has no part ${name}`);
    if (entry.flags & 1) throw new DamagedPackage(`its part ${name} is encrypted`);
    if (entry.size > this.#left)
      throw new PartsTooLarge(
        `its part ${name} unpacks to ${mib(entry.size)}, more than the ${mib(this.limit)} kb serve reads of one Word document (a zip bomb?)`,
      );
    const data = this.#data(name, entry);
    let part: Buffer;
    if (entry.method === 0) part = data;
    else if (entry.method === 8) {
      try {
        part = inflateRawSync(data, { maxOutputLength: Math.max(1, this.#left) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          throw new PartsTooLarge(
            `its part ${name} unpacks to more than the ${mib(this.limit)} kb serve reads of one Word document, though it claims ${mib(entry.size)} (a zip bomb)`,
          );
        throw new DamagedPackage(`its part ${name} is damaged`);
      }
    } else throw new DamagedPackage(`its part ${name} is compressed with method ${entry.method}`);
    if (part.length > this.#left)
      throw new PartsTooLarge(
        `its parts unpack to more than the ${mib(this.limit)} kb serve reads of one Word document`,
      );
    this.#left -= part.length;
    return part;
  }

  /** The entry's compressed bytes, found through its local header. */
  #data(name: string, entry: Entry): Buffer {
    const bytes = this.#bytes;
    const at = entry.headerOffset;
    if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== 0x04034b50)
      throw new DamagedPackage(`its part ${name} is damaged`);
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw new DamagedPackage(`its part ${name} is cut short`);
    return bytes.subarray(start, end);
  }
}

/** The zip's central directory: every entry by name. ZIP64 (packages over 4 GiB) is not read. */
function centralDirectory(bytes: Buffer): Map<string, Entry> {
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) throw new DamagedPackage('it is not a zip package (a .docx is one)');
  const count = bytes.readUInt16LE(end + 10);
  const size = bytes.readUInt32LE(end + 12);
  const offset = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new DamagedPackage('it is a ZIP64 package');
  if (offset + size > end) throw new DamagedPackage('its table of contents is damaged');
  const entries = new Map<string, Entry>();
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== 0x02014b50)
      throw new DamagedPackage('its table of contents is damaged');
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry: Entry = {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      headerOffset: bytes.readUInt32LE(at + 42),
    };
    if ([entry.compressedSize, entry.size, entry.headerOffset].includes(0xffffffff))
      throw new DamagedPackage('it is a ZIP64 package');
    entries.set(bytes.toString('utf8', at + 46, at + 46 + nameLength), entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}
