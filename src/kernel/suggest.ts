/**
 * The candidate closest to `word`, or null when none is close enough to be a typo of it. Case,
 * `_` and `-` are ignored (`disabledProviders` finds `disabled_providers`), and a swap of two
 * neighbouring letters counts as one edit (`modle` finds `model`).
 */
export function closestName(word: string, candidates: Iterable<string>): string | null {
  const wanted = normalize(word);
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normalize(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/** Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
