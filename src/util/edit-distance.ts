/**
 * The edit distance between `a` and `b` counting single-character insertions, deletions,
 * substitutions and swaps of two adjacent characters (the optimal string alignment distance: a
 * typo's swapped letters are one edit, as a person counts them), or `max + 1` as soon as it is
 * known to be larger than `max`, so that a bound makes a long comparison cheap.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] | undefined;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previousSmallest = 0;
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (before && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      row.push(value);
      smallest = Math.min(smallest, value);
    }
    // A swap reaches back two rows: the bound is known only once both are past it.
    if (smallest > max && previousSmallest + 1 > max) return max + 1;
    before = previous;
    previous = row;
    previousSmallest = smallest;
  }
  return previous[b.length]!;
}

/** Whether `a` becomes `b` with at most `max` single-character edits (a swap of two is one). */
export function withinEdits(a: string, b: string, max: number): boolean {
  return editDistance(a, b, max) <= max;
}
