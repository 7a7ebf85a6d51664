/**
 * Helpers over the SQL query endpoint (x-rules query-read-only-scoped): its tables as the description names them,
 * sending one statement, and reading rows without knowing their columns (the columns are not shown).
 */
import type { CheckContext } from '../checks/registry';
import { envelope } from './exchange';
import type { Exchange } from './http-client';
import { conformanceName } from './operations';
import { asObject, type Contract } from '../../spec/lib';

/**
 * The queryable tables, from the `x-table` of the contract's Query*Row schemas ("Queryable tables: `logs`, `runs`,
 * `batches`, `records`. The endpoint summary also names `spans`.").
 */
export function queryTables(contract: Contract): string[] {
  const schemas = asObject(asObject(contract.document.components).schemas);
  return Object.values(schemas)
    .map((schema) => asObject(schema)['x-table'])
    .filter((table): table is string => typeof table === 'string');
}

/**
 * Every way a statement can name a table, each of which must stay scoped to the caller's workspace: a server that
 * scopes by rewriting the bare name misses the others.
 */
export const SQL_FORMS: Record<string, (table: string) => string> = {
  bare: (t) => `SELECT * FROM ${t} LIMIT 1000`,
  '"quoted"': (t) => `SELECT * FROM "${t}" LIMIT 1000`,
  '[bracketed]': (t) => `SELECT * FROM [${t}] LIMIT 1000`,
  '`backticked`': (t) => `SELECT * FROM \`${t}\` LIMIT 1000`,
  'schema-qualified': (t) => `SELECT * FROM main.${t} LIMIT 1000`,
  join: (t) => `SELECT x.* FROM ${t} AS x LEFT JOIN ${t} AS y ON 0 = 1 LIMIT 1000`,
  subquery: (t) => `SELECT * FROM (SELECT * FROM ${t}) AS s LIMIT 1000`,
  CTE: (t) => `WITH c AS (SELECT * FROM ${t}) SELECT * FROM c LIMIT 1000`,
};

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
