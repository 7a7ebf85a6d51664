/**
 * x-rules: query-read-only-scoped — "The query is a read-only SELECT statement": a write statement (DELETE, INSERT,
 * CREATE TABLE, a SELECT followed by a DELETE) may be refused or answered, but never changes what a later SELECT
 * sees. Only the suite's own run is ever named, so even a broken server loses nothing else.
 * Proved by the mutation harness (sql-executes-writes) and fixtures/broken/sql-executes-writes.ts.
 */
import { randomBytes } from 'node:crypto';
import { CheckSkipped } from '../lib/failure';
import { describe } from '../lib/exchange';
import { createOwnRun, runQuery } from '../lib/query';
import { unknownUuid } from '../lib/operations';
import { named } from './inputs';
import { defineCheck } from './registry';

export const sqlQueryIsReadOnly = defineCheck({
  id: 'sql-query-is-read-only',
  ruleId: 'query-read-only-scoped',
  title: 'A write statement sent to the SQL query endpoint changes nothing a later SELECT sees.',
  fixture: 'sql-executes-writes',
  covers: ['query-read-only-scoped: write statements refused'],
  needs: ['executeQuery'],
  inputs: { operations: named('executeQuery'), reads: { parts: ['operation', 'request-body'], responses: ['2XX'] } },
  async run(ctx) {
    if (!ctx.contract.operation('executeQuery')) throw new CheckSkipped('the contract has no executeQuery operation');
    const uuid = await createOwnRun(ctx, 'a');
    if (!uuid)
      throw new CheckSkipped(`could not create a run at ${ctx.config.createRunPath} to aim the write statements at`);
    const count = async (id: string) => {
      // Tried twice: a busy server may stop a query for its running time (a refusal the contract leaves open).
      for (let attempt = 0; attempt < 2; attempt++) {
        const { rows } = await runQuery(ctx, `SELECT COUNT(*) AS n FROM runs WHERE uuid = '${id}'`);
        const n = rows?.[0] ? Number(Object.values(rows[0])[0]) : undefined;
        if (Number.isFinite(n)) return n;
      }
      return undefined;
    };
    const before = await count(uuid);
    if (before !== 1)
      throw new CheckSkipped(
        `the runs table does not show the suite's run by a uuid column (COUNT gave ${String(before)}); the columns are not shown`,
      );
    for (const statement of [
      `DELETE FROM runs WHERE uuid = '${uuid}'`,
      `SELECT 1; DELETE FROM runs WHERE uuid = '${uuid}'`,
      `WITH x AS (SELECT 1) DELETE FROM runs WHERE uuid = '${uuid}'`,
    ]) {
      const write = await runQuery(ctx, statement);
      const after = await count(uuid);
      if (after !== undefined && after !== 1)
        ctx.report({
          title: 'A DELETE sent to the SQL query endpoint removed a row',
          expected: `the suite's run ${uuid} still counted once after: ${statement}`,
          received: `${describe(write.exchange)}; a later SELECT no longer sees the run`,
          exchange: write.exchange,
        });
    }
    const inserted = unknownUuid();
    const insert = await runQuery(ctx, `INSERT INTO runs (uuid) VALUES ('${inserted}')`);
    const added = await count(inserted);
    if (added !== undefined && added !== 0)
      ctx.report({
        title: 'An INSERT sent to the SQL query endpoint added a row',
        expected: `no run ${inserted} in a later SELECT`,
        received: describe(insert.exchange),
        exchange: insert.exchange,
      });
    const table = `conformance_probe_${randomBytes(4).toString('hex')}`;
    const create = await runQuery(ctx, `CREATE TABLE ${table} (x TEXT)`);
    const probe = await runQuery(ctx, `SELECT * FROM ${table}`);
    if (probe.exchange.response?.status === 200)
      ctx.report({
        title: 'A CREATE TABLE sent to the SQL query endpoint created a table',
        expected: `SELECT * FROM ${table} to be refused (no such table)`,
        received: `${describe(probe.exchange)} after ${describe(create.exchange)}`,
        exchange: create.exchange,
      });
  },
});
