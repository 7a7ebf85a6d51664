/**
 * Helpers over the SQL query endpoint (x-rules query-read-only-scoped): its tables as the description names them,
 * sending one statement, and reading rows without knowing their columns (the columns are not shown).
 */
import fc from 'fast-check';
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
  // Boolean structure: a server that scopes by appending `AND workspaceUuid = …` to the text of the WHERE clause
  // leaves every row of the other workspace that the first disjunct of a top-level OR selects.
  OR: (t) => `SELECT * FROM ${t} WHERE 1 = 1 OR 0 = 1 LIMIT 1000`,
  NOT: (t) => `SELECT * FROM ${t} WHERE NOT 1 = 0 OR NOT 1 = 1 LIMIT 1000`,
  nested: (t) => `SELECT * FROM ${t} WHERE (0 = 1 OR (1 = 1 AND NOT 0 = 1)) OR 0 = 1 LIMIT 1000`,
  precedence: (t) => `SELECT * FROM ${t} WHERE 1 = 1 OR 1 = 0 AND 0 = 1 LIMIT 1000`,
};

/** A boolean condition of constants and the table's columns, as a tree: printed to SQL and evaluated alike. */
export type Condition =
  | { kind: 'const'; value: boolean }
  | { kind: 'null'; column: string; isNull: boolean }
  | { kind: 'not'; inner: Condition }
  | { kind: 'and' | 'or'; left: Condition; right: Condition };

/**
 * Conditions with OR, AND, NOT and parentheses, nested up to `depth`: operators and their precedence, not only the
 * names of tables, are where a scoping that edits the statement's text goes wrong.
 */
export function conditionArbitrary(columns: string[], depth = 3): fc.Arbitrary<Condition> {
  const leaf: fc.Arbitrary<Condition> = fc.oneof(
    fc.boolean().map((value) => ({ kind: 'const', value }) as Condition),
    ...(columns.length > 0
      ? [
          fc
            .tuple(fc.constantFrom(...columns), fc.boolean())
            .map(([column, isNull]) => ({ kind: 'null', column, isNull }) as Condition),
        ]
      : []),
  );
  const tree = fc.letrec<{ node: Condition }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', maxDepth: depth, withCrossShrink: true },
      leaf,
      tie('node').map((inner) => ({ kind: 'not', inner }) as Condition),
      fc
        .tuple(fc.constantFrom('and' as const, 'or' as const), tie('node'), tie('node'))
        .map(([kind, left, right]) => ({ kind, left, right }) as Condition),
    ),
  }));
  return tree.node;
}

/** The condition as SQL; parentheses only where `bare` is false, so precedence decides the rest as it is written. */
export function conditionSql(condition: Condition, bare = false): string {
  const wrap = (text: string) => (bare ? text : `(${text})`);
  switch (condition.kind) {
    case 'const':
      return condition.value ? '1 = 1' : '0 = 1';
    case 'null':
      return `${condition.column} IS ${condition.isNull ? '' : 'NOT '}NULL`;
    case 'not':
      return `NOT ${conditionSql(condition.inner)}`;
    default:
      return wrap(`${conditionSql(condition.left)} ${condition.kind.toUpperCase()} ${conditionSql(condition.right)}`);
  }
}

/** A statement over one table with the condition as its WHERE clause, its top level unparenthesised. */
export function conditionStatement(table: string, condition: Condition): string {
  return `SELECT * FROM ${table} WHERE ${conditionSql(condition, true)} LIMIT 1000`;
}

/** The columns of a queryable table as the contract's `x-table` schema describes them (assumed, not shown). */
export function tableColumns(contract: Contract, table: string): string[] {
  const schemas = asObject(asObject(contract.document.components).schemas);
  const schema = Object.values(schemas)
    .map(asObject)
    .find((s) => s['x-table'] === table);
  return Object.keys(asObject(schema?.properties));
}

/**
 * The table holding the records beneath a job of one kind (a batch's runs): the other table with a column naming
 * that kind (`batchUuid`), and the column.
 */
export function childTableOf(contract: Contract, kind: string): { table: string; column: string } | undefined {
  const column = `${kind}Uuid`;
  const table = queryTables(contract).find(
    (t) => t !== `${kind}s` && tableColumns(contract, t).includes(column) && tableColumns(contract, t).includes('uuid'),
  );
  return table ? { table, column } : undefined;
}

/** How many rows of `table` have `column` = `value`, or undefined when the query is refused (columns are not shown). */
export async function countRows(
  ctx: CheckContext,
  table: string,
  column: string,
  value: string,
  auth: 'a' | 'b' = 'a',
): Promise<{ count?: number; exchange: Exchange }> {
  const literal = value.replace(/'/g, "''");
  const { exchange, rows } = await runQuery(
    ctx,
    `SELECT * FROM ${table} WHERE ${column} = '${literal}' LIMIT 1000`,
    auth,
  );
  return { count: rows?.length, exchange };
}

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
