// A V8 code cache for the CLI bundle's chunks: what Node 22's module.enableCompileCache() does,
// for Node 20. Compiling the chunks (undici above all) is a large part of a command's start-up;
// with the cache, V8 reads the compiled code instead. Chunk names carry a content hash, and V8
// rejects a cache made by another V8 or under other flags, so a stale entry is never used: it
// is replaced. Entries are kept per set of V8 flags kb has set, since a command may set one
// (see v8-flags.ts) after some chunks were compiled. V8 does not check the data itself (a
// damaged entry of the right size crashes the process), so each entry carries a CRC-32.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { beforeV8FlagsChange, v8FlagsSet } from './v8-flags.js';

type Loader = (module: Module, filename: string) => void;
const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;

interface Compiled {
  script: Script;
  file: string;
}

/** `$XDG_CACHE_HOME/kb/compile-cache/<node version>-<arch>`; undefined when disabled by the environment. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // Like configDir() and stateDir() in config/paths.ts, which this entry must not load.
  const root = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(root, 'kb', 'compile-cache', `${process.version}-${process.arch}`);
}

/** How long entries of chunks that are not this kb's (another version's) are kept. */
const OTHER_ENTRY_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/**
 * Whether the cache directory is safe to load code from: owned by this user and writable by no
 * one else (XDG_CACHE_HOME may point somewhere shared, such as /tmp). True when it does not exist
 * yet: it is made with mode 0700 on the first write.
 */
function isPrivate(dir: string): boolean {
  if (process.getuid === undefined) return true; // Windows: the profile directory is the user's
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
  } catch {
    return true;
  }
}

/** An entry: the CRC-32 of the V8 data (4 bytes, little-endian), then the data. */
function encodeEntry(data: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(crc32(data));
  return Buffer.concat([header, data]);
}

/** The V8 data of an entry, or undefined when it is damaged. */
function decodeEntry(entry: Buffer): Buffer | undefined {
  if (entry.length < 4) return undefined;
  const data = entry.subarray(4);
  return crc32(data) === entry.readUInt32LE(0) ? data : undefined;
}

function cacheFile(cacheDir: string, chunk: string): string {
  const flags = v8FlagsSet();
  return join(cacheDir, `${basename(chunk)}${flags.length ? `.${flags.join('.')}` : ''}.bin`);
}

/**
 * Loads the .cjs files in `chunksDir` through V8 scripts with cached data from `cacheDir`.
 * Chunks that had no usable cache get one written when the process exits (or before kb changes
 * V8's flags), with every function compiled until then. Failures to read or write are ignored.
 */
export function enableCompileCache(chunksDir: string, cacheDir: string | undefined): void {
  // zlib's crc32 came with Node 20.15: before it, no cache.
  if (!cacheDir || typeof crc32 !== 'function' || !isPrivate(cacheDir)) return;
  const fallback = extensions['.cjs'] ?? extensions['.js']!;
  let stale: Compiled[] = [];
  const flush = () => {
    if (stale.length > 0) writeCaches(stale, cacheDir, chunksDir);
    stale = [];
  };

  extensions['.cjs'] = (module, filename) => {
    if (dirname(filename) !== chunksDir) return fallback(module, filename);
    const file = cacheFile(cacheDir, filename);
    let cachedData: Buffer | undefined;
    try {
      cachedData = decodeEntry(readFileSync(file));
    } catch {
      // first run of this chunk
    }
    // Code compiled this way cannot call import(): chunks import packages through import-package.ts.
    const script = new Script(Module.wrap(readFileSync(filename, 'utf8')), { filename, cachedData });
    if (!cachedData || script.cachedDataRejected) stale.push({ script, file });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, chunksDir);
  };
  beforeV8FlagsChange(flush);
  process.once('exit', flush);
}

function writeCaches(entries: Compiled[], cacheDir: string, chunksDir: string): void {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    if (!isPrivate(cacheDir)) return;
    for (const { script, file } of entries) {
      // Written aside and renamed, so a kb running at the same time never reads half a file.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, encodeEntry(script.createCachedData()), { mode: 0o600 });
      renameSync(partial, file);
    }
    const chunks = new Set(readdirSync(chunksDir));
    const expired = Date.now() - OTHER_ENTRY_MAX_AGE_MS;
    for (const name of readdirSync(cacheDir)) {
      const file = join(cacheDir, name);
      const current = name.endsWith('.bin') && chunks.has(name.replace(/\.cjs\..*$/, '.cjs'));
      // Entries of other kb versions, and files a crash left half-written, once 30 days old.
      if (!current && statSync(file).mtimeMs < expired) rmSync(file, { force: true });
    }
  } catch {
    // A cache that cannot be written only costs speed.
  }
}
