import type { Database, SqlJsStatic } from 'sql.js';

/**
 * A database whose pages live in SQLite's own page cache, in the WASM heap, rather than in a file of sql.js's
 * in-memory file system. sql.js opens every database as such a file: a JS `ArrayBuffer` the file system grows by
 * copying it into one an eighth larger, so a growing database costs its pages, up to an eighth more of slack, and
 * the copies left behind until they are collected (the allocator keeps much of what they freed). In the WASM heap
 * a page costs its bytes and a small header; the heap grows in place.
 *
 * sql.js has no option for it, so the database is opened as usual (which creates its empty file, removed again by
 * `close()`) and its connection swapped for one to `:memory:` through SQLite's own `sqlite3_open`, whose handle
 * is read from the WASM memory. Used only where the worker can bound a query's memory with the pages in the heap
 * (heap-limit.ts).
 */
export function openMemoryDatabase(SQL: SqlJsStatic, memory: WebAssembly.Memory): Database {
  const db = new SQL.Database();
  const api = SQL as SqlJsStatic & {
    cwrap(name: string, returns: string, args: string[]): (...args: unknown[]) => number;
    stackSave(): number;
    stackAlloc(bytes: number): number;
    stackRestore(at: number): void;
  };
  const handle = db as unknown as { db: number };
  const stack = api.stackSave();
  try {
    const out = api.stackAlloc(4);
    const failed = api.cwrap('sqlite3_open', 'number', ['string', 'number'])(':memory:', out) !== 0;
    const opened = new Int32Array(memory.buffer)[out >> 2];
    const close = api.cwrap('sqlite3_close_v2', 'number', ['number']);
    if (failed) {
      close(opened);
      return db;
    }
    close(handle.db);
    handle.db = opened;
  } finally {
    api.stackRestore(stack);
  }
  return db;
}
