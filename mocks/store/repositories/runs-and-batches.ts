import { whenKnown, type MaybePromise } from '../../maybe-promise';
import { workspaceKey } from '../keys';
import type { Guard, Write } from '../port';
import type { PendingCommit } from '../pending-commit';
import type { BatchRecord, RunRecord, StoreLimits } from '../types';
import { decodeRun, encodeRun } from '../stored-form';
import type { WorkspaceSlice } from './workspace-slice';

/**
 * What one request creating runs adds: the runs and the batch they belong to. Their first log and span rows are
 * not kept: every reader derives them from the runs in the `runs-created` list (`createdRunRows`).
 */
export type AddedRuns = { runs: RunRecord[]; batch?: BatchRecord };

const sortRuns = (runs: RunRecord[]) =>
  runs.sort((a, b) => a.createdAtMs - b.createdAtMs || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));

/**
 * Where a full list of created runs or batches is cut to: 1 % below its bound, so the store and the SQL engine
 * drop the oldest hundreds at a time (a run dropped alone costs the SQL engine about half of writing one; many at
 * once, much less each). Small bounds are kept exactly.
 */
export const trimmedTo = (keepLast: number) => keepLast - Math.floor(keepLast / 100);

/**
 * Runs and batches created through the API: added all or nothing with their rows, bounded by count (the
 * `runs-created` and `batches-created` lists, oldest out with their hash entries in the same commit) and by age
 * (`run-expiry.ts`), and taken back whole when their request fails.
 */
export function createRunRepository(slice: WorkspaceSlice, limits: StoreLimits) {
  const { readWorkspace } = slice;

  /** Runs by uuid, in one round trip (at once from a store in this process); uuids without a run are left out. */
  const runsByUuid = (workspaceUuid: string, uuids: string[]): MaybePromise<RunRecord[]> => {
    if (uuids.length === 0) return [];
    const at = workspaceKey(workspaceUuid, 'runs');
    return whenKnown(
      readWorkspace(
        workspaceUuid,
        uuids.map((uuid) => ({ op: 'hget' as const, key: at, field: uuid })),
      ),
      ({ values }) => values.flatMap((text, i) => (text === null ? [] : [decodeRun(text, workspaceUuid, uuids[i])])),
    );
  };

  return {
    runsByUuid,

    /** Every run of the workspace, oldest first. */
    async runs(workspaceUuid: string): Promise<RunRecord[]> {
      const at = workspaceKey(workspaceUuid, 'runs');
      const { values } = await readWorkspace(workspaceUuid, [{ op: 'hgetall', key: at }]);
      return sortRuns(Object.entries(values[0]).map(([uuid, text]) => decodeRun(text, workspaceUuid, uuid)));
    },

    /** The runs of a batch, read in one round trip. */
    runsOfBatch: (workspaceUuid: string, batch: BatchRecord) => runsByUuid(workspaceUuid, batch.runUuids),

    /**
     * Adds created runs (and the batch they belong to), all or nothing; their rows follow from them. Under an
     * Idempotency-Key (`withAnswer`), they go into the store with the key's answer, in one commit.
     */
    async addRuns(workspaceUuid: string, added: AddedRuns, withAnswer?: PendingCommit): Promise<Write[]> {
      const at = (part: string) => workspaceKey(workspaceUuid, part);
      // One key text for every run's write (a text per write would be kept as long as the write is).
      const runsKey = at('runs');
      const writes: Write[] = added.runs.map((run) => ({
        op: 'hset',
        key: runsKey,
        field: run.uuid,
        value: encodeRun(run, workspaceUuid, run.uuid),
      }));
      if (added.runs.length > 0) {
        const values = added.runs.map((run) => run.uuid);
        const keepLast = limits.runsPerWorkspace;
        const trimTo = trimmedTo(keepLast);
        writes.push({ op: 'append', key: at('runs-created'), values, keepLast, trimTo, dropFrom: runsKey });
      }
      if (added.batch) {
        const { uuid } = added.batch;
        writes.push({ op: 'hset', key: at('batches'), field: uuid, value: JSON.stringify(added.batch) });
        const keepLast = limits.batchesPerWorkspace;
        const trimTo = trimmedTo(keepLast);
        writes.push({
          op: 'append',
          key: at('batches-created'),
          values: [uuid],
          keepLast,
          trimTo,
          dropFrom: at('batches'),
        });
      }
      const alone = () => slice.commitWorkspace(workspaceUuid, writes);
      if (withAnswer)
        withAnswer.add(slice.pendingWorkspacePart(workspaceUuid, () => ({ changes: [...writes] }), alone));
      else await alone();
      return writes;
    },

    /**
     * Runs stored when made (a run waited for is read back while it runs) kept with the key's answer: the
     * answer's commit holds only while they are stored, and a workspace reset meanwhile stores them again (as
     * `writes`, what `addRuns` wrote) before the commit is tried once more. Should the key be another request's
     * by then, the request takes them back as any failed request does.
     */
    keepStoredRuns(workspaceUuid: string, uuids: string[], writes: Write[], withAnswer: PendingCommit): void {
      const runsKey = workspaceKey(workspaceUuid, 'runs');
      const guards = uuids.map((uuid): Guard => ({ key: runsKey, field: uuid, is: 'present' }));
      const ready = async () => {
        await slice.ensureSeeded([workspaceUuid]);
        if ((await runsByUuid(workspaceUuid, uuids)).length < uuids.length)
          await slice.commitWorkspace(workspaceUuid, writes);
      };
      withAnswer.add(
        slice.pendingWorkspacePart(
          workspaceUuid,
          () => ({ changes: [], guards }),
          async () => true,
          ready,
        ),
      );
    },

    /**
     * Takes back what one `addRuns` added (its request failed after the write): the runs and their batch (their
     * log and span rows with them, derived from the list). Runs the cap dropped to make room stay dropped.
     */
    async removeCreatedRuns(workspaceUuid: string, added: AddedRuns): Promise<void> {
      const at = (part: string) => workspaceKey(workspaceUuid, part);
      const uuids = added.runs.map((run) => run.uuid);
      const writes: Write[] = [
        ...uuids.map((uuid): Write => ({ op: 'hdelete', key: at('runs'), field: uuid })),
        { op: 'remove', key: at('runs-created'), values: uuids },
      ];
      if (added.batch) {
        writes.push({ op: 'hdelete', key: at('batches'), field: added.batch.uuid });
        writes.push({ op: 'remove', key: at('batches-created'), values: [added.batch.uuid] });
      }
      await slice.commitAnnounced(workspaceUuid, writes);
    },
  };
}
