/** A Map that keeps at most `capacity` entries: setting a new key beyond it forgets the oldest one first. */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity ${capacity} is not a count`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Replaces an entry in place (its age is that of its first setting); a new one may push out the oldest. */
  set(key: K, value: V): void {
    if (!this.entries.has(key) && this.entries.size >= this.capacity)
      this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }
}
