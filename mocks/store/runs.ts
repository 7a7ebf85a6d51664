import { TERMINAL_STATUSES, type BatchRecord, type RunRecord, type RunStatus } from './types';

/** Share of the run's duration it spends `pending` before `running`, and that cancelling takes. */
const PENDING_SHARE = 0.25;
const CANCELLING_SHARE = 0.25;

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** A run record with every optional link empty; `fields` sets what the caller knows. */
export function createRunRecord(fields: Pick<RunRecord, 'uuid' | 'workspaceUuid' | 'createdAtMs' | 'durationMs'> & Partial<RunRecord>): RunRecord {
  return {
    workflowUuid: null,
    releaseUuid: null,
    batchUuid: null,
    parentUuid: null,
    parentBatchUuid: null,
    parentNodeUuid: null,
    recordId: null,
    recordTitle: null,
    isGroupParent: false,
    outcome: 'success',
    ...fields,
  };
}

/** When the run reaches its terminal status (x-rules async-poll-terminal: after that it never moves). */
export function runFinishesAt(run: RunRecord): number {
  if (run.fixedStatus) return run.finishedAtMs ?? run.createdAtMs;
  if (run.cancelRequestedAtMs !== undefined) return run.cancelRequestedAtMs + Math.ceil(run.durationMs * CANCELLING_SHARE);
  return run.createdAtMs + run.durationMs;
}

/** The status follows from the clock alone, so it moves forward only and needs no timers. */
export function runStatusAt(run: RunRecord, now: number): RunStatus {
  if (run.fixedStatus) return run.fixedStatus;
  const finishesAt = runFinishesAt(run);
  if (run.cancelRequestedAtMs !== undefined) return now >= finishesAt ? 'cancelled' : 'cancelling';
  if (now >= finishesAt) return run.outcome;
  return now - run.createdAtMs < run.durationMs * PENDING_SHARE ? 'pending' : 'running';
}

/** When the status seen at `now` began: a run's updatedAt moves only when its status does. */
export function runStatusSince(run: RunRecord, now: number): number {
  const finishesAt = runFinishesAt(run);
  if (run.fixedStatus || now >= finishesAt) return finishesAt;
  if (run.cancelRequestedAtMs !== undefined) return run.cancelRequestedAtMs;
  const runningAt = run.createdAtMs + run.durationMs * PENDING_SHARE;
  return now >= runningAt ? runningAt : run.createdAtMs;
}

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** A cancel counts only while the run is unfinished; a finished run stays as it is. */
export function requestRunCancel(run: RunRecord, now: number): boolean {
  if (isTerminal(runStatusAt(run, now)) || run.cancelRequestedAtMs !== undefined) return false;
  run.cancelRequestedAtMs = now;
  return true;
}

export function viewRun(run: RunRecord, now: number) {
  const status = runStatusAt(run, now);
  const terminal = isTerminal(status);
  const finishedAtMs = terminal ? runFinishesAt(run) : undefined;
  return {
    uuid: run.uuid,
    workspaceUuid: run.workspaceUuid,
    status,
    workflowUuid: run.workflowUuid,
    releaseUuid: run.releaseUuid,
    batchUuid: run.batchUuid,
    parentUuid: run.parentUuid,
    parentBatchUuid: run.parentBatchUuid,
    parentNodeUuid: run.parentNodeUuid,
    recordId: run.recordId,
    recordTitle: run.recordTitle,
    isGroupParent: run.isGroupParent,
    createdAt: iso(run.createdAtMs)!,
    updatedAt: iso(Math.min(now, runStatusSince(run, now)))!,
    finishedAt: iso(finishedAtMs),
  };
}

export type RunView = ReturnType<typeof viewRun>;

/**
 * A batch with runs follows them: it finishes when the last one does, `cancelled` when all were cancelled, `error`
 * when one failed. A batch without runs follows its own clock.
 */
export function batchStatusAt(batch: BatchRecord, now: number, runs: RunRecord[] = []): string {
  if (batch.fixedStatus) return batch.fixedStatus;
  if (runs.length > 0) {
    const statuses = runs.map((run) => runStatusAt(run, now));
    if (statuses.every(isTerminal)) {
      if (statuses.every((status) => status === 'cancelled')) return 'cancelled';
      return statuses.includes('error') ? 'error' : 'success';
    }
    return statuses.every((status) => status === 'pending') ? 'pending' : 'running';
  }
  const elapsed = now - batch.createdAtMs;
  if (elapsed >= batch.durationMs) return batch.outcome ?? 'success';
  return elapsed < batch.durationMs * PENDING_SHARE ? 'pending' : 'running';
}

export function runsOfBatch(state: { runs: Map<string, RunRecord> }, batch: BatchRecord): RunRecord[] {
  return batch.runUuids.flatMap((uuid) => state.runs.get(uuid) ?? []);
}

function batchFinishesAt(batch: BatchRecord, runs: RunRecord[]): number {
  if (batch.finishedAtMs !== undefined) return batch.finishedAtMs;
  return runs.length > 0 ? Math.max(...runs.map(runFinishesAt)) : batch.createdAtMs + batch.durationMs;
}

export function viewBatch(batch: BatchRecord, now: number, runs: RunRecord[] = []) {
  const status = batchStatusAt(batch, now, runs);
  const finishedAtMs = isTerminal(status) ? batchFinishesAt(batch, runs) : undefined;
  return {
    uuid: batch.uuid,
    workspaceUuid: batch.workspaceUuid,
    status,
    runsStatus: 'healthy',
    workflowUuid: batch.workflowUuid,
    errorMessage: null,
    createdAt: iso(batch.createdAtMs)!,
    finishedAt: iso(finishedAtMs),
  };
}
