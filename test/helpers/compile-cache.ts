import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Module } from 'node:module';
import { join } from 'node:path';
import { compileFunction, Script } from 'node:vm';
import { crc32 } from 'node:zlib';

/** Node's own compile cache (Node 22), which kb uses where it exists; kb's own is for Node 20. */
export const NODE_CACHE =
  typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** kb's cache directory under XDG_CACHE_HOME, and every file below it with its modification time. */
export function cacheEntries(xdg: string): { dir: string; files: Map<string, number> } {
  const root = join(xdg, 'kb', 'compile-cache');
  const [version] = readdirSync(root);
  const dir = join(root, version!);
  const names = readdirSync(dir, { recursive: true }) as string[];
  const files = new Map(
    names
      .filter((name) => statSync(join(dir, name)).isFile())
      .map((name) => [name, statSync(join(dir, name)).mtimeMs]),
  );
  return { dir, files };
}

/** Source of the same length as `chunk`'s whose code writes `marker` when kb runs it. */
function swapped(chunk: string, marker: string): string {
  const source = readFileSync(chunk, 'utf8');
  const evil = `if (process.env.KB_TRACE_FILE !== 'compiling') require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');`;
  const padded = `${evil}/*${' '.repeat(source.length - evil.length - 4)}*/`;
  if (padded.length !== source.length) throw new Error('could not pad the swapped code');
  return padded;
}

/**
 * A cache entry for `chunk` whose code was swapped: same length (all V8 checks), but it writes
 * `marker` when run by kb. In kb's format (CRC-32, then V8's data), or, given `genuine` (the
 * entry Node wrote for the chunk), in Node's: its header with the data's size and hash redone,
 * since Node's hashes are of the genuine source, which anyone can read, and of the data.
 */
export function poisonedEntry(chunk: string, marker: string, genuine?: Buffer): Buffer {
  const code = swapped(chunk, marker);
  let data: Buffer;
  if (genuine) {
    const params = ['exports', 'require', 'module', '__filename', '__dirname'];
    data = compileFunction(code, params, { filename: chunk, produceCachedData: true }).cachedData!;
    const header = Buffer.from(genuine.subarray(0, 20));
    header.writeUInt32LE(data.length, 8);
    header.writeUInt32LE(crc32(data), 16);
    return Buffer.concat([header, data]);
  }
  const script = new Script(Module.wrap(code), { filename: chunk });
  // Run once (without writing the marker) so the function body is compiled into the cache.
  const saved = process.env.KB_TRACE_FILE;
  process.env.KB_TRACE_FILE = 'compiling';
  (script.runInThisContext() as () => void)();
  process.env.KB_TRACE_FILE = saved;
  data = script.createCachedData();
  const header = Buffer.alloc(4);
  header.writeUInt32LE(crc32(data));
  return Buffer.concat([header, data]);
}

/** The file of Node's cache (under `dir`) that holds `chunk`'s entry: its header names the source's CRC-32. */
export function nodeEntryFor(dir: string, chunk: string): string | undefined {
  const code = crc32(readFileSync(chunk));
  return [...cacheEntriesIn(dir)].find((file) => readFileSync(file).readUInt32LE(12) === code);
}

function cacheEntriesIn(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile());
}
