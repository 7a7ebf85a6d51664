import type { Guard, StoragePort, Write } from './port';

/** One repository's share of a joint commit. */
export type PendingPart = {
  writes: Write[];
  guards: Guard[];
  /** The same write through its own path (its own commit, seeding a workspace reset meanwhile): true if applied. */
  alone: () => Promise<boolean>;
  /** Told once whether the part was applied, by either path (a byte ledger's reservation is kept or cancelled). */
  settle?: (applied: boolean) => void;
};

/**
 * Writes that wait to go into the store with a later one: a create under an `Idempotency-Key` is committed in
 * the same guarded commit as its kept answer, so the key's answer and what it created cost one trip through the
 * port and apply together or not at all. When the joint commit's guards do not all hold (the claim released
 * meanwhile by its lease or the workspace's cap, a workspace reset), each part is applied on its own, in the
 * order a request without the joint commit would have written it: the part first, then the answer alone.
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
