import initSqlJs from 'sql.js';
import type { Store } from '../store';
import { createQueryEngine, type QueryEngine, type QueryEngineOptions } from './index';
import { queryTableSchema, type QueryTables, type TableName } from './tables';

/** Two workspaces' run data for query tests; every value of workspace B carries a marker no answer to A may hold. */
export const workspaceA = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
export const workspaceB = '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f';
export const foreignMarker = 'SECRET-B';

export function tablesOf(workspaceUuid: string, tag: string, count: number): QueryTables {
  const runs = Array.from({ length: count }, (_, i) => ({
    uuid: `${tag}-run-${i}`,
    workspaceUuid,
    workflowUuid: `${tag}-workflow`,
    releaseUuid: null,
    batchUuid: `${tag}-batch-0`,
    parentUuid: null,
    parentBatchUuid: null,
    parentNodeUuid: null,
    recordId: `${tag}-record-${i}`,
    recordTitle: `${tag} record ${i}`,
    status: i % 2 === 0 ? 'success' : 'running',
    isGroupParent: i === 0,
    createdAt: `2026-01-0${(i % 9) + 1}T00:00:00Z`,
    updatedAt: `2026-01-0${(i % 9) + 1}T00:00:00Z`,
    finishedAt: i % 2 === 0 ? `2026-01-0${(i % 9) + 1}T00:01:00Z` : null,
  }));
  return {
    runs,
    batches: [
      {
        uuid: `${tag}-batch-0`,
        workspaceUuid,
        workflowUuid: `${tag}-workflow`,
        status: 'running',
        runsStatus: { success: 1 },
        createdAt: '2026-01-01T00:00:00Z',
        finishedAt: null,
      },
    ],
    logs: runs.map((run, i) => ({
      uuid: `${tag}-log-${i}`,
      workspaceUuid,
      runUuid: run.uuid,
      level: 'info',
      message: `${tag} started`,
      createdAt: run.createdAt,
    })),
    records: runs.map((run) => ({
      id: run.recordId,
      workspaceUuid,
      modelUuid: `${tag}-model`,
      title: run.recordTitle,
      createdAt: run.createdAt,
    })),
    spans: runs.map((run, i) => ({
      uuid: `${tag}-span-${i}`,
      workspaceUuid,
      runUuid: run.uuid,
      parentSpanUuid: null,
      name: `${tag} step`,
      startedAt: run.createdAt,
      endedAt: run.finishedAt,
      durationMs: 60000,
    })),
  };
}

/** Both workspaces' rows in shared tables, as a store would hand them over before scoping. */
export function createTwoWorkspaceTables(): QueryTables {
  const a = tablesOf(workspaceA, 'A', 5);
  const b = tablesOf(workspaceB, foreignMarker, 7);
  return {
    runs: [...a.runs, ...b.runs],
    batches: [...a.batches, ...b.batches],
    logs: [...a.logs, ...b.logs],
    records: [...a.records, ...b.records],
    spans: [...a.spans, ...b.spans],
  };
}

/**
 * An engine over a store's kept tables that counts how often it loads a workspace afresh: the proofs that writes,
 * bounds, expiry and catching up are followed without reloading.
 */
export function engineCountingLoads(
  store: Pick<Store, 'querySource'>,
  options: Omit<QueryEngineOptions, 'source' | 'readTables'> = {},
): { engine: QueryEngine; loads(): number } {
  let loads = 0;
  const stored = store.querySource();
  const engine = createQueryEngine({
    ...options,
    source: {
      ...stored,
      snapshot: (workspaceUuid) => {
        loads++;
        return stored.snapshot(workspaceUuid);
      },
    },
  });
  return { engine, loads: () => loads };
}

/**
 * `sql` over the rows in a plain table of the documented columns and types, as SQLite itself keeps them: what the
 * engine's narrower stored forms must answer alike.
 */
export async function queryDocumentedTable(table: TableName, rows: object[], sql: string) {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  const columns = queryTableSchema[table];
  db.run(`CREATE TABLE ${table} (${columns.map(([c, t]) => `"${c}" ${t}`).join(', ')})`);
  const insert = db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`);
  for (const row of rows as Record<string, unknown>[])
    insert.run(
      columns.map(([c]) => {
        // dictionary-lookup: `c` is a documented column, never request data
        const value = row[c];
        return typeof value === 'boolean' ? Number(value) : ((value ?? null) as string | number | null);
      }),
    );
  insert.free();
  const [result] = db.exec(sql);
  db.close();
  return (result?.values ?? []).map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
}
