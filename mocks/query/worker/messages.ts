import type { QueryOp } from '../tables';

/**
 * Messages between the engine (worker-pool.ts) and a SQL worker. A workspace's database is loaded from a
 * snapshot sent in chunks (`load-begin`, `load-rows`…, `load-end`); a query carries the changes since.
 */
export type LoadMessage =
  | { type: 'load-begin'; workspace: string }
  | { type: 'load-rows'; workspace: string; table: string; rows: Record<string, unknown>[] }
  | { type: 'load-end'; id: number; now: number; workspace: string; created: Record<string, string[]> };

export type QueryMessage = {
  type: 'query';
  id: number;
  workspace: string;
  ops?: QueryOp[];
  sql: string;
  params?: (string | number | null)[];
  now: number;
  maxRows: number;
  maxResultBytes: number;
  /**
   * Memory the statement may allocate in SQLite beyond the WASM heap it starts with (values, sorts, groups):
   * past it SQLite fails the statement and the engine refuses the query.
   */
  maxQueryMemoryBytes: number;
  /**
   * The statement selects one column of JSON texts (one per row): the worker answers one row, `{ json }`, their
   * JSON array as one text, so the thread that asked receives one string, never a row at a time.
   */
  jsonArray?: boolean;
};

export type DropMessage = { type: 'drop'; workspace: string };

export type WorkerMessage = LoadMessage | QueryMessage | DropMessage;

/**
 * A worker's memory after a query: its WASM heap (which never shrinks), its JS heap, and what its databases'
 * pages hold of the WASM heap (what it needs in any case).
 */
export type WorkerMemory = { wasmBytes: number; jsBytes: number; cacheBytes: number };

/**
 * What a worker answers: ready once, `started` when a query's statement begins, then its outcome with the
 * memory it holds afterwards.
 */
export type WorkerAnswer =
  | { ready: true }
  | { id: number; started: true }
  | { id: number; loaded: true }
  | (QueryOutcome & { memory?: WorkerMemory });

export type QueryOutcome =
  | { id: number; stale: true }
  | { id: number; ok: true; rows: Record<string, unknown>[] }
  | { id: number; ok: false; reason: string; message: string };
