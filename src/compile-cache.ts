// A V8 code cache for the CLI bundle's chunks. Where Node has its own (module.enableCompileCache,
// Node 22), that one is used, in a directory kb trusts; this is what it does, for Node 20. Compiling the chunks (undici above all) is a large part of a command's start-up;
// with the cache, V8 reads the compiled code instead. Chunk names carry a content hash, and V8
// rejects a cache made by another V8 or under other flags, so a stale entry is never used: it
// is replaced. Entries are kept per set of V8 flags kb has set, since a command may set one
// (see v8-flags.ts) after some chunks were compiled. V8 does not check the data itself (a
// damaged entry of the right size crashes the process), so each entry carries a CRC-32.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
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

/** Owned by this user or root. */
function ours(stat: Stats): boolean {
  return stat.uid === process.getuid!() || stat.uid === 0;
}

/**
 * The cache directory's real path when code may be loaded from it, else undefined. V8 checks
 * only a cache's length and flags, so whoever can write an entry can run code in kb: the
 * directory and every directory above it must be owned by this user or root, and writable by
 * no one else (a shared one such as /tmp counts only with its sticky bit, owned by root or this
 * user, so no one else can move what is inside). XDG_CACHE_HOME may point anywhere. A missing
 * directory is not trusted; kb creates it (0700) before writing and checks again.
 */
function trustedDir(dir: string): string | undefined {
  if (process.getuid === undefined) return dir; // Windows: the profile directory is the user's
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return undefined;
  }
  for (let current = real, own = true; ; own = false) {
    let stat: Stats;
    try {
      stat = lstatSync(current);
    } catch {
      return undefined;
    }
    if (!stat.isDirectory() || !ours(stat)) return undefined;
    const shared = (stat.mode & 0o022) !== 0;
    if (shared && (own || (stat.mode & 0o1000) === 0)) return undefined;
    const parent = dirname(current);
    if (parent === current) return real;
    current = parent;
  }
}

/**
 * `dir`, made private (0700) where missing, when its deepest existing folder is one kb trusts;
 * then its real path if trusted. A folder kb does not trust is never written into, not even to
 * make a directory.
 */
function makeTrustedDir(dir: string): string | undefined {
  let existing = dir;
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return undefined;
    existing = parent;
  }
  if (existing !== dir && !trustedDir(existing)) return undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined; // a cache that cannot be made only costs speed
  }
  return trustedDir(dir);
}

/** An entry's bytes, read through a descriptor that is checked like the directory: never a link, ours, private. */
function readEntry(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || !ours(stat) || (stat.mode & 0o022) !== 0) return undefined;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
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
export function enableCompileCache(chunksDir: string, configuredDir: string | undefined): void {
  if (!configuredDir) return;
  if (typeof builtin.enableCompileCache === 'function') return enableBuiltinCache(configuredDir);
  // zlib's crc32 came with Node 20.15: before it, no cache.
  if (typeof crc32 !== 'function') return;
  // Entries are read only from a trusted directory; a missing one is made, and checked, at exit.
  const trusted = trustedDir(configuredDir);
  const cacheDir = trusted ?? configuredDir;
  const fallback = extensions['.cjs'] ?? extensions['.js']!;
  let stale: Compiled[] = [];
  const flush = () => {
    if (stale.length > 0) writeCaches(stale, cacheDir, chunksDir);
    stale = [];
  };

  extensions['.cjs'] = (module, filename) => {
    if (dirname(filename) !== chunksDir) return fallback(module, filename);
    const file = cacheFile(cacheDir, filename);
    const entry = trusted ? readEntry(file) : undefined;
    const cachedData = entry && decodeEntry(entry);
    // Code compiled this way cannot call import(): chunks import packages through import-package.ts.
    const script = new Script(Module.wrap(readFileSync(filename, 'utf8')), { filename, cachedData });
    if (!cachedData || script.cachedDataRejected) stale.push({ script, file });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, chunksDir);
  };
  beforeV8FlagsChange(flush);
  process.once('exit', flush);
}

const builtin = Module as unknown as { enableCompileCache?: (dir: string) => unknown };

/**
 * Node's own compile cache (Node 22): it checks each entry against hashes of the source and of
 * the data, keeps entries valid across the V8 flag kb sets, and covers every module, packages
 * too. kb still picks the directory, and only one it trusts (made private when missing): V8
 * runs what an entry holds, and Node's checks are hashes anyone can compute.
 */
function enableBuiltinCache(configuredDir: string): void {
  const trusted = makeTrustedDir(configuredDir);
  if (trusted) builtin.enableCompileCache!(trusted);
}

function writeCaches(entries: Compiled[], configuredDir: string, chunksDir: string): void {
  try {
    // A directory kb does not own is never written either.
    const cacheDir = makeTrustedDir(configuredDir);
    if (!cacheDir) return;
    for (const { script, file: configuredFile } of entries) {
      const file = join(cacheDir, basename(configuredFile));
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
