/** "Did you mean …?" for unknown keys, enum values and dangling ids. */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The candidate nearest to `word` (a third of its length in edits at most, or a prefix match). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.floor(word.length / 3));
  if (bestD <= limit) return best;
  const prefix = candidates.find((c) => c.length >= 3 && w.length >= 3 && (c.startsWith(w) || w.startsWith(c)));
  return prefix;
}

/** `did you mean "x"? ` (with the trailing space) or ''. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const c = closest(word, candidates);
  return c !== undefined && c !== word ? `did you mean "${c}"? ` : '';
}

/** A short list for hints: the first n, then "… (N more)". */
export function listSome(items: readonly string[], n = 12): string {
  if (items.length === 0) return '(none)';
  const shown = items.slice(0, n).join(', ');
  return items.length > n ? `${shown}, … (${items.length - n} more)` : shown;
}
