import {
  TERMINAL_STATUSES,
  type BatchRecord,
  type BatchTally,
  type LogRow,
  type RunRecord,
  type RunStatus,
  type SpanRow,
} from './types';

type Outcome = RunRecord['outcome'];

/** Share of the run's duration it spends `pending` before `running`, and that cancelling takes. */
const PENDING_SHARE = 0.25;
const CANCELLING_SHARE = 0.25;

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const isoAt = (ms: number) => new Date(ms).toISOString();

/** Instants the SQL engine writes as ISO text itself (whole milliseconds from 1970 to 9999): `isoUnlessDerived`. */
export const derivesIso = (ms: number) => Number.isInteger(ms) && ms >= 0 && ms < 253_402_300_800_000;
/** A timeline's text of an instant: null where the engine derives it from the milliseconds kept beside it. */
const isoUnlessDerived = (ms: number | undefined) => (ms !== undefined && derivesIso(ms) ? null : iso(ms));

/** A run's optional links and flags while nothing sets them (the stored form leaves them out too). */
export const RUN_DEFAULTS = {
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
} as const satisfies Partial<RunRecord>;

/** A run record with every optional link empty; `fields` sets what the caller knows. */
export function createRunRecord(
  fields: Pick<RunRecord, 'uuid' | 'workspaceUuid' | 'createdAtMs' | 'durationMs'> & Partial<RunRecord>,
): RunRecord {
  return { ...RUN_DEFAULTS, ...fields };
}

/** What a created run's log row says (derived from the run, never kept: `createdRunRows`). */
export const CREATED_LOG = { level: 'info', message: 'run created' } as const satisfies Partial<LogRow>;
/** What a created run's span row says: no parent, end or duration yet (derived from the run alike). */
export const CREATED_SPAN = {
  parentSpanUuid: null,
  name: 'run',
  endedAt: null,
  durationMs: null,
} as const satisfies Partial<SpanRow>;

/** The variant digit of a created run's span uuid: the run's with its lowest bit flipped (8↔9, a↔b). */
export const SPAN_VARIANT_DIGITS: ReadonlyMap<string, string> = new Map([
  ['8', '9'],
  ['9', '8'],
  ['a', 'b'],
  ['b', 'a'],
]);

/**
 * The uuids of a created run's log and span rows, which follow from the run's: its version digit made `8` (a
 * UUIDv8, RFC 9562 §5.8, never one of the mock's random v4 uuids), the span's variant digit flipped besides, so
 * each is as unique as the run's. The SQL engine writes the same (mocks/query/worker/database.ts
 * `createdRowsView`, proven equal in mocks/query/created-rows.test.ts).
 */
export const createdLogUuid = (runUuid: string) => `${runUuid.slice(0, 14)}8${runUuid.slice(15)}`;
export const createdSpanUuid = (runUuid: string) => {
  const variant = runUuid.slice(19, 20);
  return `${runUuid.slice(0, 14)}8${runUuid.slice(15, 19)}${SPAN_VARIANT_DIGITS.get(variant) ?? variant}${runUuid.slice(20)}`;
};

/**
 * The log and span rows a created run shows (the SQL tables and the workspace's snapshot), derived from the run
 * wherever they are read: nothing of them is kept but the run.
 */
export function createdRunRows(run: RunRecord): { log: LogRow; span: SpanRow } {
  const createdAt = new Date(run.createdAtMs).toISOString();
  const { level, message } = CREATED_LOG;
  const { parentSpanUuid, name, endedAt, durationMs } = CREATED_SPAN;
  const { uuid: runUuid, workspaceUuid } = run;
  return {
    log: { uuid: createdLogUuid(runUuid), workspaceUuid, runUuid, level, message, createdAt },
    span: {
      uuid: createdSpanUuid(runUuid),
      workspaceUuid,
      runUuid,
      parentSpanUuid,
      name,
      startedAt: createdAt,
      endedAt,
      durationMs,
    },
  };
}

/** An ISO text's milliseconds, where `Date.prototype.toISOString` writes that very text from them. */
export function millisecondsOfIso(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : undefined;
}

/** The rows of `createdRunRows` for several runs, in their order. */
export function createdRowsOf(runs: RunRecord[]): { logs: LogRow[]; spans: SpanRow[] } {
  const rows = runs.map((run) => createdRunRows(run));
  return { logs: rows.map((row) => row.log), spans: rows.map((row) => row.span) };
}

/**
 * The log and span rows the created runs show, in the order of their `runs-created` list (after the rows kept,
 * as the SQL tables show them); a listed uuid whose run is gone shows none.
 */
export function rowsOfListedRuns(listed: string[], runs: ReadonlyMap<string, RunRecord>) {
  return createdRowsOf(listed.flatMap((uuid) => runs.get(uuid) ?? []));
}

/** When the run reaches its terminal status (x-rules async-poll-terminal: after that it never moves). */
export function runFinishesAt(run: RunRecord): number {
  if (run.fixedStatus) return run.finishedAtMs ?? run.createdAtMs;
  if (run.cancelRequestedAtMs !== undefined)
    return run.cancelRequestedAtMs + Math.ceil(run.durationMs * CANCELLING_SHARE);
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

/** What a run links to and is about: shown alike by the API and the SQL `runs` table. */
function runLinks(run: RunRecord) {
  return {
    workflowUuid: run.workflowUuid,
    releaseUuid: run.releaseUuid,
    batchUuid: run.batchUuid,
    parentUuid: run.parentUuid,
    parentBatchUuid: run.parentBatchUuid,
    parentNodeUuid: run.parentNodeUuid,
    recordId: run.recordId,
    recordTitle: run.recordTitle,
  };
}

export function viewRun(run: RunRecord, now: number) {
  const status = runStatusAt(run, now);
  const terminal = isTerminal(status);
  const finishedAtMs = terminal ? runFinishesAt(run) : undefined;
  return {
    uuid: run.uuid,
    workspaceUuid: run.workspaceUuid,
    status,
    ...runLinks(run),
    isGroupParent: run.isGroupParent,
    createdAt: isoAt(run.createdAtMs),
    updatedAt: isoAt(Math.min(now, runStatusSince(run, now))),
    finishedAt: iso(finishedAtMs),
  };
}

export type RunView = ReturnType<typeof viewRun>;

/** An empty tally; `tallyRun` adds each run as it is created. */
export function emptyTally(): BatchTally {
  return {
    runs: 0,
    cancelled: 0,
    liveErrors: 0,
    liveFinishAt: -Infinity,
    cancelledFinishAt: -Infinity,
    pendingUntil: Infinity,
  };
}

export function tallyRun(tally: BatchTally, run: RunRecord): void {
  tally.runs += 1;
  tally.pendingUntil = Math.min(tally.pendingUntil, run.createdAtMs + run.durationMs * PENDING_SHARE);
  if (run.cancelRequestedAtMs !== undefined) {
    tally.cancelled += 1;
    tally.cancelledFinishAt = Math.max(tally.cancelledFinishAt, runFinishesAt(run));
  } else {
    countLive(tally, runStatusAt(run, Infinity), 1);
    tally.liveFinishAt = Math.max(tally.liveFinishAt, runFinishesAt(run));
  }
}

/** Moves a run that was just cancelled (requestRunCancel) from the live counts to the cancelled ones. */
export function tallyCancel(tally: BatchTally, run: RunRecord): void {
  tally.cancelled += 1;
  countLive(tally, run.outcome, -1);
  tally.cancelledFinishAt = Math.max(tally.cancelledFinishAt, runFinishesAt(run));
}

/** The tally of a set of runs as they are now (for batches built outside the handlers, and for tests). */
export function tallyOf(runs: RunRecord[]): BatchTally {
  const tally = emptyTally();
  for (const run of runs) tallyRun(tally, run);
  return tally;
}

/** The tally's count of runs not cancelled that end in each outcome but `success` (the rest of them). */
const LIVE_COUNT = {
  error: 'liveErrors',
  cancelled: 'liveCancelled',
  skipped: 'liveSkipped',
  success: undefined,
} as const satisfies Record<Outcome, keyof BatchTally | undefined>;

function countLive(tally: BatchTally, status: string, by: 1 | -1): void {
  const field = Object.hasOwn(LIVE_COUNT, status) ? LIVE_COUNT[status as Outcome] : undefined;
  if (field) tally[field] = (tally[field] ?? 0) + by;
}

/**
 * The terminal status of a batch whose runs all finished, from what they ended in: `error` if one failed, else
 * `success` if one succeeded, else `cancelled` if one was cancelled, else `skipped` (so a batch whose runs all
 * ended alike ends so too). A precedence over every terminal status (mocks/handlers/batch-outcomes.test.ts keeps it
 * equal to the contract's enum).
 */
export const BATCH_OUTCOME_PRECEDENCE: readonly Outcome[] = [
  'error',
  ...([...TERMINAL_STATUSES] as Outcome[]).filter((status) => status !== 'error'),
];

function finishedBatchStatus(tally: BatchTally): Outcome {
  const cancelled = tally.cancelled + (tally.liveCancelled ?? 0);
  const skipped = tally.liveSkipped ?? 0;
  const counts: Record<Outcome, number> = {
    error: tally.liveErrors,
    cancelled,
    skipped,
    success: tally.runs - cancelled - tally.liveErrors - skipped,
  };
  return BATCH_OUTCOME_PRECEDENCE.find((outcome) => counts[outcome] > 0) ?? 'success';
}

function tallyFinishesAt(tally: BatchTally): number {
  return Math.max(tally.runs > tally.cancelled ? tally.liveFinishAt : -Infinity, tally.cancelledFinishAt);
}

/**
 * A batch with runs follows them: it finishes when the last one does, `cancelled` when all were, `error`
 * when one failed. A batch without runs follows its own clock. Constant time: the tally, not the runs.
 */
export function batchStatusAt(batch: BatchRecord, now: number, runs: RunRecord[] = []): string {
  if (batch.fixedStatus) return batch.fixedStatus;
  const tally = batch.tally ?? (runs.length > 0 ? tallyOf(runs) : undefined);
  if (tally && tally.runs > 0) {
    if (now >= tallyFinishesAt(tally)) return finishedBatchStatus(tally);
    return tally.cancelled === 0 && now < tally.pendingUntil ? 'pending' : 'running';
  }
  const elapsed = now - batch.createdAtMs;
  if (elapsed >= batch.durationMs) return batch.outcome ?? 'success';
  return elapsed < batch.durationMs * PENDING_SHARE ? 'pending' : 'running';
}

export function runsOfBatch(state: { runs: Map<string, RunRecord> }, batch: BatchRecord): RunRecord[] {
  return batch.runUuids.flatMap((uuid) => state.runs.get(uuid) ?? []);
}

export function batchFinishesAt(batch: BatchRecord, runs: RunRecord[]): number {
  if (batch.finishedAtMs !== undefined) return batch.finishedAtMs;
  const tally = batch.tally ?? (runs.length > 0 ? tallyOf(runs) : undefined);
  return tally && tally.runs > 0 ? tallyFinishesAt(tally) : batch.createdAtMs + batch.durationMs;
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
    createdAt: isoAt(batch.createdAtMs),
    finishedAt: iso(finishedAtMs),
  };
}

/** Before every instant the mock can represent (the earliest valid Date): a phase ending here never applies. */
export const NEVER = -8.64e15;

/**
 * A status as a function of time in at most three phases: the first before `t1Until`, the second before
 * `t2Until`, then the final one for good. Each phase names when it began (`…SinceMs`, and as ISO text), which is
 * `updatedAt` (clipped to now); `tFinishedAt` is the finish shown in the final phase. A text is null where the
 * engine derives it from the milliseconds (`derivesIso`: most instants), so a kept row holds each instant once;
 * `tFinishedAtMs` is null when the final phase shows no finish. The SQL engine keeps this per
 * row and evaluates it at the query's clock, so a run's row never needs rewriting as time passes.
 */
export type Timeline = {
  t1Until: number;
  t1Status: string | null;
  t1SinceMs: number;
  t1Since: string | null;
  t2Until: number;
  t2Status: string | null;
  t2SinceMs: number;
  t2Since: string | null;
  tStatus: string | null;
  tSinceMs: number;
  tSince: string | null;
  tFinishedAtMs: number | null;
  tFinishedAt: string | null;
};

type Phase = { until: number; status: string; sinceMs: number };
const noPhase: Phase = { until: NEVER, status: '', sinceMs: NEVER };

function timelineOf(
  first: Phase,
  second: Phase,
  status: string,
  sinceMs: number,
  finishedAtMs: number | undefined,
): Timeline {
  const phase = (p: Phase) =>
    p.until === NEVER
      ? { until: NEVER, status: null, sinceMs: NEVER, since: null }
      : { until: p.until, status: p.status, sinceMs: p.sinceMs, since: isoUnlessDerived(p.sinceMs) };
  const finished = isTerminal(status) && finishedAtMs !== undefined;
  const [a, b] = [phase(first), phase(second)];
  return {
    t1Until: a.until,
    t1Status: a.status,
    t1SinceMs: a.sinceMs,
    t1Since: a.since,
    t2Until: b.until,
    t2Status: b.status,
    t2SinceMs: b.sinceMs,
    t2Since: b.since,
    tStatus: status,
    tSinceMs: sinceMs,
    tSince: isoUnlessDerived(sinceMs),
    tFinishedAtMs: finished ? finishedAtMs : null,
    tFinishedAt: finished ? isoUnlessDerived(finishedAtMs) : null,
  };
}

/** The same statuses as `runStatusAt` and `viewRun`, as phases (proven equal in mocks/query/incremental.test.ts). */
export function runTimeline(run: RunRecord): Timeline {
  const finishesAt = runFinishesAt(run);
  const final = runStatusAt(run, Infinity);
  if (run.fixedStatus) return timelineOf(noPhase, noPhase, final, finishesAt, finishesAt);
  if (run.cancelRequestedAtMs !== undefined) {
    const cancelling = { until: finishesAt, status: 'cancelling', sinceMs: run.cancelRequestedAtMs };
    return timelineOf(cancelling, noPhase, final, finishesAt, finishesAt);
  }
  const runningAt = run.createdAtMs + run.durationMs * PENDING_SHARE;
  return timelineOf(
    { until: runningAt, status: 'pending', sinceMs: run.createdAtMs },
    { until: finishesAt, status: 'running', sinceMs: runningAt },
    final,
    finishesAt,
    finishesAt,
  );
}

/** The same statuses as `batchStatusAt` and `viewBatch` (batches show no updatedAt, so `since` is unused). */
export function batchTimeline(batch: BatchRecord, runs: RunRecord[] = []): Timeline {
  const final = batchStatusAt(batch, Infinity, runs);
  const finishedAtMs = batchFinishesAt(batch, runs);
  if (batch.fixedStatus) return timelineOf(noPhase, noPhase, final, NEVER, finishedAtMs);
  const tally = batch.tally ?? (runs.length > 0 ? tallyOf(runs) : undefined);
  if (tally && tally.runs > 0) {
    const finishesAt = tallyFinishesAt(tally);
    const pending = tally.cancelled === 0 ? { until: tally.pendingUntil, status: 'pending', sinceMs: NEVER } : noPhase;
    return timelineOf(pending, { until: finishesAt, status: 'running', sinceMs: NEVER }, final, NEVER, finishedAtMs);
  }
  return timelineOf(
    { until: batch.createdAtMs + batch.durationMs * PENDING_SHARE, status: 'pending', sinceMs: NEVER },
    { until: batch.createdAtMs + batch.durationMs, status: 'running', sinceMs: NEVER },
    final,
    NEVER,
    finishedAtMs,
  );
}

/** A run as the SQL engine stores it: the `runs` table's fixed columns and its timeline. */
export function runQueryRow(run: RunRecord) {
  return {
    uuid: run.uuid,
    workspaceUuid: run.workspaceUuid,
    ...runLinks(run),
    isGroupParent: run.isGroupParent ? 1 : 0,
    createdAt: iso(run.createdAtMs),
    ...runTimeline(run),
  };
}

/**
 * A batch as the SQL engine stores it. `derived` marks a batch whose status is computed from its runs (no stored
 * tally): a change to one of those runs changes the batch row too, so the engine loads afresh then.
 */
export function batchQueryRow(batch: BatchRecord, runs: RunRecord[] = []) {
  return {
    uuid: batch.uuid,
    workspaceUuid: batch.workspaceUuid,
    workflowUuid: batch.workflowUuid,
    runsStatus: 'healthy',
    createdAt: iso(batch.createdAtMs),
    ...batchTimeline(batch, runs),
    derived: !batch.fixedStatus && !batch.tally && runs.length > 0 ? 1 : 0,
  };
}
