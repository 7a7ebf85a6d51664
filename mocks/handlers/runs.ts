import { jsonResponse } from '../context';
import { createRunRecord, runsOfBatch, isTerminal, requestRunCancel, runFinishesAt, viewBatch, viewRun, type RunView } from '../store/runs';
import type { JsonRecord, RunRecord, WorkspaceState } from '../store/types';
import { notFound } from './paging';
import { nextUuid } from './resources';
import type { HandlerDeps, Handlers } from './types';

/** Polling hint while the work is unfinished (header PollRetryAfter). */

/** Async runs and batches (x-rules async-202-location, async-poll-terminal), plus the runs download. */
export function runHandlers(deps: HandlerDeps): Handlers {
  const locationOf = (origin: string, kind: 'runs' | 'batches', uuid: string) => `${origin}${deps.basePath}/orchestration/${kind}/${uuid}`;

  const newRun = (state: WorkspaceState, fields: Partial<RunRecord>): RunRecord => {
    const run = createRunRecord({ uuid: nextUuid(), workspaceUuid: state.workspaceUuid, createdAtMs: deps.now(), durationMs: deps.runDurationMs, ...fields });
    state.runs.set(run.uuid, run);
    const createdAt = new Date(run.createdAtMs).toISOString();
    state.logs.push({ uuid: nextUuid(), workspaceUuid: state.workspaceUuid, runUuid: run.uuid, level: 'info', message: 'run created', createdAt });
    state.spans.push({ uuid: nextUuid(), workspaceUuid: state.workspaceUuid, runUuid: run.uuid, parentSpanUuid: null, name: 'run', startedAt: createdAt, endedAt: null, durationMs: null });
    return run;
  };

  const runResponse = (status: number, run: RunRecord, headers: Record<string, string> = {}) => {
    const view = viewRun(run, deps.now());
    return jsonResponse(status, { run: view }, headers);
  };

  return {
    async createRun(ctx) {
      const state = deps.store.workspace(ctx.caller!.workspaceUuid);
      const body = ctx.req.body as JsonRecord;
      const run = newRun(state, {
        workflowUuid: (body.workflowUuid as string | undefined) ?? null,
        releaseUuid: (body.releaseUuid as string | undefined) ?? null,
        recordId: (body.recordId as string | undefined) ?? null,
        recordTitle: (body.recordTitle as string | undefined) ?? null,
      });
      if (body.waitUntilFinished === true) {
        // Timers may fire a little before the clock reaches the finish time: wait until the run is terminal.
        while (!isTerminal(viewRun(run, deps.now()).status)) await deps.sleep(Math.max(1, runFinishesAt(run) - deps.now()));
        return runResponse(200, run);
      }
      return runResponse(202, run, { location: locationOf(ctx.origin, 'runs', run.uuid) });
    },

    getRun(ctx) {
      const uuid = String(ctx.input!.path.uuid).toLowerCase();
      const run = deps.store.workspace(ctx.caller!.workspaceUuid).runs.get(uuid);
      if (!run) throw notFound('run', uuid);
      // No Retry-After on polls: the contract sends it on 429 only.
      return runResponse(200, run);
    },

    /** An unfinished run goes through `cancelling` to `cancelled` (202); a finished one is returned as it is (200). */
    cancelRun(ctx) {
      const uuid = String(ctx.input!.path.uuid).toLowerCase();
      const run = deps.store.workspace(ctx.caller!.workspaceUuid).runs.get(uuid);
      if (!run) throw notFound('run', uuid);
      const now = deps.now();
      if (requestRunCancel(run, now) || !isTerminal(viewRun(run, now).status)) {
        return runResponse(202, run, { location: locationOf(ctx.origin, 'runs', run.uuid) });
      }
      return runResponse(200, run);
    },

    createBatch(ctx) {
      const state = deps.store.workspace(ctx.caller!.workspaceUuid);
      const body = ctx.req.body as JsonRecord;
      const workflowUuid = (body.workflowUuid as string | undefined) ?? null;
      const batch = { uuid: nextUuid(), workspaceUuid: state.workspaceUuid, workflowUuid, createdAtMs: deps.now(), durationMs: deps.runDurationMs, runUuids: [] as string[] };
      state.batches.set(batch.uuid, batch);
      for (const recordId of (body.recordIds as string[] | undefined) ?? []) {
        batch.runUuids.push(newRun(state, { workflowUuid, batchUuid: batch.uuid, parentBatchUuid: batch.uuid, recordId }).uuid);
      }
      return jsonResponse(202, { batch: viewBatch(batch, deps.now(), runsOfBatch(state, batch)) }, { location: locationOf(ctx.origin, 'batches', batch.uuid) });
    },

    getBatch(ctx) {
      const uuid = String(ctx.input!.path.uuid).toLowerCase();
      const state = deps.store.workspace(ctx.caller!.workspaceUuid);
      const batch = state.batches.get(uuid);
      if (!batch) throw notFound('batch', uuid);
      return jsonResponse(200, { batch: viewBatch(batch, deps.now(), runsOfBatch(state, batch)) });
    },

    /** The export is taken now and served by the mock itself at an opaque URL outside /v1. */
    downloadRuns(ctx) {
      const state = deps.store.workspace(ctx.caller!.workspaceUuid);
      const now = deps.now();
      const selected = [...state.runs.values()].map((run) => viewRun(run, now)).filter(matchesFilters(ctx.req.body as JsonRecord));
      const id = deps.store.saveDownload({ workspaceUuid: state.workspaceUuid, runs: selected, createdAtMs: now });
      return jsonResponse(200, { url: `${ctx.origin}/downloads/${id}` });
    },
  };
}

/** The DownloadRunsRequest filters; all given filters must hold. */
export function matchesFilters(filters: JsonRecord) {
  const equal = (field: keyof RunView) => (run: RunView) => filters[field] === undefined || run[field] === filters[field];
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
    (run) => filters.recordTitleOrId === undefined || run.recordId === filters.recordTitleOrId || run.recordTitle === filters.recordTitleOrId,
    (run) => filters.isFinished === undefined || isTerminal(run.status) === filters.isFinished,
    (run) => filters.createdAfter === undefined || Date.parse(run.createdAt) > Date.parse(String(filters.createdAfter)),
    (run) => filters.createdBefore === undefined || Date.parse(run.createdAt) < Date.parse(String(filters.createdBefore)),
    (run) => filters.updatedAfter === undefined || Date.parse(run.updatedAt) > Date.parse(String(filters.updatedAfter)),
    (run) => filters.updatedBefore === undefined || Date.parse(run.updatedAt) < Date.parse(String(filters.updatedBefore)),
  ];
  return (run: RunView) => checks.every((check) => check(run));
}
