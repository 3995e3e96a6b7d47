/** "Did you mean": the allowed word nearest a typo, by edit distance. Pure. */

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: optimal string alignment distance. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const up = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
      // A swap of two neighbours (`requets`, `expcet`) is one slip of the fingers, not two.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? Math.max(a.length, b.length);
}

/**
 * The allowed word a typo most likely meant: the nearest within a third of its length (at least 1,
 * at most 3 edits), the first listed on a tie; undefined when nothing is that near.
 */
export function suggest(word: string, allowed: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { word: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word;
}

/** ` (did you mean 'request'?)`, or nothing. */
export function didYouMean(word: string, allowed: readonly string[]): string {
  const near = suggest(word, allowed);
  return near === undefined ? '' : ` (did you mean '${near}'?)`;
}
