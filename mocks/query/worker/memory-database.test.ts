import { locateHeapLimit } from './heap-limit';
import { initSqlWithMemory } from './init-sql';
import { openMemoryDatabase } from './memory-database';
import { defined } from '../../testing/defined';

/**
 * A workspace's database keeps its pages in SQLite's heap, and a query's memory is bounded by SQLite's heap
 * limit, raised and lifted between queries: both rest on this sql.js build (an upgrade that moves them fails here).
 */
describe('databases in the WASM heap, bounded by a heap limit that can be lifted', () => {
  it('should open an in-memory database that works as any other and closes cleanly', async () => {
    const { SQL, memory } = await initSqlWithMemory();
    const db = openMemoryDatabase(SQL, defined(memory, 'memory'));
    expect(db.exec('PRAGMA database_list')[0].values).toEqual([[0, 'main', '']]);
    db.run('CREATE TABLE t (x TEXT)');
    db.run("INSERT INTO t VALUES ('a'), ('b')");
    expect(db.exec('SELECT group_concat(x) FROM t')[0].values).toEqual([['a,b']]);
    db.close();
    // The file sql.js created for it is gone with it: another opens and closes alike.
    openMemoryDatabase(SQL, defined(memory, 'memory')).close();
  });

  it('should lower, raise and lift the limit at will, refusing allocations past it only while it is set', async () => {
    const { SQL, memory } = await initSqlWithMemory();
    const db = new SQL.Database();
    const limit = defined(locateHeapLimit(db, defined(memory, 'memory')), 'the heap limit');
    expect(limit).toBeDefined();
    const heap = () => defined(memory, 'memory').buffer.byteLength;
    // More than the heap holds, free or used: past a limit of the heap plus 1 MiB, within one of plus 64 MiB.
    const blob = () => {
      const bytes = heap() + (2 << 20);
      return () => db.exec(`SELECT length(randomblob(${bytes})) = ${bytes} AS fits`)[0].values;
    };
    limit.set(heap() + (1 << 20));
    expect(blob()).toThrow(/out of memory/);
    expect(db.exec('PRAGMA hard_heap_limit')[0].values[0][0]).toBe(heap() + (1 << 20));
    limit.set(heap() + (64 << 20));
    expect(blob()()).toEqual([[1]]);
    limit.set(heap() + (1 << 20));
    expect(blob()).toThrow(/out of memory/);
    limit.set(0);
    expect(db.exec('PRAGMA hard_heap_limit')[0].values).toEqual([[0]]);
    expect(db.exec('PRAGMA soft_heap_limit')[0].values).toEqual([[0]]);
    expect(blob()()).toEqual([[1]]);
    db.close();
  });

  it('should not claim a place once a limit is set (the pragma set it, the search would be ambiguous)', async () => {
    const { SQL, memory } = await initSqlWithMemory();
    const db = new SQL.Database();
    db.run('PRAGMA hard_heap_limit = 900000000');
    expect(locateHeapLimit(db, defined(memory, 'memory'))).toBeUndefined();
    db.close();
  });
});
