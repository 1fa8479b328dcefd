/**
 * The Levenshtein distance between `a` and `b` (single-character insertions, deletions and
 * substitutions), or `max + 1` as soon as it is known to be larger than `max` (a row with no
 * value within it), so that a bound makes a long comparison cheap.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      smallest = Math.min(smallest, value);
    }
    if (smallest > max) return max + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/** Whether `a` becomes `b` with at most `max` single-character edits. */
export function withinEdits(a: string, b: string, max: number): boolean {
  return editDistance(a, b, max) <= max;
}
