import { ApiError } from '../errors';
import { createQueryEngine } from './index';
import { hostileQueries, runaway } from './hostile-queries';
import { createTwoWorkspaceTables, foreignMarker, workspaceA, workspaceB } from './test-tables';

describe('hostile queries (POST /orchestration/query)', () => {
  const tables = createTwoWorkspaceTables();
  const snapshot = structuredClone(tables);
  const timeoutMs = 2000;
  // Four workers so the runaway cases, each stopped at the 2 s budget, overlap instead of queueing.
  const engine = createQueryEngine({ readTables: () => tables, timeoutMs, workers: 4 });
  afterAll(() => engine.close());

  it.concurrent.each(hostileQueries)('should answer %s without writing or leaking', async (_name, sql, expectation) => {
    const started = Date.now();
    const outcome = await engine.query(workspaceA, sql).then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
    // Generous bound (queueing included): the point is that nothing stalls, not how fast it answers.
    expect(Date.now() - started).toBeLessThan(timeoutMs * 3 + 8000);

    const serialised = JSON.stringify('answer' in outcome ? outcome.answer : (outcome.error as ApiError).toBody?.());
    expect(serialised).not.toContain(workspaceB);
    expect(serialised).not.toContain(foreignMarker);

    if ('error' in outcome) {
      expect(outcome.error).toBeInstanceOf(ApiError);
      const error = outcome.error as ApiError;
      expect(error.status).toBe(400);
      expect(error.toBody()).toEqual({ errorMessage: expect.any(String), reason: expect.any(String) });
      expect(error.message).not.toMatch(/\n\s+at /);
      if (expectation === 'rows') throw new Error(`expected rows, got ${error.reason}: ${error.message}`);
      if (typeof expectation === 'object') expect(error.reason).toBe(expectation.refused);
    } else {
      expect(Array.isArray(outcome.answer.rows)).toBe(true);
      if (typeof expectation === 'object') throw new Error(`expected ${expectation.refused}, got rows`);
    }
  });

  it('should leave every table unchanged and keep answering', async () => {
    expect(tables).toEqual(snapshot);
    for (const [workspaceUuid, n] of [
      [workspaceA, 5],
      [workspaceB, 7],
    ] as const) {
      const { rows } = await engine.query(
        workspaceUuid,
        'SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM logs) AS logs',
      );
      expect(rows).toEqual([{ runs: n, logs: n }]);
    }
  });

  it('should answer other workspaces while a runaway query runs', async () => {
    const runawayQuery = engine.query(workspaceB, `${runaway} SELECT count(*) FROM c`).catch((e: ApiError) => e.reason);
    await expect(engine.query(workspaceA, 'SELECT count(*) AS n FROM runs')).resolves.toEqual({ rows: [{ n: 5 }] });
    await expect(runawayQuery).resolves.toBe('query_timeout');
  });
});
