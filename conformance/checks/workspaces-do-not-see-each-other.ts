/**
 * x-rules: workspace-scoping — With --token-b: what workspace B creates (a run, an MCP server) is never visible
 * with workspace A's token (GET by id, the SQL query), and lists of the two workspaces share no item. Every read by
 * id whose collection has a list is derived from the contract (listedReads): an id of B's list, read as A.
 * Proved by fixtures/broken/run-visible-to-other-workspace.ts.
 */
import { CheckSkipped } from '../lib/failure';
import { describe, envelope } from '../lib/exchange';
import { conformanceName } from '../lib/operations';
import { asObject, jsonContent, type Contract, type Operation } from '../../spec/lib';
import { hasPathParameter } from './inputs';
import { defineCheck, type CheckContext } from './registry';

type Listed = { uuid?: unknown; workspaceUuid?: unknown; isPublic?: unknown };

/** Items of the first array-valued property of a list response. */
function listItems(body: unknown): Listed[] {
  if (!body || typeof body !== 'object') return [];
  const array = Object.values(body as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined;
  return (array ?? []).filter((item): item is Listed => !!item && typeof item === 'object');
}

async function compareLists(ctx: CheckContext): Promise<void> {
  const lists = ctx.contract.operations.filter(
    (op) => op.method === 'GET' && !op.path.includes('{') && op.parameters.every((p) => !p.required),
  );
  for (const op of lists) {
    const [a, b] = await Promise.all(
      ['a', 'b'].map((auth) =>
        ctx.send({ method: 'GET', path: op.path, auth: auth as 'a' | 'b', operationId: op.operationId }),
      ),
    );
    // Public items (recipes marked isPublic) are shared by design; everything else belongs to one workspace.
    const own = (items: Listed[]) => items.filter((item) => item.isPublic !== true);
    const itemsA = own(listItems(a.response?.body));
    const itemsB = own(listItems(b.response?.body));
    const uuidsB = new Set<unknown>(
      itemsB.map((item) => item.uuid).filter((uuid) => uuid !== undefined && uuid !== null),
    );
    const shared = itemsA.find((item) => uuidsB.has(item.uuid));
    if (shared)
      ctx.report({
        title: `${op.operationId} lists an item to both workspaces`,
        expected: 'disjoint lists',
        received: `uuid ${String(shared.uuid)} in both`,
        exchange: b,
      });
    const workspacesA = new Set<unknown>(itemsA.map((item) => item.workspaceUuid).filter((w) => typeof w === 'string'));
    const leaked = itemsB.find(
      (item) => typeof item.workspaceUuid === 'string' && workspacesA.has(item.workspaceUuid as string),
    );
    if (leaked)
      ctx.report({
        title: `${op.operationId} shows workspace A's items to workspace B`,
        expected: `no item of workspace ${String(leaked.workspaceUuid)}`,
        received: JSON.stringify(leaked).slice(0, 300),
        exchange: b,
      });
  }
}

type Target = { kind: string; op: string; path: (id: string) => string; method: string };

/** A read by id whose collection has a list: the GET, the list beside it and the path parameter naming the id. */
export type ListedRead = { get: Operation; list: Operation; param: string };

/**
 * Every GET of one record by a `{uuid}`-like path parameter whose collection (its path without that parameter, or
 * that path's `/list`) has a list operation the suite can call without arguments: derived from the contract, so
 * a read by id added to it is tried without an edit here.
 */
export function listedReads(contract: Pick<Contract, 'operations'>): ListedRead[] {
  const reads: ListedRead[] = [];
  for (const get of contract.operations) {
    const match = /^(.*)\/\{([^}/]+)\}$/.exec(get.path);
    if (get.method !== 'GET' || !match || !/uuid$|id$/i.test(match[2])) continue;
    const list = contract.operations.find(
      (op) =>
        op.method === 'GET' &&
        (op.path === match[1] || op.path === `${match[1]}/list`) &&
        op.parameters.every((p) => !p.required),
    );
    if (list) reads.push({ get, list, param: match[2] });
  }
  return reads;
}

/** What a read by id answers, as its 200 body names it (`{ suppression }`), else its operation id. */
function kindOf(get: Operation): string {
  const schema = asObject(jsonContent(get.responses['200']?.content)?.schema);
  return Object.keys(asObject(schema.properties))[0] ?? get.operationId;
}

/**
 * Reads by id of the listed collections (listedReads): an item of workspace B's own list that B itself reads by id
 * (public items, shared by design, left out), to be read with A's token. Operations already among `targets` are not
 * tried twice.
 */
async function listedTargets(ctx: CheckContext, targets: Target[]): Promise<void> {
  for (const { get, list, param } of listedReads(ctx.contract)) {
    if (targets.some((t) => t.op === get.operationId)) continue;
    const listed = await ctx.send({ method: 'GET', path: list.path, auth: 'b', operationId: list.operationId });
    const item = listItems(listed.response?.body).find((i) => i.isPublic !== true);
    const id = (item as Record<string, unknown> | undefined)?.[param] ?? item?.uuid;
    if (typeof id !== 'string') {
      ctx.note(`${list.operationId} listed nothing of workspace B's own: ${get.operationId} not tried`);
      continue;
    }
    const path = get.path.replace(`{${param}}`, encodeURIComponent(id));
    const own = await ctx.send({ method: 'GET', path, auth: 'b', operationId: get.operationId });
    if (own.response?.status === 200)
      targets.push({ kind: kindOf(get), op: get.operationId, method: 'GET', path: () => path });
    else
      ctx.note(
        `workspace B could not read its own ${list.operationId} item by id (${describe(own)}): ${get.operationId} not tried`,
      );
  }
}

/**
 * Every other kind the suite can create or discover in workspace B: a batch it creates, workflows and models its
 * SQL query names (fetched by B first, so only ids B really sees count), and cancelling B's run with A's token.
 */
async function otherKinds(ctx: CheckContext): Promise<void> {
  const targets: Target[] = [];
  const batchOp = ctx.contract.operation('createBatch');
  const getBatch = ctx.contract.operation('getBatch');
  if (batchOp && getBatch) {
    const created = await ctx.send({
      method: batchOp.method,
      path: batchOp.path,
      body: {},
      auth: 'b',
      operationId: batchOp.operationId,
    });
    const uuid = envelope(created.response?.body, 'batch')?.uuid;
    if (typeof uuid === 'string')
      targets.push({
        kind: 'batch',
        op: getBatch.operationId,
        method: 'GET',
        path: () => getBatch.path.replace('{uuid}', uuid),
      });
  }
  const query = ctx.contract.operation('executeQuery');
  for (const [kind, opId, sql] of [
    ['workflow', 'getWorkflow', 'SELECT DISTINCT workflowUuid AS id FROM runs WHERE workflowUuid IS NOT NULL LIMIT 2'],
    ['model', 'getModel', 'SELECT DISTINCT modelUuid AS id FROM records WHERE modelUuid IS NOT NULL LIMIT 2'],
  ] as const) {
    const op = ctx.contract.operation(opId);
    if (!op || !query) continue;
    const found = await ctx.send({
      method: query.method,
      path: query.path,
      body: { query: sql },
      auth: 'b',
      operationId: query.operationId,
    });
    const rows = (found.response?.body as { rows?: Array<{ id?: unknown }> } | undefined)?.rows;
    for (const id of (Array.isArray(rows) ? rows : [])
      .map((row) => row?.id)
      .filter((id): id is string => typeof id === 'string')
      .slice(0, 1)) {
      const own = await ctx.send({
        method: 'GET',
        path: op.path.replace('{uuid}', id),
        auth: 'b',
        operationId: op.operationId,
      });
      if (own.response?.status === 200)
        targets.push({ kind, op: op.operationId, method: 'GET', path: () => op.path.replace('{uuid}', id) });
    }
  }
  const cancel = ctx.contract.operation('cancelRun');
  if (cancel) {
    const created = await ctx.send({
      method: 'POST',
      path: ctx.config.createRunPath,
      body: ctx.config.createRunBody,
      auth: 'b',
    });
    const uuid = envelope(created.response?.body, 'run')?.uuid;
    if (typeof uuid === 'string')
      targets.push({
        kind: 'run (cancel)',
        op: cancel.operationId,
        method: 'POST',
        path: () => cancel.path.replace('{uuid}', uuid),
      });
  }
  await listedTargets(ctx, targets);
  for (const target of targets) {
    const seen = await ctx.send({ method: target.method, path: target.path(''), auth: 'a', operationId: target.op });
    if (seen.response?.status !== 404)
      ctx.report({
        title: `Workspace A can reach workspace B's ${target.kind} (${target.op})`,
        expected: '404',
        received: describe(seen),
        exchange: seen,
      });
  }
  ctx.note(`cross-workspace access tried on: run, ${targets.map((t) => t.kind).join(', ') || 'nothing else'}`);
}

export const workspacesDoNotSeeEachOther = defineCheck({
  id: 'workspaces-do-not-see-each-other',
  ruleId: 'workspace-scoping',
  title: "What one workspace creates or lists is never visible with another workspace's token.",
  fixture: 'run-visible-to-other-workspace',
  covers: [
    'workspace-scoping: * via get (*)',
    'workspace-scoping: * via cancel (*)',
    'workspace-scoping: * via list (*)',
  ],
  inputs: {
    operations: (op) => hasPathParameter(op) || op.method === 'GET',
    reads: { parts: ['operation', 'security'], responses: ['404'], statuses: ['2XX'] },
  },
  async run(ctx) {
    if (!ctx.config.tokenB) throw new CheckSkipped('needs --token-b (the token of a second workspace)');
    const createRun = ctx.contract.findOperation('POST', ctx.config.createRunPath);
    const getRun = ctx.contract.operation('getRun');
    const query = ctx.contract.operation('executeQuery');
    if (createRun && getRun) {
      const created = await ctx.send({
        method: 'POST',
        path: ctx.config.createRunPath,
        body: ctx.config.createRunBody,
        auth: 'b',
        operationId: createRun.operationId,
      });
      const uuid = envelope(created.response?.body, 'run')?.uuid;
      if (typeof uuid === 'string') {
        const seen = await ctx.send({
          method: 'GET',
          path: getRun.path.replace('{uuid}', uuid),
          auth: 'a',
          operationId: getRun.operationId,
        });
        if (seen.response?.status !== 404)
          ctx.report({
            title: "Workspace A can fetch workspace B's run",
            expected: '404',
            received: describe(seen),
            exchange: seen,
          });
        if (query) {
          const rows = await ctx.send({
            method: 'POST',
            path: query.path,
            body: { query: `SELECT uuid FROM runs WHERE uuid = '${uuid}'` },
            auth: 'a',
            operationId: query.operationId,
          });
          const found = (rows.response?.body as { rows?: unknown[] } | undefined)?.rows;
          if (Array.isArray(found) && found.length > 0)
            ctx.report({
              title: "Workspace A's SQL query sees workspace B's run",
              expected: 'no rows',
              received: describe(rows),
              exchange: rows,
            });
        }
      } else ctx.note(`workspace B could not create a run (${describe(created)}); GET-by-id isolation not tried`);
    }
    await otherKinds(ctx);
    const createServer = ctx.contract.operation('createMcpServer');
    if (createServer) {
      const [a, b] = await Promise.all(
        (['a', 'b'] as const).map((auth) =>
          ctx.send({
            method: 'POST',
            path: createServer.path,
            body: { name: conformanceName() },
            auth,
            operationId: createServer.operationId,
          }),
        ),
      );
      const wa = envelope(a.response?.body, 'mcpServer')?.workspaceUuid;
      const wb = envelope(b.response?.body, 'mcpServer')?.workspaceUuid;
      if (typeof wa === 'string' && wa === wb)
        ctx.report({
          title: 'MCP servers of both tokens land in one workspace',
          expected: 'different workspaceUuid',
          received: wa,
          exchange: b,
        });
    }
    await compareLists(ctx);
  },
});
