import { whenKnown } from '../maybe-promise';
import { jsonResponse } from '../context';
import { ApiError } from '../errors';
import { STORE_LIMITS } from '../limits';
import {
  createRunRecord,
  isTerminal,
  requestRunCancel,
  runFinishesAt,
  tallyCancel,
  tallyOf,
  viewBatch,
  viewRun,
  type RunView,
} from '../store/runs';
import type { Ctx } from '../context';
import { TERMINAL_STATUSES, type BatchRecord, type JsonRecord, type RunRecord } from '../store/types';
import { notFound } from './paging';
import { nextTimeOrderedUuid, trackChange } from './resources';
import { undoOnFailure } from '../stages/all-or-nothing';
import type { HandlerDeps, Handlers } from './types';

/** Async runs and batches (x-rules async-202-location, async-poll-terminal), plus the runs download. */
export function runHandlers(deps: HandlerDeps) {
  const locationOf = (origin: string, kind: 'runs' | 'batches', uuid: string) =>
    `${origin}${deps.basePath}/orchestration/${kind}/${uuid}`;

  const planOf = (ctx: Ctx) => deps.planRun?.(ctx) ?? { durationMs: deps.runDurationMs, outcome: 'success' as const };

  /** A new run (its first log and span rows follow from it); stored by the caller, in one batch with its siblings. */
  const newRun = (workspaceUuid: string, fields: Partial<RunRecord>) => {
    const createdAtMs = fields.createdAtMs ?? deps.now();
    return createRunRecord({
      uuid: nextTimeOrderedUuid(createdAtMs),
      workspaceUuid,
      createdAtMs,
      durationMs: deps.runDurationMs,
      ...fields,
    });
  };

  const runResponse = (status: number, run: RunRecord, headers: Record<string, string> = {}) => {
    const view = viewRun(run, deps.now());
    return jsonResponse(status, { run: view }, headers);
  };

  return {
    async createRun(ctx) {
      const workspaceUuid = ctx.caller.workspaceUuid;
      const body = ctx.req.body as JsonRecord;
      const run = newRun(workspaceUuid, {
        ...planOf(ctx),
        workflowUuid: (body.workflowUuid as string | undefined) ?? null,
        releaseUuid: (body.releaseUuid as string | undefined) ?? null,
        recordId: (body.recordId as string | undefined) ?? null,
        recordTitle: (body.recordTitle as string | undefined) ?? null,
      });
      const added = { runs: [run] };
      const waits = body.waitUntilFinished === true;
      // A run waited for is read back while it runs (a cancel on another replica moves its finish): it is
      // stored now, and the key's answer is kept only while it is; otherwise it goes in with the answer.
      const writes = await deps.store.addRuns(workspaceUuid, added, waits ? undefined : ctx.withAnswer);
      undoOnFailure(ctx, () => deps.store.removeCreatedRuns(workspaceUuid, added));
      if (waits && ctx.withAnswer) deps.store.keepStoredRuns(workspaceUuid, [run.uuid], writes, ctx.withAnswer);
      if (waits) {
        // The run is read again after each wait: a cancel on another replica moves its finish.
        let current: RunRecord = run;
        // Timers may fire a little before the clock reaches the finish time: wait until the run is terminal.
        for (let now = deps.now(); !isTerminal(viewRun(current, now).status); now = deps.now()) {
          // A client that went away stops the wait: the request fails, so its run is taken back with it.
          // Past its finish and not terminal, its status is held (a fixture's): read again each second, as
          // before its finish, never in a loop of 1 ms waits. One reading of the clock for both.
          const left = runFinishesAt(current) - now;
          await untilGone(deps.sleep(left > 0 ? Math.max(1, Math.min(left, 1_000)) : 1_000), ctx.signal);
          current = (await deps.store.get(workspaceUuid, 'runs', run.uuid)) ?? current;
        }
        return runResponse(200, current);
      }
      return runResponse(202, run, { location: locationOf(ctx.origin, 'runs', run.uuid) });
    },

    // A poll answers at once when the store is in this process (`whenKnown`).
    getRun(ctx) {
      const uuid = String(ctx.input.path.uuid).toLowerCase();
      return whenKnown(deps.store.get(ctx.caller.workspaceUuid, 'runs', uuid), (run) => {
        if (!run) throw notFound('run', uuid);
        // No Retry-After on polls: the contract sends it on 429 only.
        return runResponse(200, run);
      });
    },

    /** An unfinished run goes through `cancelling` to `cancelled` (202); a finished one is returned as it is (200). */
    async cancelRun(ctx) {
      const uuid = String(ctx.input.path.uuid).toLowerCase();
      const now = deps.now();
      const workspaceUuid = ctx.caller.workspaceUuid;
      // Compare-and-set: of concurrent cancels on any replicas, one records the request, the others see it.
      const change = trackChange<RunRecord>((current) => {
        const next = { ...current };
        return requestRunCancel(next, now) ? next : undefined;
      });
      const run = await deps.store.update(workspaceUuid, 'runs', uuid, change.apply);
      if (!run) throw notFound('run', uuid);
      change.undoWith(ctx, (back) => deps.store.update(workspaceUuid, 'runs', uuid, back));
      // The batch's tally moves the run from its live counts to its cancelled ones (a failure takes both back).
      const batchUuid = run.batchUuid;
      if (change.changed && batchUuid) {
        const tallied = trackChange<BatchRecord>((current) => {
          if (!current.tally || !current.runUuids.includes(run.uuid)) return undefined;
          const next = { ...current, tally: { ...current.tally } };
          tallyCancel(next.tally, run);
          return next;
        });
        await deps.store.update(workspaceUuid, 'batches', batchUuid, tallied.apply);
        tallied.undoWith(ctx, (back) => deps.store.update(workspaceUuid, 'batches', batchUuid, back));
      }
      if (!isTerminal(viewRun(run, now).status) || run.cancelRequestedAtMs === now) {
        return runResponse(202, run, { location: locationOf(ctx.origin, 'runs', run.uuid) });
      }
      return runResponse(200, run);
    },

    async createBatch(ctx) {
      const workspaceUuid = ctx.caller.workspaceUuid;
      const body = ctx.req.body as JsonRecord;
      const workflowUuid = (body.workflowUuid as string | undefined) ?? null;
      const plan = planOf(ctx);
      // Its runs end as the plan says, and the batch follows them (a batch without runs ends so itself).
      const createdAtMs = deps.now();
      const batch: BatchRecord = {
        uuid: nextTimeOrderedUuid(createdAtMs),
        workspaceUuid,
        workflowUuid,
        createdAtMs,
        durationMs: plan.durationMs,
        outcome: plan.outcome,
        runUuids: [],
      };
      const runs = ((body.recordIds as string[] | undefined) ?? []).map((recordId) =>
        newRun(workspaceUuid, { ...plan, workflowUuid, batchUuid: batch.uuid, parentBatchUuid: batch.uuid, recordId }),
      );
      batch.runUuids = runs.map((run) => run.uuid);
      // Its status then follows its counts, never a walk over its runs (cancelRun keeps them).
      if (runs.length > 0) batch.tally = tallyOf(runs);
      const added = { runs, batch };
      await deps.store.addRuns(workspaceUuid, added, ctx.withAnswer);
      undoOnFailure(ctx, () => deps.store.removeCreatedRuns(workspaceUuid, added));
      return jsonResponse(
        202,
        { batch: viewBatch(batch, deps.now(), runs) },
        { location: locationOf(ctx.origin, 'batches', batch.uuid) },
      );
    },

    getBatch(ctx) {
      const uuid = String(ctx.input.path.uuid).toLowerCase();
      const workspaceUuid = ctx.caller.workspaceUuid;
      return whenKnown(deps.store.get(workspaceUuid, 'batches', uuid), (batch) => {
        if (!batch) throw notFound('batch', uuid);
        // A batch that keeps its tally answers its status in constant time: its runs are not read.
        return whenKnown(batch.tally ? [] : deps.store.runsOfBatch(workspaceUuid, batch), (runs) =>
          jsonResponse(200, { batch: viewBatch(batch, deps.now(), runs) }),
        );
      });
    },
    ...downloadHandlers(deps),
  } satisfies Handlers;
}

/** The runs download (x-rules: one workspace's runs, selected by the export's filters). */
function downloadHandlers(deps: HandlerDeps) {
  return {
    /**
     * The export is taken now and served by the mock itself at an opaque URL outside /v1. The runs are selected
     * and serialised by the SQL engine's worker on the workspace's kept tables (one JSON text comes back), so an
     * export costs what it returns, not every run stored, and this thread never walks its rows.
     */
    async downloadRuns(ctx) {
      const workspaceUuid = ctx.caller.workspaceUuid;
      const now = deps.now();
      const { sql, params } = exportJsonQueryOf(ctx.req.body as JsonRecord);
      const engine = await deps.queryEngine();
      // The kept text adds its owner and time to the runs: the runs get the rest of the limit.
      const limitBytes = STORE_LIMITS.downloadBytesEach;
      const runsLimit = limitBytes - 100;
      const { rows } = await engine
        .select(
          workspaceUuid,
          sql,
          params,
          { maxRows: Number.MAX_SAFE_INTEGER, maxResultBytes: runsLimit, jsonArray: true },
          ctx.signal,
        )
        .catch((error: unknown) => {
          if (!(error instanceof ApiError) || error.reason !== 'query_result_too_large') throw error;
          throw new ApiError(
            400,
            'download_too_large',
            `The export would hold more than ${limitBytes} bytes; narrow the filters.`,
            { limitBytes },
          );
        });
      const [{ json }] = rows as [{ json: string }];
      const download = { workspaceUuid, createdAtMs: now, runsJson: json };
      const id = await deps.store.saveDownload(download);
      undoOnFailure(ctx, () => deps.store.removeDownload(workspaceUuid, id));
      // Under an Idempotency-Key, its answer is kept only while the export is stored.
      if (ctx.withAnswer) deps.store.keepStoredDownload(id, download, ctx.withAnswer);
      return jsonResponse(200, { url: `${ctx.origin}/downloads/${id}` });
    },
  } satisfies Handlers;
}

/** The columns of an exported run, in the order `viewRun` shows them. */
const EXPORT_COLUMNS = [
  'uuid',
  'workspaceUuid',
  'status',
  'workflowUuid',
  'releaseUuid',
  'batchUuid',
  'parentUuid',
  'parentBatchUuid',
  'parentNodeUuid',
  'recordId',
  'recordTitle',
  'isGroupParent',
  'createdAt',
  'updatedAt',
  'finishedAt',
] as const;

/**
 * The export's SELECT (`exportQueryOf`) with each run as its JSON text, written by SQLite: the fields in the order
 * `viewRun` shows them, `isGroupParent` a boolean.
 */
export function exportJsonQueryOf(filters: JsonRecord): { sql: string; params: (string | number | null)[] } {
  const { sql, params } = exportQueryOf(filters);
  const fields = EXPORT_COLUMNS.map((column) =>
    column === 'isGroupParent'
      ? `'isGroupParent', json(CASE WHEN isGroupParent = 1 THEN 'true' ELSE 'false' END)`
      : `'${column}', ${column}`,
  );
  return { sql: `SELECT json_object(${fields.join(', ')}) AS run FROM (${sql}) ORDER BY createdAt, uuid`, params };
}

/**
 * The DownloadRunsRequest filters as one SELECT with bound parameters: the same selection as `matchesFilters`
 * (proven equal in runs-export.test.ts). Timestamps compare as ISO strings of the same form, which orders them.
 */
export function exportQueryOf(filters: JsonRecord): { sql: string; params: (string | number | null)[] } {
  const where: string[] = [];
  const params: (string | number | null)[] = [];
  for (const field of [
    'workflowUuid',
    'releaseUuid',
    'batchUuid',
    'recordId',
    'recordTitle',
    'parentBatchUuid',
    'parentUuid',
    'parentNodeUuid',
  ] as const) {
    const value = filters[field];
    if (value === undefined) continue;
    if (value === null) where.push(`${field} IS NULL`);
    else if (typeof value === 'string') {
      where.push(`${field} = ?`);
      params.push(value);
    } else where.push('0');
  }
  if (filters.isGroupParent !== undefined) {
    if (typeof filters.isGroupParent === 'boolean') {
      where.push('isGroupParent = ?');
      params.push(filters.isGroupParent ? 1 : 0);
    } else where.push('0');
  }
  // With a time bound, the time index narrows best: `+status` keeps SQLite from scanning every run of a status.
  const timeBound =
    filters.createdAfter !== undefined ||
    filters.createdBefore !== undefined ||
    filters.updatedAfter !== undefined ||
    filters.updatedBefore !== undefined;
  for (const [field, column] of [
    ['uuids', 'uuid'],
    ['statuses', timeBound ? '+status' : 'status'],
  ] as const) {
    if (!Array.isArray(filters[field])) continue;
    where.push(`${column} IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters[field]));
  }
  if (filters.recordTitleOrId !== undefined) {
    where.push('(recordId = ? OR recordTitle = ?)');
    params.push(String(filters.recordTitleOrId), String(filters.recordTitleOrId));
  }
  if (filters.isFinished !== undefined) {
    where.push(`(status IN (SELECT value FROM json_each(?))) = ?`);
    params.push(JSON.stringify([...TERMINAL_STATUSES]), filters.isFinished === true ? 1 : 0);
  }
  for (const [field, column, op] of [
    ['createdAfter', 'createdAt', '>'],
    ['createdBefore', 'createdAt', '<'],
    ['updatedAfter', 'updatedAt', '>'],
    ['updatedBefore', 'updatedAt', '<'],
  ] as const) {
    if (filters[field] === undefined) continue;
    const ms = Date.parse(String(filters[field]));
    if (Number.isNaN(ms)) where.push('0');
    else {
      where.push(`${column} ${op} ?`);
      params.push(new Date(ms).toISOString());
    }
  }
  const sql =
    `SELECT ${EXPORT_COLUMNS.join(', ')} FROM runs` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ' ORDER BY createdAt, uuid';
  return { sql, params };
}

/** The DownloadRunsRequest filters; all given filters must hold. */
export function matchesFilters(filters: JsonRecord) {
  const equal = (field: keyof RunView) => (run: RunView) =>
    filters[field] === undefined || run[field] === filters[field];
  const checks: ((run: RunView) => boolean)[] = [
    equal('workflowUuid'),
    equal('releaseUuid'),
    equal('batchUuid'),
    equal('recordId'),
    equal('recordTitle'),
    equal('parentBatchUuid'),
    equal('parentUuid'),
    equal('parentNodeUuid'),
    equal('isGroupParent'),
    (run) => !Array.isArray(filters.uuids) || filters.uuids.includes(run.uuid),
    (run) => !Array.isArray(filters.statuses) || filters.statuses.includes(run.status),
    (run) =>
      filters.recordTitleOrId === undefined ||
      run.recordId === filters.recordTitleOrId ||
      run.recordTitle === filters.recordTitleOrId,
    (run) => filters.isFinished === undefined || isTerminal(run.status) === filters.isFinished,
    (run) => filters.createdAfter === undefined || Date.parse(run.createdAt) > Date.parse(String(filters.createdAfter)),
    (run) =>
      filters.createdBefore === undefined || Date.parse(run.createdAt) < Date.parse(String(filters.createdBefore)),
    (run) => filters.updatedAfter === undefined || Date.parse(run.updatedAt) > Date.parse(String(filters.updatedAfter)),
    (run) =>
      filters.updatedBefore === undefined || Date.parse(run.updatedAt) < Date.parse(String(filters.updatedBefore)),
  ];
  return (run: RunView) => checks.every((check) => check(run));
}

/** Resolves with `wait`, or rejects as soon as `signal` aborts (the client closed its connection). */
async function untilGone(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  const gone = () => new ApiError(400, 'request_cancelled', 'The client went away before the run finished.');
  if (!signal) return wait;
  if (signal.aborted) throw gone();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(gone());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([wait, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
