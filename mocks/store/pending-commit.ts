import type { Guard, StoragePort, Write } from './port';

/** One repository's share of a joint commit. */
export type PendingPart = {
  writes: Write[];
  guards: Guard[];
  /** The same write through its own path (its own commit, seeding a workspace reset meanwhile): true if applied. */
  alone: () => Promise<boolean>;
  /** Makes the part's own guards hold again where they can (a workspace reset meanwhile is seeded again). */
  ready: () => Promise<unknown>;
  /** Told once whether the part was applied, by either path (a byte ledger's reservation is kept or cancelled). */
  settle?: (applied: boolean) => void;
};

/**
 * Writes that wait to go into the store with a later one: a create under an `Idempotency-Key` is committed in
 * the same guarded commit as its kept answer, so the key's answer and what it created cost one trip through the
 * port and apply together or not at all. When the joint commit's guards do not all hold, the one that keeps the
 * answer decides: it takes its key again (released meanwhile by its lease, the workspace's cap or a reset), has
 * the parts make their own guards hold (`ready`) and commits again, or drops the parts when the key is another
 * request's now. Only a key past its age applies the parts on their own (`applyAlone`): no answer is kept then.
 */
export class PendingCommit {
  #parts: PendingPart[] = [];

  get empty(): boolean {
    return this.#parts.length === 0;
  }

  add(part: PendingPart): void {
    this.#parts.push(part);
  }

  /** The parts' writes after `writes`, under every guard, in one commit: false (nothing applied) when one fails. */
  async commitWith(port: StoragePort, writes: Write[], guards: Guard[]): Promise<boolean> {
    const parts = this.#parts;
    const all = [...writes];
    const every = [...guards];
    for (const part of parts) {
      for (const write of part.writes) all.push(write);
      for (const guard of part.guards) every.push(guard);
    }
    if (!(await port.commit(all, every))) return false;
    this.#settle(true);
    return true;
  }

  /** Has every part make its own guards hold again (before the joint commit is tried once more). */
  async ready(): Promise<void> {
    for (const part of this.#parts) await part.ready();
  }

  /** Applies each part on its own, in order (after a joint commit that did not happen). */
  async applyAlone(): Promise<void> {
    const parts = this.#parts;
    this.#parts = [];
    for (const [i, part] of parts.entries()) {
      let applied;
      try {
        applied = await part.alone();
      } catch (error) {
        for (const unapplied of parts.slice(i)) unapplied.settle?.(false);
        throw error;
      }
      part.settle?.(applied);
    }
  }

  /** Applies nothing: the request failed before its parts were committed. */
  drop(): void {
    this.#settle(false);
  }

  #settle(applied: boolean): void {
    const parts = this.#parts;
    this.#parts = [];
    for (const part of parts) part.settle?.(applied);
  }
}
