/**
 * A SQL worker: keeps one SQLite (sql.js, WASM) database per workspace it was sent, each holding only that
 * workspace's rows, brings it up to date with the changes sent along with each query, and runs one query at a
 * time. The engine (worker-pool.ts) terminates this worker when a query runs past its time budget, which is the
 * only way to stop a WASM SQLite mid-statement. The parts: worker/database.ts (tables, views, indexes, the
 * timed columns), worker/apply-ops.ts (the store's changes), worker/load.ts, worker/run-query.ts.
 */
import { writeFileSync } from 'node:fs';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import type { Database } from 'sql.js';
import {
  createTables,
  documentedColumns,
  storedColumns,
  tableNames,
  closeDb,
  type WorkspaceDb,
} from './worker/database';
import { initSqlWithMemory } from './worker/init-sql';
import { locateHeapLimit, type HeapLimit } from './worker/heap-limit';
import { load, type Loading } from './worker/load';
import { openMemoryDatabase } from './worker/memory-database';
import type { WorkerMemory, WorkerMessage } from './worker/messages';
import { runQuery } from './worker/run-query';
import type { QueryOp } from './tables';

/**
 * WASM functions are compiled on first call; running a few representative queries before reporting ready keeps
 * that one-off cost (hundreds of ms) out of the first caller's time budget.
 */
function warmUp(open: () => Database, parser: Database): void {
  const dbs = new Map<string, WorkspaceDb>();
  const workspace = 'warm-up';
  const rowOf = (table: string) =>
    Object.fromEntries(
      [...storedColumns(table), ...documentedColumns(table)].map(([c]) => [c, c === 'workspaceUuid' ? workspace : c]),
    );
  const tables = Object.fromEntries(tableNames.map((table) => [table, [rowOf(table)]]));
  const loading: Loading = new Map();
  load(open, dbs, loading, { type: 'load-begin', workspace });
  for (const [table, rows] of Object.entries(tables))
    load(open, dbs, loading, { type: 'load-rows', workspace, table, rows });
  load(open, dbs, loading, { type: 'load-end', id: 0, now: 0, workspace, created: { runs: ['uuid'] } });
  const queries = [
    'DELETE FROM runs',
    'SELECT 1; SELECT 2',
    "SELECT r.status, count(*) AS n, json_extract('{\"a\":1}', '$.a') AS j FROM runs r JOIN logs l ON l.runUuid = r.uuid WHERE r.uuid LIKE '%u%' GROUP BY r.status ORDER BY n DESC",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, upper(printf('%d', x)) FROM c LIMIT 5",
    'SELECT * FROM batches',
  ];
  const ops: QueryOp[] = [{ op: 'append', table: 'logs', rows: tables.logs, keepLast: 1 }];
  for (const sql of queries)
    runQuery(parser, dbs, {
      ...{ type: 'query', id: 0, workspace, ops, sql, now: 0 },
      ...{ maxRows: 10, maxResultBytes: 1 << 20, maxQueryMemoryBytes: 1 << 24 },
    });
  for (const wdb of dbs.values()) closeDb(wdb);
}

/**
 * V8 finishes compiling the WASM module in tasks on this thread after instantiation, blocking it for up to a
 * second; ready is reported once a zero-delay timer fires on time, so no query's budget pays for that.
 */
function whenIdle(callback: () => void): void {
  const scheduled = Date.now();
  setTimeout(() => (Date.now() - scheduled < 25 ? callback() : whenIdle(callback)), 0);
}

/** How long a worker stays idle before it collects its garbage, where it may (see collectWhenIdle). */
const COLLECT_IDLE_MS = 200;

/**
 * The isolate's full collection, taken from a fresh context while `--expose-gc` is set for a moment (the flag only
 * decides which contexts created after it get `gc`; it is set back at once, so nothing else sees it).
 */
function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * A worker collects its garbage once idle after work: changes and loaded rows arrive as messages larger than its
 * young generation, so they die in the old one, where V8 leaves them until that grows (about 90 MB per worker
 * after 300 000 runs), held resident for as long as the mock stays up. Collecting then costs the worker a few
 * milliseconds with no query waiting, and keeps what `npm run bench:memory` measures the mock as it is served.
 */
function collectWhenIdle(): () => void {
  const gc = fullCollection();
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (!gc) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(gc, COLLECT_IDLE_MS);
    timer.unref();
  };
}

/** SQLite's WASM memory (init-sql.ts): it grows and never shrinks. */
let wasmMemory: WebAssembly.Memory | undefined;

const pragma = (db: Database, name: string) => Number(db.exec(`PRAGMA ${name}`)[0].values[0][0]);

/** What SQLite's page cache adds to each page it holds (its headers and the allocator's), rounded up. */
const PAGE_HEADER_BYTES = 256;

/**
 * What a database holds in the WASM heap: in memory (memory-database.ts), every page with the cache's header of
 * each; as a file, what its page cache may hold (`cache_size`: pages, or KiB when negative), never more than the
 * file.
 */
function cacheBytes(db: Database, inHeap: boolean): number {
  const pages = pragma(db, 'page_count');
  const pageSize = pragma(db, 'page_size');
  if (inHeap) return pages * (pageSize + PAGE_HEADER_BYTES);
  const cache = pragma(db, 'cache_size');
  return Math.min(pages * pageSize, cache < 0 ? -cache * 1024 : cache * pageSize);
}

function memoryOf(dbs: Map<string, WorkspaceDb>, inHeap: boolean): WorkerMemory {
  let caches = 0;
  for (const wdb of dbs.values()) caches += cacheBytes(wdb.db, inHeap);
  return {
    wasmBytes: wasmMemory?.buffer.byteLength ?? 0,
    jsBytes: getHeapStatistics().used_heap_size,
    cacheBytes: caches,
  };
}

/**
 * Bounds what a query's statement may allocate: SQLite's heap limit (sql.js has no binding for sqlite3_limit)
 * set to the WASM heap as it stands plus the query's allowance, and lifted again once the query answered so
 * loading and catching up are never refused. A value, sort or group past it fails inside SQLite ("out of
 * memory") before the heap grows by more than the allowance. Where the limit cannot be placed (heap-limit.ts),
 * the pragma lowers it, for good: databases are then files, outside SQLite's heap, so the limit binds queries
 * alone.
 */
function limitHeap(heapLimit: HeapLimit | undefined, parser: Database, allowance: number | undefined): void {
  const limit = allowance === undefined || !wasmMemory ? 0 : wasmMemory.buffer.byteLength + allowance;
  if (heapLimit) heapLimit.set(limit);
  else parser.run(`PRAGMA hard_heap_limit = ${Math.floor(limit)}`);
}

/**
 * The thread is named `sql-worker` where Linux lets it (`top -H`, `ps -L`, and `npm run soak`, which splits the
 * server's CPU time between its main thread and these).
 */
try {
  writeFileSync('/proc/thread-self/comm', 'sql-worker');
} catch {
  // Not Linux, or /proc not mounted: the name only helps to see where CPU time goes.
}

void initSqlWithMemory().then(({ SQL, memory }) => {
  wasmMemory = memory;
  if (!parentPort) return;
  const port = parentPort;
  const parser = new SQL.Database();
  createTables(parser);
  const heapLimit = memory ? locateHeapLimit(parser, memory) : undefined;
  // Pages in the WASM heap (memory-database.ts) where a query's memory can still be bounded, else files.
  const open = heapLimit && memory ? () => openMemoryDatabase(SQL, memory) : () => new SQL.Database();
  warmUp(open, parser);
  const dbs = new Map<string, WorkspaceDb>();
  const loading: Loading = new Map();
  const collect = collectWhenIdle();
  port.on('message', (message: WorkerMessage) => {
    collect();
    if (message.type === 'query') {
      const started = () => {
        port.postMessage({ id: message.id, started: true });
        limitHeap(heapLimit, parser, message.maxQueryMemoryBytes);
      };
      let outcome;
      try {
        outcome = runQuery(parser, dbs, message, started);
      } finally {
        limitHeap(heapLimit, parser, undefined);
      }
      return port.postMessage({ ...outcome, memory: memoryOf(dbs, heapLimit !== undefined) });
    }
    if (message.type !== 'drop') {
      const answer = load(open, dbs, loading, message);
      return answer && port.postMessage(answer);
    }
    const wdb = dbs.get(message.workspace);
    if (wdb) closeDb(wdb);
    dbs.delete(message.workspace);
  });
  whenIdle(() => port.postMessage({ ready: true }));
});
