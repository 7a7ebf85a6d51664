/**
 * The SQL endpoint: one read-only SELECT, over a database built for the request that holds only the caller's rows.
 * Its broken variants run writes over one lasting database, leave a table unscoped, scope by rewriting the
 * statement's text, or take a query of any length.
 */
import { createHash } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import type { Database } from 'sql.js';
import { HttpError, iso, type Context } from './context';
import { batchStatus, statusOf } from './jobs';
import { bodyOf, callerOf, route } from './http';
import type { ScopeForm, SqlTable } from './variants';

const TABLE = '(logs|runs|batches|records|spans)';

/** How each form of naming a table or shaping a condition is recognised in a statement's text. */
const FORMS: Record<ScopeForm, RegExp> = {
  '"quoted"': new RegExp(`"${TABLE}"`, 'i'),
  '[bracketed]': new RegExp(`\\[${TABLE}\\]`, 'i'),
  '`backticked`': new RegExp(`\`${TABLE}\``, 'i'),
  'schema-qualified': new RegExp(`\\bmain\\.${TABLE}`, 'i'),
  join: /\bjoin\b/i,
  subquery: /\(\s*select\b/i,
  CTE: /^\s*with\b/i,
  OR: /\bor\b/i,
  NOT: /\bnot\b/i,
  nested: /\bwhere\s*\(/i,
  precedence: /\bor\b[^()]*\band\b/i,
};

/**
 * A broken server that scopes by rewriting the bare table name: a statement naming a table in another form
 * (`sql-form-unscoped <form>`) reads every workspace's rows.
 */
function escapesScoping(ctx: Context, query: string): boolean {
  return (Object.entries(FORMS) as Array<[ScopeForm, RegExp]>).some(
    ([form, pattern]) => ctx.broken(`sql-form-unscoped ${form}`) && pattern.test(query),
  );
}

function appendScope(query: string, workspaceUuid: string): string {
  const condition = `workspaceUuid = '${workspaceUuid}'`;
  const limit = /\s+limit\s+\d+\s*;?\s*$/i.exec(query);
  const head = limit ? query.slice(0, limit.index) : query.replace(/;?\s*$/, '');
  return `${head} ${/\bwhere\b/i.test(head) ? 'AND' : 'WHERE'} ${condition}${limit ? limit[0] : ''}`;
}

/** The broken endpoint's one database: runs created since are added, and whatever a statement did stays. */
function lastingDatabase(ctx: Context): Database {
  const { shared } = ctx;
  if (!shared.db) {
    shared.db = buildDatabase(ctx, undefined);
    for (const uuid of ctx.runs.keys()) shared.synced.add(uuid);
  }
  for (const run of ctx.runs.values()) {
    if (shared.synced.has(run.uuid)) continue;
    shared.synced.add(run.uuid);
    shared.db.run('INSERT INTO runs (uuid, workspaceUuid, recordTitle, status) VALUES (?, ?, ?, ?)', [
      run.uuid,
      run.workspaceUuid,
      run.recordTitle,
      'pending',
    ]);
  }
  return shared.db;
}

type Row = Record<string, unknown>;

/** Every table's rows, of every workspace. */
function tablesOf(ctx: Context): Array<[SqlTable, Array<Row & { workspaceUuid: string }>, readonly string[]]> {
  const now = Date.now();
  const runs = [...ctx.runs.values()];
  const hash = (text: string) => createHash('md5').update(text).digest('hex');
  const runRows = runs.map((run) => ({
    uuid: run.uuid,
    workspaceUuid: run.workspaceUuid,
    workflowUuid: run.workflowUuid,
    batchUuid: run.batchUuid,
    recordId: run.recordId,
    recordTitle: run.recordTitle,
    status: statusOf(ctx, run, now),
    createdAt: iso(run.createdAt),
  }));
  const batchRows = [...ctx.batches.values()].map((batch) => ({
    uuid: batch.uuid,
    workspaceUuid: batch.workspaceUuid,
    workflowUuid: batch.workflowUuid,
    status: batchStatus(ctx, batch, now),
    createdAt: iso(batch.createdAt),
  }));
  const logRows = runs.map((run) => ({
    uuid: hash(`log${run.uuid}`),
    workspaceUuid: run.workspaceUuid,
    runUuid: run.uuid,
    level: 'info',
    message: `run ${run.uuid} started`,
    createdAt: iso(run.createdAt),
  }));
  const spanRows = runs.map((run) => ({
    uuid: hash(`span${run.uuid}`),
    workspaceUuid: run.workspaceUuid,
    runUuid: run.uuid,
    name: 'run',
    durationMs: ctx.runDurationMs,
  }));
  const { a, b } = ctx.workspaces;
  const recordRows = [...a.records, ...b.records] as Array<Row & { workspaceUuid: string }>;
  return [
    [
      'runs',
      runRows,
      ['uuid', 'workspaceUuid', 'workflowUuid', 'batchUuid', 'recordId', 'recordTitle', 'status', 'createdAt'],
    ],
    ['batches', batchRows, ['uuid', 'workspaceUuid', 'workflowUuid', 'status', 'createdAt']],
    ['logs', logRows, ['uuid', 'workspaceUuid', 'runUuid', 'level', 'message', 'createdAt']],
    ['spans', spanRows, ['uuid', 'workspaceUuid', 'runUuid', 'name', 'durationMs']],
    ['records', recordRows, ['id', 'workspaceUuid', 'modelUuid', 'title', 'createdAt']],
  ];
}

/** A database of the workspace's rows (every workspace's without one, or in a table a broken variant leaves). */
function buildDatabase(ctx: Context, workspaceUuid: string | undefined): Database {
  const db = new ctx.sql.Database();
  const unscoped = (table: SqlTable) => workspaceUuid === undefined || ctx.broken(`sql-table-unscoped ${table}`);
  for (const [table, all, columns] of tablesOf(ctx)) {
    const rows = all.filter((row) => unscoped(table) || row.workspaceUuid === workspaceUuid);
    db.run(`CREATE TABLE ${table} (${columns.map((c) => `"${c}"`).join(', ')})`);
    const insert = db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`);
    for (const row of rows) insert.run(columns.map((c) => (row[c] ?? null) as string | number | null));
    insert.free();
  }
  return db;
}

function executeQuery(ctx: Context, req: Request, res: Response) {
  const { broken } = ctx;
  const body = bodyOf(
    ctx,
    req,
    'executeQuery body',
    { query: broken('query-length-unchecked') ? { type: 'string' } : { type: 'string', max: 10000 } },
    ['query'],
  );
  // Without its rules the handler meets a query that is not text, as real code would: it throws (a 500).
  const query = body.query as string;
  const statement = query.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (!broken('sql-executes-writes') && !/^(select|with)\b/i.test(statement))
    throw new HttpError(400, 'not_a_select', 'Only one read-only SELECT statement is run.');
  // A broken server that scopes by appending `workspaceUuid = …` to the statement's text, without parentheses.
  const appended = broken('sql-scope-appended') ? appendScope(query, callerOf(res).uuid) : undefined;
  const db = broken('sql-executes-writes')
    ? lastingDatabase(ctx)
    : buildDatabase(ctx, appended !== undefined || escapesScoping(ctx, query) ? undefined : callerOf(res).uuid);
  try {
    if (!broken('sql-executes-writes')) {
      let count = 0;
      for (const _ of db.iterateStatements(query))
        if (++count > 1) throw new HttpError(400, 'not_a_select', 'Only one statement is run.');
    }
    const first = db.exec(appended ?? query)[0];
    const rows = first
      ? first.values.map((values) => Object.fromEntries(first.columns.map((c, i) => [c, values[i]])))
      : [];
    res.json({ rows });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'sql_error', `The query failed: ${(error as Error).message}`);
  } finally {
    if (db !== ctx.shared.db) db.close();
  }
}

export function mountQuery(app: Express, ctx: Context): void {
  app.post(
    '/v1/orchestration/query',
    route((req, res) => executeQuery(ctx, req, res)),
  );
}
