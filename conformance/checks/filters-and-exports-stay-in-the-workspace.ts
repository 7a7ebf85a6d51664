/**
 * x-rules: workspace-scoping — "All data is scoped to the workspace of the caller", whichever way it is reached:
 * every filter of every list (each set to a value taken from workspace B's own items) and the runs export with no
 * filter and with each of its filters set to select workspace B's run (its uuid, its batch — batch membership —,
 * its record, every status, a time range around it). With --token-b, workspace A's answers, and the export file
 * behind the URL when it is on the target's origin, never name workspace B's workspace, run, batch or items.
 * Proved by fixtures/broken/export-includes-other-workspaces.ts (and the independent server's list-filter-unscoped,
 * export-filter-unscoped mutants).
 */
import { CheckSkipped } from '../lib/failure';
import { envelope } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';
import { conformanceName, requestBodySchema, RUN_STATUSES, unknownUuid } from '../lib/operations';
import { workspaceUuidOf } from '../lib/query';
import type { Operation } from '../../spec/lib';
import { hasPathParameter } from './inputs';
import { defineCheck, type CheckContext } from './registry';

type Item = Record<string, unknown>;

/** Items of the first array-valued property of a list answer; public items (recipes) are shared by design. */
function ownItems(body: unknown): Item[] {
  if (!body || typeof body !== 'object') return [];
  const array = Object.values(body as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined;
  return (array ?? []).filter(
    (item): item is Item => !!item && typeof item === 'object' && (item as Item).isPublic !== true,
  );
}

/** A value of a list filter that would select one of workspace B's items, read from the parameter's schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parameter's JSON Schema walked by key
function filterValue(schema: Record<string, any>, name: string, itemsB: Item[]): string[] {
  const fromB = itemsB.map((item) => item[name.replace(/s$/, '')] ?? item[name]).find((v) => typeof v === 'string');
  if (schema.type === 'array') {
    const values: unknown[] = schema.items?.enum ?? (typeof fromB === 'string' ? [fromB] : [unknownUuid()]);
    return values.map(String);
  }
  if (schema.enum) return [String(schema.enum[0])];
  if (schema.type === 'integer')
    return [String(/offset|skip/i.test(name) ? 0 : Math.min(schema.maximum ?? 1000, 1000))];
  if (schema.format === 'uuid' || /uuid$/i.test(name)) return [typeof fromB === 'string' ? fromB : unknownUuid()];
  const named = itemsB.map((item) => item.name).find((v) => typeof v === 'string');
  return [typeof named === 'string' ? named : 'a'];
}

/** Bodies of the export, each setting one filter to select workspace B's run (booleans both ways). */
function exportBodies(op: Operation, run: Item, batchUuid: string | undefined): Array<{ field: string; body: Item }> {
  const hour = 3_600_000;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body schema's properties, JSON Schema walked by key
  const properties: Record<string, any> = requestBodySchema(op)?.properties ?? {};
  const bodies: Array<{ field: string; body: Item }> = [{ field: '(no filter)', body: {} }];
  for (const [field, schema] of Object.entries(properties)) {
    let values: unknown[];
    if (field === 'uuids') values = [[run.uuid]];
    else if (/batchUuid$/i.test(field)) values = [batchUuid ?? run.batchUuid ?? unknownUuid()];
    else if (field === 'statuses') values = [[...RUN_STATUSES]];
    else if (schema.type === 'boolean') values = [true, false];
    else if (/After$/.test(field)) values = [new Date(Date.now() - hour).toISOString()];
    else if (/Before$/.test(field)) values = [new Date(Date.now() + hour).toISOString()];
    else if (/Uuid$/.test(field)) values = [typeof run[field] === 'string' ? run[field] : unknownUuid()];
    else values = [run[field] ?? run.recordTitle ?? run.recordId];
    for (const value of values)
      if (value !== undefined && value !== null) bodies.push({ field, body: { [field]: value } });
  }
  return bodies;
}

const mentions = (text: string, needles: string[]) => needles.find((needle) => text.includes(needle));

async function listFilters(ctx: CheckContext, needles: string[]): Promise<number> {
  let tried = 0;
  const lists = ctx.contract.operations.filter(
    (op) => op.method === 'GET' && !op.path.includes('{') && op.parameters.some((p) => p.in === 'query'),
  );
  for (const op of lists) {
    const own = await ctx.send({ method: 'GET', path: op.path, auth: 'b', operationId: op.operationId });
    const itemsB = ownItems(own.response?.body);
    const uuidsB = itemsB.map((item) => item.uuid).filter((uuid): uuid is string => typeof uuid === 'string');
    // The largest page the list allows, so another workspace's items cannot hide past the first one.
    const page = op.parameters.find((p) => p.in === 'query' && p.name === 'limit');
    for (const parameter of op.parameters.filter((p) => p.in === 'query')) {
      const query = filterValue(parameter.schema, parameter.name, itemsB).map((v): [string, string] => [
        parameter.name,
        v,
      ]);
      if (page && parameter !== page) query.push(['limit', filterValue(page.schema, 'limit', itemsB)[0]]);
      const seen = await ctx.send({ method: 'GET', path: op.path, query, auth: 'a', operationId: op.operationId });
      tried++;
      const leaked = ownItems(seen.response?.body).find(
        (item) => uuidsB.includes(item.uuid as string) || needles.includes(item.workspaceUuid as string),
      );
      if (leaked)
        ctx.report({
          title: `${op.operationId} filtered by ${parameter.name} shows workspace B's items to workspace A`,
          expected: "only workspace A's items, whatever the filter selects",
          received: JSON.stringify(leaked).slice(0, 300),
          exchange: seen,
        });
    }
  }
  return tried;
}

/** The export's file when its URL is on the target's origin (never elsewhere: the suite sends nothing off target). */
async function exportedFile(ctx: CheckContext, answer: Exchange): Promise<Exchange | undefined> {
  const url = (answer.response?.body as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string') return undefined;
  let resolved: URL;
  try {
    resolved = new URL(url, answer.request.url);
  } catch {
    return undefined;
  }
  if (resolved.origin !== new URL(ctx.config.target).origin) return undefined;
  return ctx.send({ method: 'GET', path: resolved.toString(), auth: 'a' });
}

async function judgeExports(ctx: CheckContext, needles: string[], run: Item, batchUuid?: string): Promise<string> {
  const op = ctx.contract.operations.find(
    (o) => o.method === 'POST' && !o.path.includes('{') && /download|export/i.test(o.path),
  );
  if (!op) return 'no export operation';
  let fetched = 0;
  let elsewhere = 0;
  for (const { field, body } of exportBodies(op, run, batchUuid)) {
    const answer = await ctx.send({ method: op.method, path: op.path, body, auth: 'a', operationId: op.operationId });
    const inAnswer = mentions(answer.response?.text ?? '', needles);
    const file = inAnswer ? undefined : await exportedFile(ctx, answer);
    if (file) fetched++;
    else if (!inAnswer && answer.response?.status === 200) elsewhere++;
    const leaked = inAnswer ?? (file && mentions(file.response?.text ?? '', needles));
    if (leaked)
      ctx.report({
        title: `${op.operationId} ${field === '(no filter)' ? 'without a filter' : `filtered by ${field}`} exports workspace B's data to workspace A`,
        expected: "only workspace A's runs in the export",
        received: `the export names ${leaked}`,
        sequence: [answer],
        exchange: file ?? answer,
      });
  }
  return `${fetched} export files read${elsewhere > 0 ? `, ${elsewhere} on another origin not fetched` : ''}`;
}

export const filtersAndExportsStayInTheWorkspace = defineCheck({
  id: 'filters-and-exports-stay-in-the-workspace',
  ruleId: 'workspace-scoping',
  title: "No list filter and no export shows another workspace's data.",
  fixture: 'export-includes-other-workspaces',
  covers: [
    'workspace-scoping: * via list filter *',
    'workspace-scoping: * via export*',
    'workspace-scoping: * via batch membership*',
  ],
  inputs: {
    operations: (op) => (op.method === 'GET' && !hasPathParameter(op)) || op.operationId === 'downloadRuns',
    reads: { parts: ['operation', 'security', 'parameter', 'request-body'], statuses: ['2XX'] },
  },
  async run(ctx) {
    if (!ctx.config.tokenB) throw new CheckSkipped('needs --token-b (the token of a second workspace)');
    const needles: string[] = [];
    const [workspaceA, workspaceB] = [await workspaceUuidOf(ctx, 'a'), await workspaceUuidOf(ctx, 'b')];
    if (workspaceB && workspaceB !== workspaceA) needles.push(workspaceB);
    const title = conformanceName();
    const body = { ...(ctx.config.createRunBody as Item), recordTitle: title, recordId: title };
    const created = ctx.contract.findOperation('POST', ctx.config.createRunPath)
      ? await ctx.send({ method: 'POST', path: ctx.config.createRunPath, body, auth: 'b' })
      : undefined;
    const run = (envelope(created?.response?.body, 'run') ?? {}) as Item;
    if (typeof run.uuid === 'string') needles.push(run.uuid);
    const batchOp = ctx.contract.operation('createBatch');
    const batch = batchOp
      ? await ctx.send({ method: 'POST', path: batchOp.path, body: {}, auth: 'b', operationId: batchOp.operationId })
      : undefined;
    const batchUuid = envelope(batch?.response?.body, 'batch')?.uuid;
    if (typeof batchUuid === 'string') needles.push(batchUuid);
    const filters = await listFilters(ctx, needles);
    const exported =
      needles.length > 0 && typeof run.uuid === 'string'
        ? await judgeExports(
            ctx,
            needles,
            { recordTitle: title, recordId: title, ...run },
            batchUuid as string | undefined,
          )
        : 'not tried: workspace B could not create a run';
    ctx.note(`${filters} filtered lists; exports: ${exported}`);
  },
});
