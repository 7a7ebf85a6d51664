import { ApiError } from '../errors';
import { createQueryEngine } from './index';
import { hostileQueries, runaway } from './hostile-queries';
import { createTwoWorkspaceTables, foreignMarker, workspaceA, workspaceB } from './test-tables';

describe('hostile queries (POST /orchestration/query)', () => {
  const tables = createTwoWorkspaceTables();
  const snapshot = structuredClone(tables);
  const timeoutMs = 2000;
  const engine = createQueryEngine({ readTables: () => tables, timeoutMs, workers: 2 });
  afterAll(() => engine.close());

  // One at a time: a workspace's queries queue behind each other and the queue counts in the 2 s budget.
  it.each(hostileQueries)('should answer %s without writing or leaking', async (_name, sql, expectation) => {
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
      if (typeof expectation === 'object')
        expect([expectation.refused, expectation.orUnderLoad ?? expectation.refused]).toContain(error.reason);
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

describe('fair scheduling between workspaces', () => {
  const tables = createTwoWorkspaceTables();
  const engine = createQueryEngine({ readTables: () => tables, timeoutMs: 1000, workers: 2 });
  afterAll(() => engine.close());

  it('should answer another workspace while one floods runaway queries, and charge queueing to the budget', async () => {
    await engine.query(workspaceA, 'SELECT 1');
    const settled: string[] = [];
    const flood = Array.from({ length: 4 }, (_, i) =>
      engine.query(workspaceB, `${runaway} SELECT count(*) FROM c`).catch((error: ApiError) => {
        settled.push(`B${i}`);
        return error;
      }),
    );
    for (let i = 0; i < 8; i++) {
      await expect(engine.query(workspaceA, 'SELECT count(*) AS n FROM runs')).resolves.toEqual({ rows: [{ n: 5 }] });
      settled.push(`A${i}`);
    }
    const errors = (await Promise.all(flood)) as ApiError[];
    // B holds one worker at a time, so A never waits behind B's queue: all of A came before B's first stop.
    expect(settled.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, i) => `A${i}`));
    expect(errors.map((error) => error.reason)).toEqual(Array(4).fill('query_timeout'));
    // B's later queries spent their budget waiting behind its first and were never run.
    expect(errors.filter((error) => /waited/.test(error.message)).length).toBeGreaterThan(0);
  });

  it('should drop a queued query whose client went away', async () => {
    const first = engine.query(workspaceB, `${runaway} SELECT count(*) FROM c`).catch((error: ApiError) => error);
    const controller = new AbortController();
    const second = engine
      .query(workspaceB, 'SELECT 1', controller.signal)
      .catch((error: ApiError) => error as ApiError);
    controller.abort();
    expect(await second).toMatchObject({ status: 400, reason: 'query_cancelled' });
    expect(await first).toMatchObject({ reason: 'query_timeout' });
  });
});

describe('a workspace whose worker is busy loading another one', () => {
  const tables = createTwoWorkspaceTables();
  const workspaceC = '3f4e5d6c-7b8a-4c9d-8e0f-1a2b3c4d5e6f';
  // Workspace C's tables are read only when the gate opens: its load holds the worker it landed on until then.
  let openGate = () => {};
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const readTables = async (workspaceUuid: string) => {
    if (workspaceUuid === workspaceC) await gate;
    return tables;
  };
  const engine = createQueryEngine({ readTables, timeoutMs: 1000, workers: 2 });
  afterAll(() => {
    openGate();
    return engine.close();
  });

  it("should answer on a free worker instead of waiting out its budget behind the other workspace's load", async () => {
    await engine.query(workspaceA, 'SELECT 1'); // A's 5 runs on one worker,
    await engine.query(workspaceB, 'SELECT 1'); // B's 7 on the emptier other: C's load lands beside A (the emptiest).
    const loadingC = engine.query(workspaceC, 'SELECT count(*) AS n FROM runs').catch((error: ApiError) => error);
    const answer = await engine.query(workspaceA, 'SELECT count(*) AS n FROM runs').catch((error: ApiError) => error);
    openGate();
    expect(answer).toEqual({ rows: [{ n: 5 }] });
    expect(await loadingC).toEqual({ rows: [{ n: 0 }] });
  });
});
