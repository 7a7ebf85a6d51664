import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { ApiError } from '../errors';
import { checkQueryText } from './query-text';
import { queryTableNames, type QuerySource } from './tables';
import type { QueryEngine } from '.';
import { closeDb, createTables, type WorkspaceDb } from './worker/database';
import { load, type Loading } from './worker/load';
import type { QueryMessage, QueryOutcome } from './worker/messages';
import { runQuery } from './worker/run-query';

export type InThreadOptions = {
  source: QuerySource;
  now: () => number;
  /**
   * Where sql.js's WASM is (`sql.js/dist/sql-wasm.wasm`): needed in a browser (with Vite:
   * `import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url'`); on Node sql.js finds it itself.
   */
  wasmUrl?: string;
  maxRows?: number;
  maxResultBytes?: number;
  maxQueryMemoryBytes?: number;
};

/** Rows handed to a database per step while it loads. */
const LOAD_CHUNK = 1000;

/**
 * The SQL engine in the calling thread, for the in-process engine (`./msw`: tests and the browser, where there
 * are no worker threads): the worker's own modules (tables, timed columns, loading, the one read-only statement
 * with its row and byte bounds: `worker/`), called directly. Each workspace's database is kept at the version it
 * was loaded at and loaded afresh when the store has moved on. Nothing can stop a statement inside WASM on
 * this thread, so there is no time budget here; the server's engine (worker threads) keeps one.
 */
export function createInThreadQueryEngine(options: InThreadOptions): QueryEngine {
  let started: Promise<{ SQL: SqlJsStatic; parser: Database }> | undefined;
  const dbs = new Map<string, WorkspaceDb>();
  const versions = new Map<string, string>();
  let nextId = 0;

  const start = () =>
    (started ??= (async () => {
      let SQL: SqlJsStatic;
      try {
        const wasmUrl = options.wasmUrl;
        SQL = await initSqlJs(wasmUrl ? { locateFile: () => wasmUrl } : undefined);
      } catch (error) {
        started = undefined;
        throw new ApiError(
          500,
          'internal_error',
          `The SQL engine could not load sql.js's WASM (${error instanceof Error ? error.message : error}): pass sqlWasmUrl (with Vite: import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url').`,
        );
      }
      const parser = new SQL.Database();
      createTables(parser);
      return { SQL, parser };
    })());

  /** The workspace's database at the store's latest version, loaded afresh when it is behind. */
  const ready = async (SQL: SqlJsStatic, workspace: string): Promise<void> => {
    const latest = (await options.source.versions(workspace)).at(-1);
    if (latest !== undefined && dbs.has(workspace) && versions.get(workspace) === latest) return;
    const snapshot = await options.source.snapshot(workspace);
    const loading: Loading = new Map();
    const open = () => new SQL.Database();
    load(open, dbs, loading, { type: 'load-begin', workspace });
    for (const table of queryTableNames) {
      const rows = snapshot.tables[table] ?? [];
      for (let at = 0; at < rows.length; at += LOAD_CHUNK)
        load(open, dbs, loading, {
          type: 'load-rows',
          workspace,
          table,
          rows: rows.slice(at, at + LOAD_CHUNK) as Record<string, unknown>[],
        });
    }
    const answer = load(open, dbs, loading, {
      type: 'load-end',
      id: ++nextId,
      now: options.now(),
      workspace,
      created: snapshot.created,
    });
    if (answer && 'ok' in answer && !answer.ok) throw new ApiError(500, 'internal_error', answer.message);
    versions.set(workspace, snapshot.version);
  };

  const run = async (
    workspace: string,
    sql: string,
    extra: Partial<QueryMessage>,
    signal: AbortSignal | undefined,
  ): Promise<object[]> => {
    const { SQL, parser } = await start();
    for (let attempt = 0; attempt < 2; attempt++) {
      if (signal?.aborted) throw new ApiError(400, 'query_cancelled', 'The request was cancelled.');
      await ready(SQL, workspace);
      const outcome: QueryOutcome = runQuery(parser, dbs, {
        type: 'query',
        id: ++nextId,
        workspace,
        sql,
        now: options.now(),
        maxRows: options.maxRows ?? 1000,
        maxResultBytes: options.maxResultBytes ?? 4 * 1024 * 1024,
        maxQueryMemoryBytes: options.maxQueryMemoryBytes ?? 64 * 1024 * 1024,
        ...extra,
      });
      if ('stale' in outcome) {
        versions.delete(workspace);
        continue;
      }
      if (outcome.ok) return outcome.rows;
      throw new ApiError(outcome.reason === 'internal_error' ? 500 : 400, outcome.reason, outcome.message);
    }
    throw new ApiError(500, 'internal_error', 'The query tables could not be brought up to date.');
  };

  return {
    async query(workspaceUuid, sql, signal) {
      checkQueryText(sql);
      return { rows: await run(workspaceUuid, sql, {}, signal) };
    },
    async select(workspaceUuid, sql, params, limits, signal) {
      return { rows: await run(workspaceUuid, sql, { params, ...limits }, signal) };
    },
    async close() {
      for (const wdb of dbs.values()) closeDb(wdb);
      dbs.clear();
      const running = started;
      started = undefined;
      if (running) (await running.catch(() => undefined))?.parser.close();
    },
  };
}
