/**
 * Helpers over the SQL query endpoint (x-rules query-read-only-scoped): its tables as the description names them,
 * sending one statement, and reading rows without knowing their columns (the columns are not shown).
 */
import type { CheckContext } from '../checks/registry';
import { envelope } from './exchange';
import type { Exchange } from './http-client';
import { conformanceName } from './operations';

/** "Queryable tables: `logs`, `runs`, `batches`, `records`. The endpoint summary also names `spans`." */
export const QUERY_TABLES = ['logs', 'runs', 'batches', 'records', 'spans'] as const;

export type Rows = Array<Record<string, unknown>>;

export async function runQuery(
  ctx: CheckContext,
  query: string,
  auth: 'a' | 'b' = 'a',
): Promise<{ exchange: Exchange; rows?: Rows }> {
  const op = ctx.contract.operation('executeQuery');
  if (!op) throw new Error('the contract has no executeQuery operation');
  const exchange = await ctx.send({
    method: op.method,
    path: op.path,
    body: { query },
    auth,
    operationId: op.operationId,
  });
  const rows =
    exchange.response?.status === 200 ? (exchange.response.body as { rows?: unknown } | undefined)?.rows : undefined;
  return {
    exchange,
    rows: Array.isArray(rows) ? (rows.filter((row) => row && typeof row === 'object') as Rows) : undefined,
  };
}

/** Whether any value of any row equals one of the needles (a uuid, a workspace uuid), whatever the column is called. */
export function rowsMention(rows: Rows, needles: string[]): Record<string, unknown> | undefined {
  const wanted = new Set(needles.map((n) => n.toLowerCase()));
  return rows.find((row) =>
    Object.values(row).some((value) => typeof value === 'string' && wanted.has(value.toLowerCase())),
  );
}

/** A run created by the suite (recordTitle conformance-…) in a workspace, with its uuid; undefined when it could not be. */
export async function createOwnRun(ctx: CheckContext, auth: 'a' | 'b'): Promise<string | undefined> {
  const body = { ...(ctx.config.createRunBody as Record<string, unknown>), recordTitle: conformanceName() };
  const created = await ctx.send({ method: 'POST', path: ctx.config.createRunPath, body, auth });
  const uuid = envelope(created.response?.body, 'run')?.uuid;
  return typeof uuid === 'string' ? uuid : undefined;
}

/** The caller's workspace uuid, as an MCP server it creates reports it (the only stated place it shows). */
export async function workspaceUuidOf(ctx: CheckContext, auth: 'a' | 'b'): Promise<string | undefined> {
  const op = ctx.contract.operation('createMcpServer');
  if (!op) return undefined;
  const created = await ctx.send({
    method: op.method,
    path: op.path,
    body: { name: conformanceName() },
    auth,
    operationId: op.operationId,
  });
  const uuid = envelope(created.response?.body, 'mcpServer')?.workspaceUuid;
  return typeof uuid === 'string' ? uuid : undefined;
}
