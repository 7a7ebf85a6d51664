/**
 * x-rules: query-read-only-scoped (and workspace-scoping) — "Results are automatically scoped to the authenticated
 * workspace", on every queryable table (the contract's `x-table`s) named in every form (bare, "quoted",
 * [bracketed], `backticked`, main.schema-qualified, in a join, a subquery, a CTE). With --token-b, workspace B
 * creates a run and a batch; none of workspace A's queries may show a row naming B's workspace, run or batch,
 * whatever the columns are called. A form the server refuses (400) is noted, not failed. Proved by the mutation
 * harness (sql-table-unscoped <table>, sql-form-unscoped <form>) and fixtures/broken/sql-table-unscoped.ts,
 * sql-quoted-identifier-unscoped.ts.
 */
import { CheckSkipped } from '../lib/failure';
import { envelope } from '../lib/exchange';
import { createOwnRun, queryTables, rowsMention, runQuery, SQL_FORMS, workspaceUuidOf } from '../lib/query';
import { named } from './inputs';
import { defineCheck } from './registry';

export const sqlQueryIsScopedPerTable = defineCheck({
  id: 'sql-query-is-scoped-per-table',
  ruleId: 'query-read-only-scoped',
  title: "No queryable table shows another workspace's rows.",
  fixture: 'sql-table-unscoped',
  covers: Object.keys(SQL_FORMS).map((form) => `query-read-only-scoped: * ${form}`),
  needs: ['executeQuery'],
  inputs: { operations: named('executeQuery'), reads: { parts: ['operation', 'request-body'], responses: ['2XX'] } },
  async run(ctx) {
    if (!ctx.config.tokenB) throw new CheckSkipped('needs --token-b (the token of a second workspace)');
    if (!ctx.contract.operation('executeQuery')) throw new CheckSkipped('the contract has no executeQuery operation');
    const needles: string[] = [];
    const workspaceB = await workspaceUuidOf(ctx, 'b');
    const workspaceA = await workspaceUuidOf(ctx, 'a');
    if (workspaceB && workspaceB !== workspaceA) needles.push(workspaceB);
    const run = await createOwnRun(ctx, 'b');
    if (run) needles.push(run);
    const batchOp = ctx.contract.operation('createBatch');
    if (batchOp) {
      const batch = await ctx.send({
        method: batchOp.method,
        path: batchOp.path,
        body: {},
        auth: 'b',
        operationId: batchOp.operationId,
      });
      const uuid = envelope(batch.response?.body, 'batch')?.uuid;
      if (typeof uuid === 'string') needles.push(uuid);
    }
    if (needles.length === 0)
      throw new CheckSkipped('workspace B showed neither its workspace uuid nor a run to look for');
    const refused: string[] = [];
    for (const table of queryTables(ctx.contract)) {
      let leakedOnce = false;
      for (const [form, statement] of Object.entries(SQL_FORMS)) {
        const { exchange, rows } = await runQuery(ctx, statement(table));
        if (!rows) refused.push(`${table} ${form} (${exchange.response?.status ?? exchange.error})`);
        const leaked = rows ? rowsMention(rows, needles) : undefined;
        if (!leaked) continue;
        leakedOnce = true;
        ctx.report({
          title: `The ${table} table${form === 'bare' ? '' : ` (named in the ${form} form)`} shows workspace B's rows to workspace A`,
          expected: `no row naming ${needles.join(' or ')}`,
          received: JSON.stringify(leaked).slice(0, 300),
          exchange,
        });
      }
      if (leakedOnce) continue;
      if (!workspaceB || workspaceB === workspaceA) continue;
      // Narrowed by a column when the table has one by that name (a large table may page B's rows out of the first 1000).
      const narrowed = await runQuery(ctx, `SELECT * FROM ${table} WHERE workspaceUuid = '${workspaceB}' LIMIT 5`);
      if (narrowed.rows && narrowed.rows.length > 0)
        ctx.report({
          title: `The ${table} table shows workspace B's rows to workspace A`,
          expected: `no row of workspace ${workspaceB}`,
          received: JSON.stringify(narrowed.rows[0]).slice(0, 300),
          exchange: narrowed.exchange,
        });
    }
    if (refused.length > 0) {
      ctx.note(`forms the server refused (not judged): ${refused.join(', ')}`);
      ctx.unjudged?.(
        `scoping of the SQL forms ${refused.join(', ')}`,
        'a server that runs those SELECT forms (it refused them)',
      );
    }
  },
});
