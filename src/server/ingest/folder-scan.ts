import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { IndexingError } from '../state/model.js';

/** A regular file in the docs folder. */
export interface FolderFile {
  path: string;
  /** Relative to the folder, with `/` between names: the file's name in the workspace. */
  name: string;
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** Something in the folder that is listed as a FAILED file rather than read. */
export interface RefusedEntry {
  path: string;
  name: string;
  error: IndexingError;
}

export interface FolderScan {
  /** The folder itself is gone (removed; perhaps made again later). */
  missing: boolean;
  files: FolderFile[];
  refused: RefusedEntry[];
  /** Hidden files and folders (a name starting with '.'), links within the folder, kb serve's own files. */
  skipped: number;
  /** Every folder walked, the root first: what is to be watched. */
  folders: string[];
}

/** Deeper than this is a folder nobody made by hand. */
const MAX_DEPTH = 64;
/**
 * The walk lets other work run after this many entries (a few milliseconds): at 100,000
 * documents it takes seconds, and kb serve answers meanwhile.
 */
const ENTRIES_AT_A_TIME = 500;

/**
 * Every document under `root`, walked without following links: a link whose target is outside
 * the folder is refused (`outside_folder`), one within it skipped (its target is indexed where
 * it is); FIFOs, sockets and devices are refused unopened; hidden entries and `isOwn` files are
 * skipped. `onFolder` is called with each folder before it is listed (to watch it: a change made
 * after the listing is then seen).
 */
export async function scanFolder(
  root: string,
  isOwn: (path: string) => boolean,
  onFolder: (dir: string) => void = () => {},
): Promise<FolderScan> {
  const scan: FolderScan = { missing: false, files: [], refused: [], skipped: 0, folders: [] };
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    if (!statSync(realRoot).isDirectory()) return { ...scan, missing: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...scan, missing: true };
    throw err;
  }
  const stack: [dir: string, depth: number][] = [[root, 0]];
  let looked = 0;
  while (stack.length) {
    const [dir, depth] = stack.pop()!;
    let entries: Dirent[];
    try {
      onFolder(dir);
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // Gone or unreadable since it was listed: the next scan sees.
    }
    scan.folders.push(dir);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (++looked % ENTRIES_AT_A_TIME === 0) await new Promise((resolve) => setImmediate(resolve));
      const path = join(dir, entry.name);
      const name = relative(root, path).split(sep).join('/');
      if (entry.name.startsWith('.') || isOwn(path)) {
        scan.skipped++;
        continue;
      }
      try {
        const stat = lstatSync(path);
        if (stat.isDirectory()) {
          if (depth + 1 < MAX_DEPTH) stack.push([path, depth + 1]);
          else scan.skipped++;
        } else if (stat.isFile()) {
          scan.files.push({
            path,
            name,
            size: stat.size,
            mtimeMs: stat.mtimeMs,
            dev: stat.dev,
            ino: stat.ino,
          });
        } else if (stat.isSymbolicLink()) {
          if (linksInside(path, realRoot)) scan.skipped++;
          else
            scan.refused.push({
              path,
              name,
              error: {
                code: 'outside_folder',
                message: 'a link to something outside the docs folder; links are not followed out of it',
              },
            });
        } else {
          scan.refused.push({
            path,
            name,
            error: {
              code: 'not_regular',
              message: 'not a regular file (a device, FIFO or socket); not opened',
            },
          });
        }
      } catch {
        // Vanished between listing and looking: the next scan sees.
      }
    }
  }
  return scan;
}

/** Whether a link ends inside `realRoot` (a loop or a dangling link does not). */
function linksInside(path: string, realRoot: string): boolean {
  try {
    const target = realpathSync(path);
    return target === realRoot || target.startsWith(realRoot + sep);
  } catch {
    return false;
  }
}
