import { markerKey, workspaceKey } from '../keys';
import type { StoragePort, Write } from '../port';
import { OldestFirst } from '../oldest-first';

/** How often one process looks, per workspace, for created runs and batches past their age (at most). */
const EXPIRY_CHECK_EVERY_MS = 1_000;
/** Created runs (and batches) looked at per removal step at most: the head of the created list, oldest first. */
const EXPIRY_WINDOW_MAX = 512;
/** Runs and batches removed by one check at most; the rest go at the next request (checked again at once). */
const EXPIRY_BUDGET = 5_000;
/** Workspaces whose next age check this process remembers; beyond, the oldest are forgotten (checked sooner). */
const EXPIRY_WORKSPACES_KEPT = 10_000;

/**
 * The age bound of created runs and batches: at most once a second per workspace (on the request that finds it
 * due, which waits for it, so no run past its age is served after the check), the oldest created runs and
 * batches are read at the head of their created lists, and those past `runTtlMs` are removed.
 */
export function createRunExpiry(options: {
  port: StoragePort;
  now: () => number;
  runTtlMs: number;
  /** A commit of one workspace through the SQL change feed. */
  commitAnnounced: (
    workspaceUuid: string,
    changes: Write[],
    guards: { key: string; is: 'present' }[],
  ) => Promise<boolean>;
}) {
  const { port } = options;
  const dueAt = new OldestFirst<number>();
  const running = new Map<string, Promise<void>>();

  /**
   * One removal step: reads the head of the created lists (in creation order, so the oldest are first), removes
   * the leading entries past the age from their hash and their list (the runs' log and span rows, derived from
   * the list, go with them), in one guarded commit. Resolves whether more may be due (a full window past its age whole), and how many went.
   */
  const removeStep = async (workspaceUuid: string, cutoff: number, window: number) => {
    const at = (part: string) => workspaceKey(workspaceUuid, part);
    const [runUuids, batchUuids] = await port.read([
      { op: 'list', key: at('runs-created'), first: window },
      { op: 'list', key: at('batches-created'), first: window },
    ] as const);
    if (runUuids.length === 0 && batchUuids.length === 0) return { removed: 0, more: false };
    const texts = await port.read([
      ...runUuids.map((uuid) => ({ op: 'hget' as const, key: at('runs'), field: uuid })),
      ...batchUuids.map((uuid) => ({ op: 'hget' as const, key: at('batches'), field: uuid })),
    ]);
    // An entry whose record is gone already (removed elsewhere) is past its age too: its list entry goes.
    const aged = (uuids: string[], offset: number) => {
      const count = uuids.findIndex((_, i) => {
        const text = texts[offset + i];
        return text !== null && (JSON.parse(text) as { createdAtMs: number }).createdAtMs >= cutoff;
      });
      return uuids.slice(0, count === -1 ? uuids.length : count);
    };
    const runs = aged(runUuids, 0);
    const batches = aged(batchUuids, runUuids.length);
    if (runs.length === 0 && batches.length === 0) return { removed: 0, more: false };
    const writes: Write[] = [
      ...runs.map((uuid): Write => ({ op: 'hdelete', key: at('runs'), field: uuid })),
      { op: 'remove', key: at('runs-created'), values: runs, within: runUuids.length },
      ...batches.map((uuid): Write => ({ op: 'hdelete', key: at('batches'), field: uuid })),
      { op: 'remove', key: at('batches-created'), values: batches, within: batchUuids.length },
    ];
    const changes = writes.filter((write) => write.op !== 'remove' || write.values.length > 0);
    // A workspace reset meanwhile has nothing left to remove (and is not seeded again for it).
    const guard = [{ key: markerKey(workspaceUuid), is: 'present' as const }];
    if (!(await options.commitAnnounced(workspaceUuid, changes, guard))) return { removed: 0, more: false };
    // More may be due only behind a full window that was past its age whole.
    const full = (list: string[], aged: string[]) => list.length === window && aged.length === window;
    return { removed: runs.length + batches.length, more: full(runUuids, runs) || full(batchUuids, batches) };
  };

  /**
   * Removes the created runs and batches created before `cutoff`, a guarded commit per step (all or nothing).
   * Removing what another replica removed already changes nothing. Stops at the first entry still young.
   */
  const expireAged = async (workspaceUuid: string, cutoff: number): Promise<void> => {
    let window = 8;
    for (let removed = 0; removed < EXPIRY_BUDGET; window = Math.min(window * 8, EXPIRY_WINDOW_MAX)) {
      const step = await removeStep(workspaceUuid, cutoff, window);
      if (!step.more) return;
      removed += step.removed;
    }
    // Budget spent: the next request of the workspace checks again at once.
    dueAt.set(workspaceUuid, options.now());
  };

  return {
    /** The check of a workspace if one is due (or running), else undefined. */
    expireDue(workspaceUuid: string): Promise<void> | undefined {
      const current = running.get(workspaceUuid);
      if (current) return current;
      const now = options.now();
      const due = dueAt.get(workspaceUuid);
      if (due !== undefined && due > now) return undefined;
      dueAt.set(workspaceUuid, now + Math.min(EXPIRY_CHECK_EVERY_MS, options.runTtlMs));
      if (dueAt.size > EXPIRY_WORKSPACES_KEPT) dueAt.dropOldest();
      const check = expireAged(workspaceUuid, now - options.runTtlMs).finally(() => running.delete(workspaceUuid));
      running.set(workspaceUuid, check);
      return check;
    },
  };
}
