import type { CommitsNow, Guard, StoragePort, Write } from './port';

/** One try of a part in a joint commit: its writes and guards, told whether that try applied them. */
export type PartTry = { writes: Write[]; guards: Guard[]; settle?(applied: boolean): void };

/**
 * A try that reserved bytes in a ledger for its writes: the reservation stands if the try applied, and is
 * cancelled if it did not. A class, so a keyed create makes no closure per try.
 */
export class ReservedTry implements PartTry {
  constructor(
    readonly writes: Write[],
    readonly guards: Guard[],
    private readonly reservation: { settle(applied: boolean): void },
  ) {}

  settle(applied: boolean): void {
    this.reservation.settle(applied);
  }
}

/** One repository's share of a joint commit. */
export type PendingPart = {
  /**
   * The part's writes for one try of the joint commit, made just before it is sent: a byte ledger reserves then,
   * so its order is the order commits land in (a reservation made when the request ran, committed later, let
   * later requests release what it had not written yet and then wrote it past the bound).
   */
  take(): PartTry;
  /** The same write through its own path (its own commit, seeding a workspace reset meanwhile): true if applied. */
  alone(): Promise<boolean>;
  /** Makes the part's own guards hold again where they can (a workspace reset meanwhile is seeded again). */
  ready(): Promise<unknown>;
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

  /**
   * `first` (the answer) and the parts after it, under every guard, in one commit: false (nothing applied) when
   * one fails. The parts are taken in the same turn as the commit is sent, so nothing else reserves in between;
   * each try is told whether it applied.
   */
  async commitWith(port: StoragePort, first: PartTry): Promise<boolean> {
    const tries = this.#take(first);
    let applied = false;
    try {
      applied = await port.commit(tries.writes, tries.guards);
    } finally {
      this.#settle(tries.each, applied);
    }
    return applied;
  }

  /**
   * The parts under their guards in one commit applied at once (a port in this process): false (nothing
   * applied) when a guard does not hold. Whoever keeps the answer does so in the same turn, so the two land
   * together.
   */
  commitNow(port: CommitsNow): boolean {
    const tries = this.#take();
    let applied = false;
    try {
      applied = port.commitNow(tries.writes, tries.guards);
    } finally {
      this.#settle(tries.each, applied);
    }
    return applied;
  }

  /** Each part's try (after `first`), made in the turn the commit is sent, and their writes and guards joined. */
  #take(first?: PartTry): { each: PartTry[]; writes: Write[]; guards: Guard[] } {
    const each = first ? [first] : [];
    for (const part of this.#parts) each.push(part.take());
    const writes: Write[] = [];
    const guards: Guard[] = [];
    for (const one of each) {
      for (const write of one.writes) writes.push(write);
      for (const guard of one.guards) guards.push(guard);
    }
    return { each, writes, guards };
  }

  /** Tells each try whether it applied; the parts are done once they have. */
  #settle(each: PartTry[], applied: boolean): void {
    for (const one of each) one.settle?.(applied);
    if (applied) this.#parts = [];
  }

  /** Has every part make its own guards hold again (before the joint commit is tried once more). */
  async ready(): Promise<void> {
    for (const part of this.#parts) await part.ready();
  }

  /** Applies each part on its own, in order (after a joint commit that did not happen). */
  async applyAlone(): Promise<void> {
    const parts = this.#parts;
    this.#parts = [];
    for (const part of parts) await part.alone();
  }

  /** Applies nothing: the request failed before its parts were committed (nothing of theirs is reserved). */
  drop(): void {
    this.#parts = [];
  }
}
