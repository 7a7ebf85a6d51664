/** The list operations: suppressions (filtered and counted), allocations and recipes, each of the caller's workspace. */
import type { Express, Request, Response } from 'express';
import type { Context } from './context';
import { callerOf, extra, queryOf, route, uuidField } from './http';
import { REASONS } from './seed';

/** The list a broken server reads from every workspace, else the caller's. */
function scoped<K extends 'allocations' | 'recipes'>(
  ctx: Context,
  res: Response,
  kind: K,
  unscoped: boolean,
): Array<Record<string, unknown>> {
  const { a, b } = ctx.workspaces;
  return unscoped ? [...a[kind], ...b[kind]] : callerOf(res)[kind];
}

const page = (ctx: Context, list: Array<Record<string, unknown>>, q: Record<string, unknown>) => {
  const offset = (q.offset as number | undefined) ?? 0;
  return list.slice(offset, offset + ((q.limit as number | undefined) ?? ctx.readings.pageSize));
};

function listSuppressions(ctx: Context, req: Request, res: Response) {
  const { broken } = ctx;
  const q = queryOf(ctx, req, 'listSuppressions query', {
    reasons: { type: 'array', items: { type: 'string', enum: REASONS } },
    limit: { type: 'integer', min: broken('limit-zero-accepted') ? 0 : 1, max: 1000 },
    offset: { type: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER },
  });
  const wanted = q.reasons as string[] | undefined;
  const filter = broken('reasons-first-value-only') && wanted ? wanted.slice(0, 1) : wanted;
  const all = [...callerOf(res).suppressions].sort((x, y) => String(x.email).localeCompare(String(y.email)));
  // A broken list filters every workspace's suppressions once a filter is given.
  const unscoped =
    broken('list-unscoped /mailboxManagement/suppressions') ||
    Object.keys(req.query).some((name) => broken(`list-filter-unscoped ${name}`));
  const searched = unscoped ? [...ctx.workspaces.a.suppressions, ...ctx.workspaces.b.suppressions] : all;
  const matching = filter ? searched.filter((s) => filter.includes(s.reason as string)) : searched;
  const shown = page(ctx, matching, q);
  const count = broken('count-ignores-filter')
    ? all.length
    : broken('count-is-page-length')
      ? shown.length
      : matching.length;
  // The Suppression is closed (no additional properties): an extra field is a mutant.
  res.json({
    count,
    suppressions: broken('suppression-extra-field') ? shown.map((s) => ({ ...s, source: 'import' })) : shown,
  });
}

function listAllocations(ctx: Context, req: Request, res: Response) {
  const q = queryOf(ctx, req, 'listAllocations query', {
    memberUuids: { type: 'array', items: { type: 'string' } },
    capacityUuid: uuidField,
    territoryUuid: uuidField,
    limit: { type: 'integer', min: 1, max: 500 },
    offset: { type: 'integer', min: 0 },
  });
  let list = scoped(ctx, res, 'allocations', ctx.broken('list-unscoped /revenueOrganization/allocations/list'));
  if (q.memberUuids) list = list.filter((a) => (q.memberUuids as string[]).includes(a.memberUuid as string));
  if (q.capacityUuid) list = list.filter((a) => a.capacityUuid === q.capacityUuid);
  res.json({ allocations: page(ctx, list, q).map((a) => extra(ctx, a)) });
}

function listRecipes(ctx: Context, req: Request, res: Response) {
  const q = queryOf(ctx, req, 'listRecipes query', {
    uiTypes: { type: 'array', items: { type: 'string', enum: ['ai', 'js'] } },
    tab: { type: 'string', enum: ['all', 'user', 'workspace', 'favorites'] },
    categories: {
      type: 'array',
      items: {
        type: 'string',
        enum: ['other', 'classification', 'cleaning', 'marketing', 'sales', 'event', 'copywriting'],
      },
    },
    name: { type: 'string' },
    limit: { type: 'integer', min: 1, max: 200 },
    offset: { type: 'integer', min: 0 },
  });
  let list = scoped(ctx, res, 'recipes', ctx.broken('list-unscoped /expression/recipes/list'));
  if (ctx.broken('deprecation-header')) res.set('Deprecation', `@${Math.floor(Date.now() / 1000)}`);
  const name = q.name;
  if (typeof name === 'string') list = list.filter((r) => String(r.name).toLowerCase().includes(name.toLowerCase()));
  res.json({ recipes: page(ctx, list, q).map((r) => extra(ctx, r)) });
}

export function mountLists(app: Express, ctx: Context): void {
  app.get(
    '/v1/mailboxManagement/suppressions',
    route((req, res) => listSuppressions(ctx, req, res)),
  );
  app.get(
    '/v1/revenueOrganization/allocations/list',
    route((req, res) => listAllocations(ctx, req, res)),
  );
  app.get(
    '/v1/expression/recipes/list',
    route((req, res) => listRecipes(ctx, req, res)),
  );
}
