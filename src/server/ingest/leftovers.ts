import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** siblingTempPath's random part. */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** An upload's temp in the uploads folder: what a receive cut short leaves. */
export const UPLOAD_TEMP = new RegExp(`^\\.file_[\\w-]+\\.${UUID}\\.tmp$`);

/** The temps that an earlier kb's writes of its journal, index and vectors left beside `dataFile` when killed. */
export function dataTemps(dataFile: string): RegExp {
  const name = basename(dataFile).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${name}(?:\\.index|\\.vectors)?\\.${UUID}\\.tmp$`);
}

/**
 * Removes from `dir` what a kill -9 left: entries whose names `ours` matches, and only regular
 * files (looked at without following a link; a link or folder of such a name stays). Returns
 * how many were removed.
 */
export function sweepTemps(dir: string, ours: RegExp): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let swept = 0;
  for (const name of names) {
    if (!ours.test(name)) continue;
    const path = join(dir, name);
    try {
      if (!lstatSync(path).isFile()) continue;
      unlinkSync(path);
      swept++;
    } catch {
      // gone meanwhile
    }
  }
  return swept;
}

/** The database's folder, swept of what earlier runs left beside `dataFile`. */
export function sweepDataTemps(dataFile: string): number {
  return sweepTemps(dirname(dataFile), dataTemps(dataFile));
}
