/**
 * A map whose oldest key is found in constant time, for stores bounded by dropping their oldest entries. A plain
 * Map used that way is slow: deleting its first entries leaves holes that every new iteration from its start
 * walks over until the table is rebuilt, so finding the oldest of 10 000 keys costs about 4 µs each time. Here a
 * queue of keys beside the map remembers the order; setting a key again moves it last, as in a Map.
 */
export class OldestFirst<V> {
  /**
   * Each key's place in the queue below (its turn: the index in `#keys` plus `#base`), a small integer the map
   * keeps in its own table: a key kept costs no object of its own, so young collections have less to copy, and
   * setting, finding or dropping a key is one map operation.
   */
  readonly #turnOf = new Map<string, number>();
  /** Keys in the order they were set, with their values; a slot whose key was set again or deleted is stale. */
  #keys: (string | undefined)[] = [];
  #values: (V | undefined)[] = [];
  #head = 0;
  /**
   * The queue's end. The arrays keep the length they grew to: compacting writes the live slots to the front and
   * empties the rest, never shortening them, so a full store at its cap does not grow them again (a grown copy
   * of a queue of 10 000 keys is one more object for the young generation to copy).
   */
  #end = 0;

  constructor(entries: Iterable<[string, V]> = []) {
    for (const [key, value] of entries) this.set(key, value);
  }

  get size(): number {
    return this.#turnOf.size;
  }

  get(key: string): V | undefined {
    const turn = this.#turnOf.get(key);
    return turn === undefined ? undefined : this.#values[turn];
  }

  has(key: string): boolean {
    return this.#turnOf.has(key);
  }

  /** Sets the key's value and makes it the newest. */
  set(key: string, value: V): this {
    // Stale slots (keys set again or deleted, or passed by the head) go once they outnumber the live keys.
    if (this.#end >= 2 * this.#turnOf.size + 64) this.#compact();
    this.#turnOf.set(key, this.#end);
    if (this.#end === this.#keys.length) {
      this.#keys.push(key);
      this.#values.push(value);
    } else {
      this.#keys[this.#end] = key;
      this.#values[this.#end] = value;
    }
    this.#end += 1;
    return this;
  }

  delete(key: string): boolean {
    const turn = this.#turnOf.get(key);
    if (turn === undefined) return false;
    this.#turnOf.delete(key);
    this.#values[turn] = undefined;
    return true;
  }

  /** Forgets every key. */
  clear(): void {
    this.#turnOf.clear();
    this.#keys = [];
    this.#values = [];
    this.#head = this.#end = 0;
  }

  /** Forgets the oldest key, if any (a bounded cache making room). */
  dropOldest(): void {
    const oldest = this.oldestKey();
    if (oldest !== undefined) this.delete(oldest);
  }

  /** The oldest key (no pair made: the loops that trim a store from its front ask for it once per key). */
  oldestKey(): string | undefined {
    while (this.#head < this.#end) {
      const key = this.#keys[this.#head] as string;
      if (this.#turnOf.get(key) === this.#head) return key;
      this.#keys[this.#head] = this.#values[this.#head] = undefined;
      this.#head += 1;
    }
    return undefined;
  }

  /** Removes the oldest key and returns it with its value (what trimming a store from its front needs). */
  takeOldest(): [string, V] | undefined {
    const key = this.oldestKey();
    if (key === undefined) return undefined;
    const value = this.#values[this.#head] as V;
    this.#turnOf.delete(key);
    this.#keys[this.#head] = this.#values[this.#head] = undefined;
    this.#head += 1;
    return [key, value];
  }

  /** The oldest key and its value. */
  oldest(): [string, V] | undefined {
    const key = this.oldestKey();
    return key === undefined ? undefined : [key, this.#values[this.#head] as V];
  }

  /** Oldest first, as they are when asked (keys set or deleted meanwhile do not change what is listed). */
  entries(): IterableIterator<[string, V]> {
    const live: [string, V][] = [];
    for (let at = this.#head; at < this.#end; at++) {
      const key = this.#keys[at] as string;
      if (this.#turnOf.get(key) === at) live.push([key, this.#values[at] as V]);
    }
    return live[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    const live: string[] = [];
    for (let at = this.#head; at < this.#end; at++) {
      const key = this.#keys[at] as string;
      if (this.#turnOf.get(key) === at) live.push(key);
    }
    return live[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  /** The live slots moved to the front, in order, and every key's turn renumbered (in place: no reordering). */
  #compact(): void {
    let to = 0;
    for (let at = this.#head; at < this.#end; at++) {
      const key = this.#keys[at] as string;
      if (this.#turnOf.get(key) !== at) continue;
      this.#keys[to] = key;
      this.#values[to] = this.#values[at];
      this.#turnOf.set(key, to++);
    }
    for (let at = to; at < this.#end; at++) this.#keys[at] = this.#values[at] = undefined;
    this.#end = to;
    this.#head = 0;
  }
}
