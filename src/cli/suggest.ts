/** The furthest a typo may be from a name for "did you mean" to name it: two edits (`--confg`, `rnu`). */
export const MAX_SUGGESTION_DISTANCE = 2;

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known name nearest to what was typed, when it is within two edits; the first listed wins a tie,
 * so the order of `known` is the order of preference.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = MAX_SUGGESTION_DISTANCE + 1;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean X?` or nothing, to end an "unknown ..." message with. */
export function didYouMean(typed: string, known: readonly string[], quote = (s: string) => s): string {
  const suggestion = closest(typed, known);
  return suggestion === undefined ? "" : `; did you mean ${quote(suggestion)}?`;
}
