/** A small seeded PRNG (mulberry32): the same MOCK_SEED gives the same data on every machine. */
export function createPrng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  const word = () =>
    Math.floor(next() * 4294967296)
      .toString(16)
      .padStart(8, '0');
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    bool: (probability = 0.5) => next() < probability,
    /** A version-4 UUID with an RFC variant, inside the contract's UUID rule. */
    uuid: () => {
      const a = word();
      const b = word();
      const c = word();
      const d = word();
      return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${'89ab'[int(4)]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
    },
  };
}

export type Prng = ReturnType<typeof createPrng>;

/** FNV-1a: mixes the seed with a workspace uuid so each workspace gets its own stream. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
