/**
 * The asynchronous jobs: runs and batches (created with 202 and a Location, polled to a terminal status, cancelled),
 * and run exports (an NDJSON file per export, for the workspace that asked for it only).
 */
import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { HttpError, iso, runOf, type Batch, type Context, type Run, type Workspace } from './context';
import { absolute, bodyOf, callerOf, extra, notFound, pathId, route, uuidField } from './http';

export function statusOf(ctx: Context, run: Run, now: number): string {
  if (run.status) return run.status;
  if (run.cancelledAt !== undefined) return now - run.cancelledAt > 100 ? 'cancelled' : 'cancelling';
  if (now >= run.finishAt && !ctx.broken('run-never-finishes'))
    return ctx.broken('run-finishes-outside-set') && !run.batchUuid ? 'done' : 'success';
  return now - run.createdAt < ctx.runDurationMs / 3 ? 'pending' : 'running';
}

function runView(ctx: Context, run: Run, now = Date.now()) {
  const { terminal } = ctx.facts;
  let status = statusOf(ctx, run, now);
  if (ctx.broken('run-leaves-terminal') && terminal.includes(status) && now - run.finishAt > 150) status = 'running';
  return extra(ctx, {
    uuid: run.uuid,
    status,
    workflowUuid: run.workflowUuid,
    batchUuid: run.batchUuid,
    recordId: run.recordId,
    recordTitle: run.recordTitle,
    createdAt: iso(run.createdAt),
    updatedAt: iso(Math.min(now, run.finishAt)),
    finishedAt: terminal.includes(status) || status === 'done' ? iso(run.finishAt) : null,
  });
}

export function batchStatus(ctx: Context, batch: Batch, now: number): string {
  const { terminal } = ctx.facts;
  const statuses = batch.runs.map((id) => statusOf(ctx, runOf(ctx, id), now));
  if (statuses.every((s) => terminal.includes(s)))
    return statuses.every((s) => s === 'cancelled') && statuses.length > 0
      ? 'cancelled'
      : ctx.broken('batch-finishes-completed')
        ? 'completed'
        : 'success';
  return 'pending';
}

function ownRun(ctx: Context, req: Request, res: Response, op: 'getRun' | 'cancelRun'): Run {
  const id = pathId(ctx, req, `${op} path`);
  const run = ctx.runs.get(id);
  if (
    !run ||
    (run.workspaceUuid !== callerOf(res).uuid &&
      !ctx.broken(op === 'cancelRun' ? 'cancel-cross-workspace' : 'runs-readable-cross-workspace'))
  )
    return notFound(ctx, 'run');
  return run;
}

function locate(ctx: Context, req: Request, res: Response, kind: 'runs' | 'batches', uuid: string): void {
  const withoutV1 = ctx.broken('location-without-v1');
  let location: string;
  if (withoutV1) location = `/orchestration/${kind}/${uuid}`;
  else if (ctx.readings.location === 'absolute') location = absolute(req, `/v1/orchestration/${kind}/${uuid}`);
  // Relative to the request URL (RFC 3986): from …/runs the last segment is replaced, from …/runs/<id>/cancel two are.
  else location = req.path.endsWith('/cancel') ? `../${uuid}` : `${kind}/${uuid}`;
  if (!ctx.broken('drop-header Location')) res.set('Location', location);
  if (ctx.broken('retry-after-on-202')) res.set('Retry-After', '1');
}

function newRun(
  ctx: Context,
  fields: Pick<Run, 'workspaceUuid' | 'recordId' | 'recordTitle' | 'workflowUuid' | 'batchUuid'>,
  now: number,
): Run {
  const run: Run = { uuid: randomUUID(), ...fields, createdAt: now, finishAt: now + ctx.runDurationMs };
  ctx.runs.set(run.uuid, run);
  return run;
}

async function createRun(ctx: Context, req: Request, res: Response) {
  const body = bodyOf(ctx, req, 'createRun body', {
    workflowUuid: uuidField,
    releaseUuid: uuidField,
    recordId: { type: 'string' },
    recordTitle: { type: 'string' },
    input: { type: 'object' },
    waitUntilFinished: { type: 'boolean' },
  });
  const run = newRun(
    ctx,
    {
      workspaceUuid: callerOf(res).uuid,
      recordId: body.recordId ?? null,
      recordTitle: body.recordTitle ?? null,
      workflowUuid: body.workflowUuid ?? null,
      batchUuid: null,
    },
    Date.now(),
  );
  const waits = body.waitUntilFinished === true && !ctx.broken('wait-true-answers-202');
  if (waits || (ctx.broken('wait-false-answers-200') && body.waitUntilFinished === false)) {
    await new Promise((resolve) => setTimeout(resolve, ctx.runDurationMs + 5));
    res.status(200).json({ run: runView(ctx, run) });
    return;
  }
  locate(ctx, req, res, 'runs', run.uuid);
  res.status(ctx.broken('status 202') ? 200 : 202).json({ run: runView(ctx, run) });
}

function cancelRun(ctx: Context, req: Request, res: Response) {
  const run = ownRun(ctx, req, res, 'cancelRun');
  const now = Date.now();
  const finished = ctx.facts.terminal.includes(statusOf(ctx, run, now));
  if (finished && !ctx.broken('cancel-reopens-finished-run'))
    return res.status(200).json({ run: runView(ctx, run, now) });
  run.cancelledAt ??= now;
  run.finishAt = Math.min(run.finishAt, now + 100);
  run.status = undefined;
  if (ctx.broken('cancel-answers-200')) return res.status(200).json({ run: runView(ctx, run, now) });
  locate(ctx, req, res, 'runs', run.uuid);
  res.status(202).json({ run: runView(ctx, run, now) });
}

function createBatch(ctx: Context, req: Request, res: Response) {
  const body = bodyOf(ctx, req, 'createBatch body', {
    workflowUuid: uuidField,
    recordIds: { type: 'array', items: { type: 'string' } },
  });
  const now = Date.now();
  const batch: Batch = {
    uuid: randomUUID(),
    workspaceUuid: callerOf(res).uuid,
    workflowUuid: body.workflowUuid ?? null,
    runs: [],
    createdAt: now,
  };
  for (const recordId of (body.recordIds as string[] | undefined) ?? ['conformance-record']) {
    const { workspaceUuid, workflowUuid } = batch;
    const run = newRun(ctx, { workspaceUuid, recordId, recordTitle: null, workflowUuid, batchUuid: batch.uuid }, now);
    batch.runs.push(run.uuid);
  }
  ctx.batches.set(batch.uuid, batch);
  locate(ctx, req, res, 'batches', batch.uuid);
  res.status(202).json({
    batch: extra(ctx, {
      uuid: batch.uuid,
      status: batchStatus(ctx, batch, now),
      runsStatus: 'healthy',
      createdAt: iso(now),
    }),
  });
}

function getBatch(ctx: Context, req: Request, res: Response) {
  const { terminal } = ctx.facts;
  const id = pathId(ctx, req, 'getBatch path');
  const batch = ctx.batches.get(id);
  if (!batch || (batch.workspaceUuid !== callerOf(res).uuid && !ctx.broken('batches-readable-cross-workspace')))
    return notFound(ctx, 'batch');
  const now = Date.now();
  let status = batchStatus(ctx, batch, now);
  // A broken batch falls back to pending once it was seen finished.
  if (ctx.broken('batch-leaves-terminal') && terminal.includes(status) && batch.seenTerminal) status = 'pending';
  if (terminal.includes(status)) batch.seenTerminal = true;
  res.json({
    batch: extra(ctx, {
      uuid: batch.uuid,
      status,
      runsStatus: 'healthy',
      workflowUuid: batch.workflowUuid,
      createdAt: iso(batch.createdAt),
      finishedAt: terminal.includes(status) || status === 'completed' ? iso(now) : null,
    }),
  });
}

/** Whether a run passes the export's filters. */
function selects(ctx: Context, body: Record<string, unknown>, run: Run, now: number): boolean {
  const named = body.uuids as string[] | undefined;
  return (
    (!named || named.includes(run.uuid)) &&
    (body.batchUuid === undefined || run.batchUuid === body.batchUuid) &&
    (body.recordTitle === undefined || run.recordTitle === body.recordTitle) &&
    (body.recordId === undefined || run.recordId === body.recordId) &&
    (body.recordTitleOrId === undefined || [run.recordTitle, run.recordId].includes(body.recordTitleOrId as string)) &&
    (body.statuses === undefined || (body.statuses as string[]).includes(statusOf(ctx, run, now))) &&
    (body.isFinished === undefined || ctx.facts.terminal.includes(statusOf(ctx, run, now)) === body.isFinished)
  );
}

function downloadRuns(ctx: Context, req: Request, res: Response) {
  bodyOf(ctx, req, 'downloadRuns body', {
    workflowUuid: uuidField,
    releaseUuid: uuidField,
    batchUuid: uuidField,
    parentBatchUuid: uuidField,
    parentUuid: uuidField,
    parentNodeUuid: uuidField,
    uuids: { type: 'array', items: uuidField },
    statuses: { type: 'array', items: { type: 'string', enum: ctx.facts.runStatuses } },
    recordId: { type: 'string' },
    recordTitle: { type: 'string' },
    recordTitleOrId: { type: 'string' },
    isFinished: { type: 'boolean' },
    isGroupParent: { type: 'boolean' },
    createdAfter: { type: 'string' },
    createdBefore: { type: 'string' },
    updatedAfter: { type: 'string' },
    updatedBefore: { type: 'string' },
  });
  const body = req.body as Record<string, unknown>;
  const caller = callerOf(res);
  const scoped = [...ctx.runs.values()].filter(
    (run) => run.workspaceUuid === caller.uuid || ctx.broken('export-includes-other-workspaces'),
  );
  // A broken export looks runs named by uuid up among every workspace's.
  const pool = Object.keys(body).some((field) => ctx.broken(`export-filter-unscoped ${field}`))
    ? [...ctx.runs.values()]
    : scoped;
  const now = Date.now();
  const selected = pool.filter((run) => selects(ctx, body, run, now));
  const id = randomUUID();
  ctx.exportFiles.set(id, { workspaceUuid: caller.uuid, runs: selected.map((run) => run.uuid) });
  if (ctx.exportFiles.size > 1000) ctx.exportFiles.delete(ctx.exportFiles.keys().next().value as string);
  res.json({ url: absolute(req, `/exports/${id}.ndjson`), expiresInSeconds: 900 });
}

/** The export's NDJSON file, one run a line, for the workspace that asked for it only (outside /v1). */
function exportFile(ctx: Context, req: Request, res: Response) {
  const caller = res.locals.caller as Workspace | undefined;
  if (!caller) throw new HttpError(401, 'credential_missing', 'Send Authorization: Bearer <API token>.');
  const file = ctx.exportFiles.get(String(req.params.file).replace(/\.ndjson$/, ''));
  if (!file || file.workspaceUuid !== caller.uuid) return notFound(ctx, 'export');
  const now = Date.now();
  res
    .type('application/x-ndjson')
    .send(file.runs.map((uuid) => JSON.stringify(runView(ctx, runOf(ctx, uuid), now))).join('\n'));
}

export function mountJobs(app: Express, ctx: Context): void {
  app.post(
    '/v1/orchestration/runs/download',
    route((req, res) => downloadRuns(ctx, req, res)),
  );
  app.post(
    '/v1/orchestration/runs',
    route((req, res) => createRun(ctx, req, res)),
  );
  app.get(
    '/v1/orchestration/runs/:uuid',
    route((req, res) => {
      res.json({ run: runView(ctx, ownRun(ctx, req, res, 'getRun')) });
    }),
  );
  app.post(
    '/v1/orchestration/runs/:uuid/cancel',
    route((req, res) => cancelRun(ctx, req, res)),
  );
  app.post(
    '/v1/orchestration/batches',
    route((req, res) => createBatch(ctx, req, res)),
  );
  app.get(
    '/v1/orchestration/batches/:uuid',
    route((req, res) => getBatch(ctx, req, res)),
  );
  app.get(
    '/exports/:file',
    route((req, res) => exportFile(ctx, req, res)),
  );
}
