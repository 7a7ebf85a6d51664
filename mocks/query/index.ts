import { randomUuid } from '../web/bytes';
import {
  fixedTimelineRow,
  queryTableNames,
  selectWorkspaceRows,
  timedTables,
  type QuerySource,
  type QueryTables,
} from './tables';
import { QueryWorkerPool } from './worker-pool';
import { checkQueryText } from './query-text';

export type { QueryOp, QuerySnapshot, QuerySource, QueryTables } from './tables';
export { queryTableSchema, queryTableNames } from './tables';

export type QueryEngineOptions = {
  /** Where the workspaces' data comes from, versioned so databases are kept and updated rather than rebuilt. */
  source?: QuerySource;
  /**
   * Tables as shown (fixed statuses), read afresh for every query: for tests and callers without versions.
   * Ignored when `source` is given.
   */
  readTables?: (workspaceUuid: string) => QueryTables | Promise<QueryTables>;
  /** Budget per query, counted from the moment it is queued. */
  timeoutMs?: number;
  /** More rows than this refuse the query (400 query_result_too_large) rather than truncate it silently. */
  maxRows?: number;
  /** Approximate JSON size bound of one result, same refusal (default 4 MiB). */
  maxResultBytes?: number;
  /**
   * Memory one query's statement may allocate in SQLite (a value, the rows it sorts or groups) beyond the
   * worker's heap; past it the same refusal (default 64 MiB).
   */
  maxQueryMemoryBytes?: number;
  /**
   * Memory a worker may hold after a query (WASM and JS heap) beyond its databases' page caches; past it the
   * worker is replaced once the query has answered (default 256 MiB).
   */
  maxWorkerMemoryBytes?: number;
  /** Workers running queries side by side. */
  workers?: number;
  /** Queries of one workspace running at once (default: all workers but one, at least one). */
  perWorkspace?: number;
  /** Rows each worker keeps in its databases (least recently used workspaces dropped beyond it). */
  cacheRows?: number;
  /** The clock statuses are evaluated at (the mock's own, so tests can move it). */
  now?: () => number;
};

export { maxQueryLength } from './query-text';

/** A source over tables as shown, read for every query (each read is a new version, so nothing is kept stale). */
export function sourceOfTables(readTables: NonNullable<QueryEngineOptions['readTables']>): QuerySource {
  return {
    versions: async () => [randomUuid()],
    async snapshot(workspaceUuid) {
      const shown = selectWorkspaceRows(await readTables(workspaceUuid), workspaceUuid);
      const tables = Object.fromEntries(
        queryTableNames.map((name) => [
          name,
          timedTables.has(name)
            ? shown[name].map((row) => fixedTimelineRow(row as Record<string, unknown>))
            : shown[name],
        ]),
      ) as QueryTables;
      return { version: randomUuid(), tables, created: { runs: [], batches: [] } };
    },
  };
}

/**
 * Runs `POST /orchestration/query` on SQLite (sql.js). Each workspace has its own database, holding only its
 * rows, so another workspace's data is physically absent (x-rules workspace-scoping); databases are kept and
 * follow the store's writes, and statuses are evaluated at the query's clock.
 */
export type QueryEngine = {
  query(workspaceUuid: string, sql: string, signal?: AbortSignal): Promise<{ rows: object[] }>;
  /**
   * The mock's own read of a workspace's tables (run exports): a SELECT with bound parameters, scheduled like any
   * query, with its own row and byte bounds.
   */
  select(
    workspaceUuid: string,
    sql: string,
    params: (string | number | null)[],
    limits: { maxRows: number; maxResultBytes: number; jsonArray?: boolean },
    signal?: AbortSignal,
  ): Promise<{ rows: object[] }>;
  close(): Promise<void>;
};

export function createQueryEngine(options: QueryEngineOptions): QueryEngine {
  const source = options.source ?? sourceOfTables(options.readTables ?? (() => emptyTables()));
  const workers = options.workers ?? 2;
  const pool = new QueryWorkerPool({
    source,
    workers,
    timeoutMs: options.timeoutMs ?? 2000,
    perWorkspace: options.perWorkspace ?? Math.max(1, workers - 1),
    cacheRows: options.cacheRows ?? 1_000_000,
    maxRows: options.maxRows ?? 1000,
    maxResultBytes: options.maxResultBytes ?? 4 * 1024 * 1024,
    maxQueryMemoryBytes: options.maxQueryMemoryBytes ?? 64 * 1024 * 1024,
    maxWorkerMemoryBytes: options.maxWorkerMemoryBytes ?? 256 * 1024 * 1024,
    now: options.now ?? Date.now,
  });

  return {
    async query(workspaceUuid, sql, signal) {
      checkQueryText(sql);
      return { rows: await pool.run(workspaceUuid, sql, signal) };
    },
    async select(workspaceUuid, sql, params, limits, signal) {
      return { rows: await pool.run(workspaceUuid, sql, signal, { params, ...limits }) };
    },
    close: () => pool.close(),
  };
}

function emptyTables(): QueryTables {
  return Object.fromEntries(queryTableNames.map((name) => [name, []])) as unknown as QueryTables;
}
