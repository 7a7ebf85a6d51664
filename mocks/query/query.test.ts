import { ApiError } from '../errors';
import { createQueryEngine } from './index';
import { createTwoWorkspaceTables, workspaceA, workspaceB } from './test-tables';

describe('createQueryEngine (POST /orchestration/query)', () => {
  const tables = createTwoWorkspaceTables();
  const engine = createQueryEngine({ readTables: () => tables, maxRows: 40 });
  afterAll(() => engine.close());

  const refusalOf = async (workspaceUuid: string, sql: string) => {
    const error = await engine.query(workspaceUuid, sql).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  };

  it('should answer a SELECT with row objects keyed by column name', async () => {
    const { rows } = await engine.query(
      workspaceA,
      'SELECT uuid, status, isGroupParent FROM runs ORDER BY uuid LIMIT 2',
    );
    expect(rows).toEqual([
      { uuid: 'A-run-0', status: 'success', isGroupParent: 1 },
      { uuid: 'A-run-1', status: 'running', isGroupParent: 0 },
    ]);
  });

  it('should see only the caller workspace rows in every table', async () => {
    for (const table of ['runs', 'batches', 'logs', 'records', 'spans']) {
      const a = await engine.query(workspaceA, `SELECT DISTINCT workspaceUuid FROM ${table}`);
      expect(a.rows).toEqual([{ workspaceUuid: workspaceA }]);
      const b = await engine.query(workspaceB, `SELECT count(*) AS n FROM ${table}`);
      expect(b.rows).toEqual([{ n: table === 'batches' ? 1 : 7 }]);
    }
  });

  it('should run WITH … SELECT and accept a trailing semicolon and comment', async () => {
    const { rows } = await engine.query(
      workspaceA,
      "WITH done AS (SELECT * FROM runs WHERE status = 'success') SELECT count(*) AS n FROM done; -- three",
    );
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('should keep the order of an ORDER BY', async () => {
    const { rows } = await engine.query(workspaceA, 'SELECT uuid FROM runs ORDER BY uuid DESC');
    expect(rows.map((r) => (r as { uuid: string }).uuid)).toEqual([
      'A-run-4',
      'A-run-3',
      'A-run-2',
      'A-run-1',
      'A-run-0',
    ]);
  });

  it('should store object values as JSON text', async () => {
    const { rows } = await engine.query(workspaceA, "SELECT json_extract(runsStatus, '$.success') AS n FROM batches");
    expect(rows).toEqual([{ n: 1 }]);
  });

  it.each([
    ['a write', 'DELETE FROM runs', 'query_not_read_only'],
    ['stacked statements', 'SELECT 1; SELECT 2', 'query_multiple_statements'],
    ['a syntax error', 'SELEC 1', 'invalid_query'],
    ['an unknown table', 'SELECT * FROM users', 'invalid_query'],
    ['an empty query', '  -- nothing', 'invalid_query'],
  ])('should refuse %s with 400 and a reason', async (_name, sql, reason) => {
    const error = await refusalOf(workspaceA, sql);
    expect(error.status).toBe(400);
    expect(error.toBody()).toEqual({ errorMessage: expect.any(String), reason });
  });

  it('should refuse a query holding a NUL, which SQLite would silently cut short', async () => {
    const error = await refusalOf(workspaceA, 'SELECT 1\u0000; DELETE FROM runs');
    expect([error.status, error.reason]).toEqual([400, 'invalid_query']);
  });

  it('should refuse a query that is not a string', async () => {
    const error = await refusalOf(workspaceA, 42 as unknown as string);
    expect([error.status, error.reason]).toEqual([400, 'invalid_request']);
  });

  it('should answer 500 in the error shape once closed', async () => {
    const closed = createQueryEngine({ readTables: () => tables, workers: 1 });
    await closed.close();
    await expect(closed.query(workspaceA, 'SELECT 1')).rejects.toMatchObject({ status: 500, reason: 'internal_error' });
  });

  it('should refuse a query of more than 10000 characters', async () => {
    const sql = `SELECT 1 ${' '.repeat(10000)}`;
    const error = await refusalOf(workspaceA, sql);
    expect([error.status, error.reason]).toEqual([400, 'query_too_long']);
  });

  it('should refuse a result of more rows than maxRows', async () => {
    const error = await refusalOf(workspaceB, 'SELECT * FROM runs a, runs b');
    expect([error.status, error.reason]).toEqual([400, 'query_result_too_large']);
  });

  it('should stop a runaway query and keep answering', async () => {
    const error = await refusalOf(
      workspaceA,
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
    );
    expect([error.status, error.reason]).toEqual([400, 'query_timeout']);
    await expect(engine.query(workspaceA, 'SELECT 1 AS one')).resolves.toEqual({ rows: [{ one: 1 }] });
  });
});
