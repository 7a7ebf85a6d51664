import initSqlJs from 'sql.js';
import { createQueryEngine } from './index';
import { createWorkspaceIndexes, createWorkspaceTables } from './worker/database';
import { queryDocumentedTable } from './test-tables';

/**
 * The engine keeps some columns narrower than it shows them (instants of logs and spans as milliseconds, a run's
 * updatedAt and finishedAt computed from its timeline): every value must read back exactly as a column of the
 * documented type holds it, derivable instants or not, texts, numbers, booleans and nulls alike.
 */
describe('columns kept narrower than shown', () => {
  const workspace = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
  const values: unknown[] = [
    '2026-01-02T03:04:05.678Z',
    '1970-01-01T00:00:00.000Z',
    '2026-01-02T03:04:05Z',
    '2026-01-02T03:04:05.678+00:00',
    '9999-12-31T23:59:59.999Z',
    '+010000-01-01T00:00:00.000Z',
    'yesterday',
    '',
    null,
    5,
    1.5,
    1_767_323_045_678,
    true,
  ];
  const logs = values.map((createdAt, i) => ({
    uuid: `log-${i}`,
    workspaceUuid: workspace,
    runUuid: 'run-0',
    level: 'info',
    message: 'm',
    createdAt,
  }));
  const spans = values.map((startedAt, i) => ({
    uuid: `span-${i}`,
    workspaceUuid: workspace,
    runUuid: 'run-0',
    parentSpanUuid: null,
    name: 'run',
    startedAt,
    endedAt: values[values.length - 1 - i],
    durationMs: null,
  }));
  const runs = values.map((createdAt, i) => ({
    uuid: `run-${String(i).padStart(2, '0')}`,
    workspaceUuid: workspace,
    status: 'success',
    isGroupParent: false,
    createdAt,
    updatedAt: null,
    finishedAt: null,
  }));
  const engine = createQueryEngine({ readTables: () => ({ runs, batches: [], logs, records: [], spans }) });
  afterAll(() => engine.close());

  it.each([
    ['logs', 'SELECT uuid, createdAt, typeof(createdAt) AS t, createdAt > 5 AS gt FROM logs ORDER BY uuid'],
    ['spans', 'SELECT uuid, startedAt, endedAt, typeof(endedAt) AS t FROM spans ORDER BY uuid'],
    ['runs', 'SELECT uuid, createdAt, typeof(createdAt) AS t FROM runs ORDER BY createdAt DESC, uuid'],
    ['runs', "SELECT uuid FROM runs WHERE createdAt >= '2026' ORDER BY uuid"],
  ] as const)('should show the %s rows as a table of the documented types holds them: %s', async (table, sql) => {
    const { rows } = await engine.query(workspace, sql);
    expect(rows).toEqual(await queryDocumentedTable(table, { runs, logs, spans }[table], sql));
  });

  it('should order and filter runs by createdAt through the view with its index (kept as milliseconds)', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    createWorkspaceTables(db, workspace);
    createWorkspaceIndexes(db);
    const plan = (sql: string) => JSON.stringify(db.exec(`EXPLAIN QUERY PLAN ${sql}`)[0].values);
    expect(plan('SELECT uuid FROM runs ORDER BY createdAt DESC LIMIT 20')).toContain('mock_runs_createdAt');
    expect(plan("SELECT count(*) FROM runs WHERE createdAt > '2026-01-01'")).toContain('mock_runs_createdAt');
    db.close();
  });
});
