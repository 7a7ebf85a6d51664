import {
  ClaimRefusedError,
  type ClaimIndex,
  type Guard,
  type HitResult,
  type Read,
  type ReadResults,
  type StoragePort,
  type Write,
} from '../port';
import { OldestFirst } from '../oldest-first';
import { FamilyMap } from './family-map';

/**
 * A list trimmed from its front in constant time (a head offset, compacted once half the array is dropped), so a
 * capped list at its cap costs the same per append as an empty one.
 */
class List {
  private items: string[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(values: string[]): void {
    for (const value of values) this.items.push(flat(value));
  }
  dropFront(count: number): string[] {
    const dropped = this.items.slice(this.head, this.head + count);
    this.head += dropped.length;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return dropped;
  }
  toArray(): string[] {
    return this.items.slice(this.head);
  }
  /** Items from index `from` (0 is the head), at most `count` of them; copies only those. */
  range(from: number, count = Infinity): string[] {
    const start = this.head + Math.max(0, Math.floor(from));
    return this.items.slice(start, start + Math.max(0, Math.floor(count)));
  }
  replace(values: string[]): void {
    this.items = values;
    this.head = 0;
  }
}

/**
 * A text as it is kept: flat. A text built by concatenation (JSON.stringify builds its result in parts) is a
 * tree of parts in V8 until something reads it whole; reading one character flattens it into one string, and
 * the next collection drops the tree: about 95 bytes less for a 170-character row.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

type Value = string | Map<string, string> | List;
type Entry = { value: Value; expiresAt?: number };

/**
 * Expired keys are also swept in bulk, so keys nobody reads again do not pile up: at most this often, and at most
 * `SWEEP_BATCH` keys (and claims) a time, going on from where the last sweep stopped. A sweep then pauses the
 * event loop as long with a million keys as with a thousand (0.3 ms or so), and goes over 100 000 keys a second.
 */
const SWEEP_EVERY_MS = 100;
const SWEEP_BATCH = 10_000;
/**
 * A pass over every key starts at most this often: a key is swept at most this long (or a pass's length, for a
 * million keys and more) after it expired. Reads never see an expired key (`live`); the sweep only frees its
 * memory. Without the pause, a store of 40 000 keys was walked whole ten times a second, for nothing most times
 * (5 % of the main thread in a soak's profile).
 */
const SWEEP_PASS_MS = 5_000;

/** The adapter's data: keys with their values and ages, and the claim indexes, on the injected clock. */
export class MemoryData {
  /** By family too, so the keys under a prefix are found without looking at every key (`deleteByPrefix`). */
  readonly entries = new FamilyMap<Entry>();
  /** Claim indexes: the claimed keys, in claim order. */
  readonly indexes = new Map<string, OldestFirst<true>>();
  private sweptAt = 0;
  /** When the last pass started (see SWEEP_PASS_MS). */
  private passAt = Number.NEGATIVE_INFINITY;
  /** The pass under way: where its next sweep goes on from, in the keys and in the claim indexes (SWEEP_BATCH). */
  #pass: { keys?: MapIterator<[string, Entry]>; indexes?: MapIterator<[string, OldestFirst<true>]> } | undefined;

  constructor(readonly now: () => number) {}

  live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores kept beside the port's entries (idempotency keys as objects), swept with them (`alsoSweep`). */
  readonly besides: ((at: number) => void)[] = [];

  sweep(): void {
    const at = this.now();
    if (at - this.sweptAt < SWEEP_EVERY_MS) return;
    for (const sweepBeside of this.besides) sweepBeside(at);
    if (this.#pass === undefined) {
      // A new pass, not before its time. A Map's iterator goes on over the keys added and skips the keys deleted
      // since it was made.
      if (at - this.passAt < SWEEP_PASS_MS) return;
      this.passAt = at;
      this.#pass = { keys: this.entries.entries(), indexes: this.indexes.entries() };
    }
    this.sweptAt = at;
    const pass = this.#pass;
    if (pass.keys !== undefined && !this.#sweepKeys(pass.keys, at)) pass.keys = undefined;
    if (pass.indexes !== undefined && !this.#sweepIndexes(pass.indexes)) pass.indexes = undefined;
    if (pass.keys === undefined && pass.indexes === undefined) this.#pass = undefined;
  }

  /** Up to SWEEP_BATCH keys of the pass: false once it has seen them all. */
  #sweepKeys(keys: MapIterator<[string, Entry]>, at: number): boolean {
    for (let left = SWEEP_BATCH; left > 0; left--) {
      const next = keys.next();
      if (next.done) return false;
      const [key, entry] = next.value;
      if (entry.expiresAt !== undefined && entry.expiresAt <= at) this.entries.delete(key);
    }
    return true;
  }

  /** Claim indexes of the pass, about SWEEP_BATCH claims: false once it has seen them all. */
  #sweepIndexes(indexes: MapIterator<[string, OldestFirst<true>]>): boolean {
    for (let left = SWEEP_BATCH; left > 0;) {
      const next = indexes.next();
      if (next.done) return false;
      const [key, claims] = next.value;
      left -= claims.size;
      for (const claimed of claims.keys()) if (!this.live(claimed)) claims.delete(claimed);
      if (claims.size === 0) this.indexes.delete(key);
    }
    return true;
  }

  stringAt(key: string): string | null {
    const value = this.live(key)?.value;
    return typeof value === 'string' ? value : null;
  }

  hashAt(key: string): Map<string, string> | undefined {
    const value = this.live(key)?.value;
    return value instanceof Map ? value : undefined;
  }

  /** The hash at `key`, made (keeping the key's age) when there is none. */
  hashFor(key: string): Map<string, string> {
    const found = this.hashAt(key);
    if (found) return found;
    const hash = new Map<string, string>();
    this.entries.set(key, { value: hash, expiresAt: this.live(key)?.expiresAt });
    return hash;
  }

  listAt(key: string): List | undefined {
    const value = this.live(key)?.value;
    return value instanceof List ? value : undefined;
  }

  /** The list at `key`, made (keeping the key's age) when there is none. */
  listFor(key: string): List {
    const found = this.listAt(key);
    if (found) return found;
    const list = new List();
    this.entries.set(key, { value: list, expiresAt: this.live(key)?.expiresAt });
    return list;
  }

  holds(guard: Guard): boolean {
    const current =
      guard.field === undefined ? this.stringAt(guard.key) : (this.hashAt(guard.key)?.get(guard.field) ?? null);
    if (guard.is === 'absent') return current === null;
    if (guard.is === 'present') return current !== null;
    return current === guard.value;
  }
}

/** Removes `values` from the first `within` items of the list at `key` (all of it by default). */
function removeFromList(data: MemoryData, key: string, values: string[], within?: number): void {
  const list = data.listAt(key);
  if (!list) return;
  const gone = new Set(values);
  const items = list.toArray();
  const head = Math.max(0, Math.min(items.length, Math.floor(within ?? items.length)));
  const kept = items.slice(0, head).filter((item) => !gone.has(item));
  if (kept.length === head) return;
  kept.push(...items.slice(head));
  if (kept.length === 0) data.entries.delete(key);
  else list.replace(kept);
}

function applyWrite(data: MemoryData, write: Write): void {
  switch (write.op) {
    case 'set': {
      const expiresAt = write.ttlMs === undefined ? undefined : data.now() + write.ttlMs;
      // A key written again keeps its entry (an idempotent answer replacing its claim): no new object to keep.
      const entry = data.entries.get(write.key);
      if (entry === undefined) data.entries.set(write.key, { value: flat(write.value), expiresAt });
      else {
        entry.value = flat(write.value);
        entry.expiresAt = expiresAt;
      }
      return;
    }
    case 'delete':
      data.entries.delete(write.key);
      data.indexes.delete(write.key);
      if (write.index !== undefined) data.indexes.get(write.index)?.delete(write.key);
      return;
    case 'hset':
      data.hashFor(write.key).set(write.field, flat(write.value));
      return;
    case 'hdelete': {
      const hash = data.hashAt(write.key);
      hash?.delete(write.field);
      if (hash?.size === 0) data.entries.delete(write.key);
      return;
    }
    case 'append': {
      const list = data.listFor(write.key);
      list.push(write.values);
      if (write.keepLast === undefined || list.length <= write.keepLast) return;
      const dropped = list.dropFront(list.length - Math.min(write.trimTo ?? write.keepLast, write.keepLast));
      const hash = write.dropFrom === undefined ? undefined : data.hashAt(write.dropFrom);
      for (const field of dropped) hash?.delete(field);
      return;
    }
    case 'remove':
      return removeFromList(data, write.key, write.values, write.within);
    case 'expire': {
      const entry = data.live(write.key);
      if (entry) entry.expiresAt = data.now() + write.ttlMs;
      return;
    }
  }
}

function readOne(data: MemoryData, read: Read): unknown {
  switch (read.op) {
    case 'get':
      return data.stringAt(read.key);
    case 'hget':
      return data.hashAt(read.key)?.get(read.field) ?? null;
    case 'hgetall':
      return Object.fromEntries(data.hashAt(read.key) ?? []);
    case 'list':
      return data.listAt(read.key)?.range(read.from ?? 0, read.first) ?? [];
    case 'length':
      return data.listAt(read.key)?.length ?? 0;
  }
}

/** Remembers a claim in its index; the oldest claims beyond the cap (or gone) are released. */
/** A refusing index at its cap refuses the claim; only then is it looked through (gone claims free their place). */
function refuseWhenFull(data: MemoryData, index: ClaimIndex): void {
  const claims = data.indexes.get(index.key);
  if (!claims || claims.size < index.cap) return;
  for (const claimed of claims.keys()) if (!data.live(claimed)) claims.delete(claimed);
  if (claims.size >= index.cap) throw new ClaimRefusedError(index);
}

function indexClaim(data: MemoryData, key: string, index: ClaimIndex): void {
  let claims = data.indexes.get(index.key);
  if (!claims) data.indexes.set(index.key, (claims = new OldestFirst()));
  claims.set(key, true);
  for (let claimed = claims.oldestKey(); claimed !== undefined; claimed = claims.oldestKey()) {
    if (claims.size <= index.cap && data.live(claimed)) break;
    claims.takeOldest();
    if (claimed !== key) data.entries.delete(claimed);
  }
}

/**
 * The embedded adapter: one process, plain maps, on the injected clock (tests move time without waiting).
 * Every operation runs to completion before the next starts (no await inside), which is what makes it atomic.
 */
export function createMemoryPort(options: { now?: () => number } = {}): StoragePort {
  const data = new MemoryData(options.now ?? Date.now);
  const { entries, indexes } = data;
  const readNow = <const R extends readonly Read[]>(reads: R) =>
    reads.map((read) => readOne(data, read)) as ReadResults<R>;
  const hitNow = (key: string, limit: number, ttlMs: number): HitResult => {
    const entry = data.live(key);
    const count = typeof entry?.value === 'string' ? Number(entry.value) : 0;
    if (count >= limit) return { count, allowed: false };
    if (entry) entry.value = String(count + 1);
    else {
      entries.set(key, { value: String(count + 1), expiresAt: data.now() + ttlMs });
      data.sweep();
    }
    return { count: count + 1, allowed: true };
  };
  const commitNow = (writes: Write[], guards: Guard[] = []): boolean => {
    for (const guard of guards) if (!data.holds(guard)) return false;
    for (const write of writes) applyWrite(data, write);
    data.sweep();
    return true;
  };
  return {
    kind: 'memory',
    alsoSweep: (sweep: (at: number) => void) => void data.besides.push(sweep),
    readNow,
    async read<const R extends readonly Read[]>(reads: R) {
      return readNow(reads);
    },
    async commit(writes: Write[], guards: Guard[] = []) {
      return commitNow(writes, guards);
    },
    commitNow,
    async hit(key: string, limit: number, ttlMs: number): Promise<HitResult> {
      return hitNow(key, limit, ttlMs);
    },
    hitNow,
    async claim(key: string, value: string, ttlMs: number, index?: ClaimIndex) {
      const existing = data.stringAt(key);
      if (existing !== null) return existing;
      if (index?.whenFull === 'refuse') refuseWhenFull(data, index);
      entries.set(key, { value, expiresAt: data.now() + ttlMs });
      if (index) indexClaim(data, key, index);
      data.sweep();
      return null;
    },
    async deleteByPrefix(prefix: string) {
      let deleted = 0;
      for (const key of entries.keysWithPrefix(prefix)) if (entries.delete(key)) deleted += 1;
      for (const key of [...indexes.keys()]) if (key.startsWith(prefix)) indexes.delete(key);
      return deleted;
    },
    async countByPrefix(prefix: string) {
      let count = 0;
      for (const key of entries.keysWithPrefix(prefix)) if (data.live(key)) count += 1;
      return count;
    },
    async close() {
      entries.clear();
      indexes.clear();
    },
  };
}
