import { OldestFirst } from './oldest-first';

/**
 * A byte bound for a store the port bounds by count and age only (idempotency answers, downloads, created MCP
 * servers): per owner (a workspace, or one global owner), the keys kept, oldest first, with their sizes. Adding
 * one returns the oldest keys to release so the owner stays within `bytesPerOwner`. The ledger lives in the
 * process; with a shared store each replica bounds what it wrote.
 *
 * The ledger is a store too, bounded like the one it measures: the port drops its oldest keys beyond
 * `keysPerOwner` without telling the ledger, so the ledger forgets its own oldest beyond that count (they are
 * gone from the port already, or go with the same write). Without it, small entries (an empty export, a short
 * answer) kept hundreds of thousands of ledger keys for a budget of megabytes: more memory than what they measured.
 */
/** No key released (the usual reservation): one array shared by all, never written to. */
const NONE: readonly string[] = Object.freeze([]);

/** One owner's keys, oldest first, with their sizes, and their sum. */
type Ledger = { keys: OldestFirst<number>; bytes: number };

/**
 * What one reservation changed in its owner's ledger, to put it back should its write not happen. A class, not
 * a closure per reservation: one is made on every keyed create (its answer, and the server it created).
 */
export class Reservation {
  constructor(
    /** The keys (oldest first) to release with the write, possibly its own key. */
    readonly released: readonly string[],
    private readonly ledger: Ledger,
    private readonly key: string,
    private readonly bytes: number,
    private readonly previous: number | undefined,
    private readonly dropped: [string, number][] | undefined,
    private readonly forgotten: [string, number][] | undefined,
  ) {}

  /** Puts the ledger back as it was before (the write did not happen). */
  cancel(): void {
    const { ledger, key } = this;
    if (ledger.keys.delete(key)) ledger.bytes -= this.bytes;
    const restored = [...(this.dropped ?? []), ...(this.forgotten ?? [])].filter(([released]) => released !== key);
    if (this.previous !== undefined) restored.push([key, this.previous]);
    ledger.keys = new OldestFirst([...restored, ...ledger.keys]);
    for (const [, size] of restored) ledger.bytes += size;
  }

  /** A write's outcome: the reservation stands when it applied, and is cancelled when it did not. */
  settle(applied: boolean): void {
    if (!applied) this.cancel();
  }
}

export function createByteBudget(bytesPerOwner: number, keysPerOwner = Number.POSITIVE_INFINITY) {
  const workspaces = new Map<string, Ledger>();

  /**
   * Records `bytes` for `key`; `released` are the keys (oldest first) to release, possibly `key` itself. For a
   * write that may still fail, the releases go in the same guarded commit as the new key, and `cancel` puts the
   * ledger back when that commit does not happen.
   */
  const reserve = (workspaceUuid: string, key: string, bytes: number): Reservation => {
    let ledger = workspaces.get(workspaceUuid);
    if (!ledger) workspaces.set(workspaceUuid, (ledger = { keys: new OldestFirst(), bytes: 0 }));
    const previous = ledger.keys.get(key);
    ledger.bytes -= previous ?? 0;
    ledger.keys.set(key, bytes);
    ledger.bytes += bytes;
    const { keys } = ledger;
    let dropped: [string, number][] | undefined;
    for (let taken; ledger.bytes > bytesPerOwner && (taken = keys.takeOldest());) {
      ledger.bytes -= taken[1];
      (dropped ??= []).push(taken);
    }
    // Keys past the port's count bound: forgotten, not released (the port drops them itself).
    let forgotten: [string, number][] | undefined;
    for (let taken; keys.size > keysPerOwner && (taken = keys.takeOldest());) {
      ledger.bytes -= taken[1];
      (forgotten ??= []).push(taken);
    }
    const released = dropped === undefined ? NONE : dropped.map(([key]) => key);
    return new Reservation(released, ledger, key, bytes, previous, dropped, forgotten);
  };

  return {
    reserve,
    /** Records `bytes` for `key`; returns the keys (oldest first) to release, possibly `key` itself. */
    add(workspaceUuid: string, key: string, bytes: number): readonly string[] {
      return reserve(workspaceUuid, key, bytes).released;
    },
    remove(workspaceUuid: string, key: string): void {
      const ledger = workspaces.get(workspaceUuid);
      const size = ledger?.keys.get(key);
      if (!ledger || size === undefined) return;
      ledger.keys.delete(key);
      ledger.bytes -= size;
    },
    bytes(workspaceUuid: string): number {
      return workspaces.get(workspaceUuid)?.bytes ?? 0;
    },
    /** Forgets an owner's keys, or every owner's (their store was reset: what it measured is gone). */
    clear(workspaceUuid?: string): void {
      if (workspaceUuid === undefined) workspaces.clear();
      else workspaces.delete(workspaceUuid);
    },
  };
}

export type ByteBudget = ReturnType<typeof createByteBudget>;
