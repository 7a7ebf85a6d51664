import { ApiError } from '../errors';
import { selectWorkspaceRows, type QueryTables } from './tables';
import { QueryWorkerPool } from './worker-pool';

export type { QueryTables } from './tables';
export { queryTableSchema, queryTableNames } from './tables';

export type QueryEngineOptions = {
  /** The mock's current run data; the engine keeps only the caller's rows. */
  readTables: (workspaceUuid: string) => QueryTables | Promise<QueryTables>;
  /** Budget per query, from the moment a worker starts it. */
  timeoutMs?: number;
  /** More rows than this refuse the query (400 query_result_too_large) rather than truncate it silently. */
  maxRows?: number;
  /** Approximate JSON size bound of one result, same refusal. */
  maxResultBytes?: number;
  /** Workers running queries side by side. */
  workers?: number;
};

/** The contract's limit on `query` (spec: executeQuery), counted in characters like JSON Schema's maxLength. */
export const maxQueryLength = 10000;

/**
 * Runs `POST /orchestration/query` on SQLite (sql.js). Each query gets a fresh database holding only the
 * caller's rows, so another workspace's data is physically absent (x-rules: workspace-scoping).
 */
export function createQueryEngine(options: QueryEngineOptions): {
  query(workspaceUuid: string, sql: string): Promise<{ rows: object[] }>;
  close(): Promise<void>;
} {
  const timeoutMs = options.timeoutMs ?? 2000;
  const maxRows = options.maxRows ?? 1000;
  const maxResultBytes = options.maxResultBytes ?? 4 * 1024 * 1024;
  const pool = new QueryWorkerPool(options.workers ?? 2, timeoutMs);

  return {
    async query(workspaceUuid, sql) {
      if (typeof sql !== 'string') throw new ApiError(400, 'invalid_request', '`query` must be a string.');
      if (Array.from(sql).length > maxQueryLength) {
        throw new ApiError(400, 'query_too_long', `\`query\` holds more than ${maxQueryLength} characters.`);
      }
      // SQLite reads the text as a C string: a NUL would silently cut the query short, so it is refused instead.
      if (sql.includes('\u0000')) throw new ApiError(400, 'invalid_query', '`query` must not contain a NUL character.');
      const tables = selectWorkspaceRows(await options.readTables(workspaceUuid), workspaceUuid);
      const rows = await pool.run({ sql, tables, maxRows, maxResultBytes });
      return { rows };
    },
    close: () => pool.close(),
  };
}
