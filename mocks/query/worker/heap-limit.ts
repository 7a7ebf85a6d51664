import type { Database } from 'sql.js';

/**
 * SQLite's heap limits (`sqlite3_soft_heap_limit64`, `sqlite3_hard_heap_limit64`), which sql.js has no binding
 * for, and whose pragma only ever lowers the hard limit: `PRAGMA hard_heap_limit = N` is ignored unless N is below
 * the current one, so a limit set for one query would bind every later load and query of the worker.
 *
 * The two limits are adjacent 64-bit integers of SQLite's allocator state (`mem0.alarmThreshold`, then
 * `mem0.hardLimit`, in malloc.c). They are found once, while no limit is set: the pragma sets both to a marker
 * no other word of the heap holds, the WASM memory is searched for the pair, and a write read back through the
 * pragmas proves the place. Then `set` writes both, raised or lowered or lifted (0) at will.
 */
export type HeapLimit = { set(bytes: number): void };

/** An unlikely value (about 58 TB, far past any heap) that marks the limits while they are searched for. */
const MARKER = 0x3_6a1b_c7e5_d2f9n;
const PROBE = 0x2_5b0a_b6d4_c1e8n;

const pragma = (db: Database, name: string) => BigInt(db.exec(`PRAGMA ${name}`)[0].values[0][0] as number);

/** The limits' place in the heap, or undefined (a limit already set, or not found exactly once): see above. */
export function locateHeapLimit(db: Database, memory: WebAssembly.Memory): HeapLimit | undefined {
  if (pragma(db, 'hard_heap_limit') !== 0n || pragma(db, 'soft_heap_limit') !== 0n) return undefined;
  db.run(`PRAGMA hard_heap_limit = ${MARKER}`);
  const words = () => new BigInt64Array(memory.buffer);
  // Searched as 32-bit halves (little-endian, as WASM is): reading a BigInt64Array allocates a BigInt per word.
  const low = Number(MARKER & 0xffff_ffffn) | 0;
  const high = Number(MARKER >> 32n) | 0;
  const halves = new Int32Array(memory.buffer);
  let at = -1;
  for (let i = 0; i + 3 < halves.length; i += 2) {
    if (halves[i] !== low || halves[i + 1] !== high || halves[i + 2] !== low || halves[i + 3] !== high) continue;
    if (at !== -1) return undefined;
    at = i / 2;
  }
  if (at === -1) return undefined;
  const write = (bytes: bigint) => {
    const heap = words();
    heap[at] = bytes;
    heap[at + 1] = bytes;
  };
  write(PROBE);
  const proven = pragma(db, 'hard_heap_limit') === PROBE && pragma(db, 'soft_heap_limit') === PROBE;
  write(proven ? 0n : MARKER);
  if (!proven) return undefined;
  return { set: (bytes) => write(BigInt(Math.max(0, Math.floor(bytes)))) };
}
