import { editDistance } from './edit-distance.js';

export interface Named {
  name: string;
  aliases?: readonly string[];
}

/**
 * The name of the candidate whose name or alias is nearest to `typed` within `max` edits (the
 * first of equals), or undefined: an alias typed wrong suggests the name itself.
 */
export function closestName(typed: string, candidates: readonly Named[], max: number): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    for (const spelling of [candidate.name, ...(candidate.aliases ?? [])]) {
      const distance = editDistance(typed, spelling, max);
      if (distance <= max && (!best || distance < best.distance)) best = { name: candidate.name, distance };
    }
  }
  return best?.name;
}

/** A typo is one edit in three letters, two at most: `zz` is not `ls`, `thraeds` is `threads`. */
export function typoEdits(typed: string): number {
  return Math.min(2, Math.floor(typed.length / 3));
}
