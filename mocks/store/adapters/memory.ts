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
    for (const value of values) this.items.push(value);
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
  replace(values: string[]): void {
    this.items = values;
    this.head = 0;
  }
}

type Value = string | Map<string, string> | List;
type Entry = { value: Value; expiresAt?: number };

/** Expired keys are also swept in bulk at most this often, so keys nobody reads again do not pile up. */
const SWEEP_EVERY_MS = 1_000;

/**
 * The embedded adapter: one process, plain maps, on the injected clock (tests move time without waiting).
 * Every operation runs to completion before the next starts (no await inside), which is what makes it atomic.
 */
export function createMemoryPort(options: { now?: () => number } = {}): StoragePort {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /** Claim indexes: claimed key → time of the claim, in claim order. */
  const indexes = new Map<string, Map<string, number>>();
  let sweptAt = 0;

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = () => {
    const at = now();
    if (at - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = at;
    for (const [key, entry] of entries) if (entry.expiresAt !== undefined && entry.expiresAt <= at) entries.delete(key);
    for (const [key, claims] of indexes) {
      for (const claimed of claims.keys()) if (!live(claimed)) claims.delete(claimed);
      if (claims.size === 0) indexes.delete(key);
    }
  };
  const stringAt = (key: string) => {
    const value = live(key)?.value;
    return typeof value === 'string' ? value : null;
  };
  const hashAt = (key: string, create: boolean) => {
    const entry = live(key);
    if (entry?.value instanceof Map) return entry.value;
    if (!create) return undefined;
    const hash = new Map<string, string>();
    entries.set(key, { value: hash, expiresAt: entry?.expiresAt });
    return hash;
  };
  const listAt = (key: string, create: boolean) => {
    const entry = live(key);
    if (entry?.value instanceof List) return entry.value;
    if (!create) return undefined;
    const list = new List();
    entries.set(key, { value: list, expiresAt: entry?.expiresAt });
    return list;
  };

  const holds = (guard: Guard): boolean => {
    const current =
      guard.field === undefined ? stringAt(guard.key) : (hashAt(guard.key, false)?.get(guard.field) ?? null);
    if (guard.is === 'absent') return current === null;
    if (guard.is === 'present') return current !== null;
    return current === guard.value;
  };

  const apply = (write: Write) => {
    switch (write.op) {
      case 'set':
        entries.set(write.key, {
          value: write.value,
          expiresAt: write.ttlMs === undefined ? undefined : now() + write.ttlMs,
        });
        return;
      case 'delete':
        entries.delete(write.key);
        indexes.delete(write.key);
        if (write.index !== undefined) indexes.get(write.index)?.delete(write.key);
        return;
      case 'hset':
        hashAt(write.key, true)!.set(write.field, write.value);
        return;
      case 'hdelete': {
        const hash = hashAt(write.key, false);
        hash?.delete(write.field);
        if (hash?.size === 0) entries.delete(write.key);
        return;
      }
      case 'append': {
        const list = listAt(write.key, true)!;
        list.push(write.values);
        if (write.keepLast !== undefined && list.length > write.keepLast) {
          const dropped = list.dropFront(list.length - write.keepLast);
          const hash = write.dropFrom === undefined ? undefined : hashAt(write.dropFrom, false);
          for (const field of hash ? dropped : []) hash!.delete(field);
        }
        return;
      }
      case 'remove': {
        const list = listAt(write.key, false);
        if (!list) return;
        const gone = new Set(write.values);
        const items = list.toArray();
        const within = Math.max(0, Math.min(items.length, Math.floor(write.within ?? items.length)));
        const kept = items.slice(0, within).filter((item) => !gone.has(item));
        if (kept.length === within) return;
        kept.push(...items.slice(within));
        if (kept.length === 0) entries.delete(write.key);
        else list.replace(kept);
        return;
      }
      case 'expire': {
        const entry = live(write.key);
        if (entry) entry.expiresAt = now() + write.ttlMs;
        return;
      }
    }
  };

  const readOne = (read: Read): unknown => {
    switch (read.op) {
      case 'get':
        return stringAt(read.key);
      case 'hget':
        return hashAt(read.key, false)?.get(read.field) ?? null;
      case 'hgetall':
        return Object.fromEntries(hashAt(read.key, false) ?? []);
      case 'list': {
        const items = listAt(read.key, false)?.toArray() ?? [];
        return read.first === undefined ? items : items.slice(0, Math.max(0, read.first));
      }
    }
  };

  return {
    kind: 'memory',
    async read<const R extends readonly Read[]>(reads: R) {
      return reads.map(readOne) as ReadResults<R>;
    },
    async commit(writes: Write[], guards: Guard[] = []) {
      if (!guards.every(holds)) return false;
      writes.forEach(apply);
      sweep();
      return true;
    },
    async hit(key: string, limit: number, ttlMs: number): Promise<HitResult> {
      const count = Number(stringAt(key) ?? 0);
      if (count >= limit) return { count, allowed: false };
      const entry = live(key);
      entries.set(key, { value: String(count + 1), expiresAt: entry?.expiresAt ?? now() + ttlMs });
      if (!entry) sweep();
      return { count: count + 1, allowed: true };
    },
    async claim(key: string, value: string, ttlMs: number, index?: ClaimIndex) {
      const existing = stringAt(key);
      if (existing !== null) return existing;
      const at = now();
      const claims = index && (indexes.get(index.key) ?? new Map<string, number>());
      if (index?.whenFull === 'refuse' && claims!.size >= index.cap) {
        // Only a full index is looked through: claims whose key expired or was deleted free their place.
        for (const claimed of claims!.keys()) if (!live(claimed)) claims!.delete(claimed);
        if (claims!.size >= index.cap) throw new ClaimRefusedError(index);
      }
      entries.set(key, { value, expiresAt: at + ttlMs });
      if (index && claims) {
        indexes.set(index.key, claims);
        claims.delete(key);
        claims.set(key, at);
        for (const claimed of claims.keys()) {
          if (claims.size <= index.cap && live(claimed)) break;
          claims.delete(claimed);
          if (claimed !== key) entries.delete(claimed);
        }
      }
      sweep();
      return null;
    },
    async deleteByPrefix(prefix: string) {
      let deleted = 0;
      for (const key of [...entries.keys()]) if (key.startsWith(prefix) && entries.delete(key)) deleted += 1;
      for (const key of [...indexes.keys()]) if (key.startsWith(prefix)) indexes.delete(key);
      return deleted;
    },
    async countByPrefix(prefix: string) {
      let count = 0;
      for (const key of entries.keys()) if (key.startsWith(prefix) && live(key)) count += 1;
      return count;
    },
    async close() {
      entries.clear();
      indexes.clear();
    },
  };
}
