// A removed name and an added one read as a rename only with evidence: the same shape and either the same
// `$ref` target, a similar name (`description` → `descriptionText`, `user_id` → `userId`, `adress` → `address`)
// or, for path parameters, the same place in the path. Two unrelated fields that happen to share a shape
// (`a: string` removed, `b: string` added) are a removal and an addition.

/** Words of a name: `userId`, `user_id` and `user-id` are [user, id]. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** Does `inner` occur as consecutive words of `outer`? */
function containsWords(outer: string[], inner: string[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) if (inner.every((w, k) => outer[i + k] === w)) return true;
  return false;
}

/** The same words in another spelling, one name's words inside the other's, or a typo (a quarter of the letters). */
export function similarNames(a: string, b: string): boolean {
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.length === 0 || wb.length === 0) return false;
  if (containsWords(wa, wb) || containsWords(wb, wa)) return true;
  const x = wa.join('');
  const y = wb.join('');
  return editDistance(x, y) <= Math.floor(Math.max(x.length, y.length) / 4);
}

/** Both written as the same component (`$ref` to one target). */
export function sameTarget(
  targetOf: ((node: object) => string | undefined) | undefined,
  a: unknown,
  b: unknown,
): boolean {
  if (!targetOf || typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  const ta = targetOf(a);
  return ta !== undefined && ta === targetOf(b);
}

/** Index of `{name}` among the parameters of a path template; -1 when absent. */
export function pathSlot(path: string, name: string): number {
  return [...path.matchAll(/\{([^}]*)\}/g)].findIndex((m) => m[1] === name);
}
