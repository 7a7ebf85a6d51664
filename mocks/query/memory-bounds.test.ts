import type { Worker } from 'node:worker_threads';
import { ApiError } from '../errors';
import { createQueryEngine, sourceOfTables } from './index';
import { createTwoWorkspaceTables, workspaceA } from './test-tables';
import { QueryWorkerPool } from './worker-pool';

/** Queries that finish well inside the budget yet would build a value of hundreds of MB in the worker. */
const heavy = [
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000000) SELECT group_concat(printf('%0500d', x)) AS s FROM c",
  'SELECT hex(zeroblob(400000000)) AS h',
  'SELECT length(hex(zeroblob(400000000))) AS n',
];

describe('memory bounds of SQL queries', () => {
  const tables = createTwoWorkspaceTables();
  const engine = createQueryEngine({ readTables: () => tables, timeoutMs: 5000, workers: 1 });
  afterAll(() => engine.close());

  it.each(heavy)('should refuse %s as too large, then answer the next query', async (sql) => {
    const started = Date.now();
    const error = await engine.query(workspaceA, sql).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    // On a busy machine the 5 s budget may end before the value reaches its bound: either refusal holds, each in
    // the error shape, and neither takes longer than the budget.
    const { reason, message } = error as ApiError;
    expect(['query_result_too_large', 'query_timeout']).toContain(reason);
    if (reason === 'query_result_too_large') expect(message).toMatch(/64 MiB/);
    expect(Date.now() - started).toBeLessThan(reason === 'query_timeout' ? 7000 : 5000);
    await expect(engine.query(workspaceA, 'SELECT count(*) AS n FROM runs')).resolves.toEqual({ rows: [{ n: 5 }] });
  });

  it('should refuse a result over its byte bound, naming the bound', async () => {
    const error = await engine.query(workspaceA, "SELECT printf('%.*c', 5000000, 'x') AS s").catch((e: ApiError) => e);
    expect(error).toMatchObject({ status: 400, reason: 'query_result_too_large' });
    expect((error as ApiError).message).toMatch(/4 MiB/);
  });
});

describe('a worker that grew past its memory bound', () => {
  it('should be replaced once its query has answered, and the next query still answers', async () => {
    const tables = createTwoWorkspaceTables();
    const pool = new QueryWorkerPool({
      source: sourceOfTables(() => tables),
      ...{ workers: 1, timeoutMs: 10_000, perWorkspace: 1, cacheRows: 1e6, now: Date.now },
      ...{ maxRows: 1000, maxResultBytes: 4 << 20, maxQueryMemoryBytes: 64 << 20, maxWorkerMemoryBytes: 48 << 20 },
    });
    const threads = () => (pool as unknown as { slots: { worker: Worker }[] }).slots.map((s) => s.worker.threadId);
    try {
      await pool.run(workspaceA, 'SELECT 1 AS one');
      const before = threads();
      // Within the bounds: grows the WASM heap by some 40 MB, which the worker never gives back.
      await expect(pool.run(workspaceA, 'SELECT length(hex(zeroblob(15000000))) AS n')).resolves.toEqual([
        { n: 30_000_000 },
      ]);
      expect(threads()).not.toEqual(before);
      const replaced = threads();
      await expect(pool.run(workspaceA, 'SELECT count(*) AS n FROM runs')).resolves.toEqual([{ n: 5 }]);
      // A small query leaves the fresh worker well under its bound: kept.
      expect(threads()).toEqual(replaced);
    } finally {
      await pool.close();
    }
  });
});
