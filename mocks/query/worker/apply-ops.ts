import { createdRowTables, type QueryOp } from '../tables';
import {
  createdRowDelete,
  createdRowInsert,
  createdTable,
  putRows,
  quoteName,
  statementOf,
  storedName,
  type WorkspaceDb,
} from './database';

/** The database can no longer follow the store's changes: it is dropped and loaded afresh. */
export class Stale extends Error {}

type Row = Record<string, unknown>;

/** Uuids deleted per statement (one pass over an unindexed column per chunk). */
const CHUNK = 500;

/**
 * Mirrors an append to a list of created runs or batches: a listed run's created log and span rows are generated
 * from its row (which its own op wrote first); beyond `keepLast` the oldest go, down to `trimTo` (the store's
 * rule), with their rows: one statement per table for all of them, each removing the rows of the list's oldest
 * entries (positions up to the last that goes).
 */
export function track(
  wdb: WorkspaceDb,
  list: string,
  uuids: string[],
  keepLast: number | undefined,
  trimTo = keepLast,
): void {
  const created = createdTable(list);
  const statements = [
    `INSERT INTO ${created} (uuid) VALUES (?)`,
    ...(list === 'runs' ? createdRowTables.map(createdRowInsert) : []),
  ].map((sql) => statementOf(wdb, sql));
  for (const uuid of uuids) for (const statement of statements) statement.run([uuid]);
  const count = (wdb.created.get(list) ?? 0) + uuids.length;
  wdb.created.set(list, count);
  if (keepLast === undefined || trimTo === undefined || count <= keepLast) return;
  const kept = Math.min(trimTo, keepLast);
  const last = wdb.db.exec(`SELECT seq FROM ${created} ORDER BY seq LIMIT 1 OFFSET ?`, [count - kept - 1])[0]
    ?.values[0]?.[0];
  const oldest = `SELECT uuid FROM ${created} WHERE seq <= ?`;
  const drops = [
    ...(list === 'runs' ? createdRowTables.map((table) => createdRowDelete(table, oldest)) : []),
    `DELETE FROM ${quoteName(storedName(list))} WHERE uuid IN (${oldest})`,
    `DELETE FROM ${created} WHERE seq <= ?`,
  ];
  for (const sql of drops) statementOf(wdb, sql).run([last as number]);
  wdb.created.set(list, kept);
}

/** `run(sql, chunk)` once per chunk of uuids, with as many placeholders as the chunk holds. */
function inChunks(uuids: string[], run: (placeholders: string, chunk: string[]) => void): void {
  for (let start = 0; start < uuids.length; start += CHUNK) {
    const chunk = uuids.slice(start, start + CHUNK);
    run(chunk.map(() => '?').join(', '), chunk);
  }
}

/**
 * Mirrors a removal from a list of created runs or batches (an age bound, or an undo): the list and the rows
 * generated from a listed run; the runs and batches go by their own delete ops. One pass over the list per 500 uuids, as for rows (a lookup per uuid would scan it for
 * each: the list is indexed by position, not by uuid).
 */
function forget(wdb: WorkspaceDb, list: string, uuids: string[]): void {
  let removed = 0;
  inChunks(uuids, (placeholders, chunk) => {
    wdb.db.run(`DELETE FROM ${createdTable(list)} WHERE uuid IN (${placeholders})`, chunk);
    removed += wdb.db.getRowsModified();
    if (list === 'runs') for (const table of createdRowTables) wdb.db.run(createdRowDelete(table, placeholders), chunk);
  });
  wdb.created.set(list, Math.max(0, (wdb.created.get(list) ?? 0) - removed));
}

/** A run of a batch whose status is derived from its runs changed: the database cannot follow (Stale). */
function checkDerivedBatches(wdb: WorkspaceDb, rows: Row[]): void {
  const batchUuids = new Set(rows.map((row) => row.batchUuid).filter((u): u is string => typeof u === 'string'));
  for (const uuid of batchUuids)
    if (wdb.db.exec('SELECT 1 FROM mock_batches WHERE uuid = ? AND derived = 1', [uuid]).length > 0) throw new Stale();
}

/**
 * Keeps the newest `keepLast` rows of a table of rows, as the store keeps its list: counted as rows, since rowids
 * have gaps where rows left from amid the table (a run gone by age, with seeded rows before it and a younger run's
 * after), so `max(rowid) - keepLast` would cut into the newest rows. Rows spanning at most `keepLast` rowids are
 * no more than that (two lookups); beyond, they are counted (SQLite counts a b-tree's pages, not its rows) and the
 * oldest beyond the bound go.
 */
function keepNewest(wdb: WorkspaceDb, name: string, keepLast: number): void {
  const table = quoteName(storedName(name));
  const first = (sql: string) => wdb.db.exec(sql)[0]?.values[0]?.[0];
  const span = first(`SELECT (SELECT max(rowid) FROM ${table}) - (SELECT min(rowid) FROM ${table}) + 1`);
  if (typeof span !== 'number' || span <= keepLast) return;
  const excess = Number(first(`SELECT count(*) FROM ${table}`)) - keepLast;
  if (excess <= 0) return;
  const oldest = `SELECT rowid FROM ${table} ORDER BY rowid LIMIT 1 OFFSET ?`;
  wdb.db.run(`DELETE FROM ${table} WHERE rowid <= (${oldest})`, [excess - 1]);
}

function applyOp(wdb: WorkspaceDb, op: QueryOp): void {
  const { db } = wdb;
  switch (op.op) {
    case 'upsert':
      if (op.table === 'runs') checkDerivedBatches(wdb, op.rows as Row[]);
      return putRows(wdb, op.table, op.rows as Row[]);
    case 'delete':
      db.run(`DELETE FROM ${quoteName(storedName(op.table))} WHERE uuid = ?`, [op.uuid]);
      return;
    case 'clear':
      db.run(`DELETE FROM ${quoteName(storedName(op.table))}`);
      return;
    case 'append': {
      putRows(wdb, op.table, op.rows as Row[]);
      if (op.keepLast === undefined) return;
      return keepNewest(wdb, op.table, op.keepLast);
    }
    case 'track':
      return track(wdb, op.list, op.uuids, op.keepLast, op.trimTo);
    case 'untrack':
      db.run(`DELETE FROM ${createdTable(op.list)}`);
      if (op.list === 'runs') for (const table of createdRowTables) db.run(createdRowDelete(table));
      wdb.created.set(op.list, 0);
      return;
    case 'forget':
      return forget(wdb, op.list, op.uuids);
  }
}

/**
 * Applies the store's changes in order, in one transaction. Resolves false when the database can no longer follow
 * them (a run of a batch whose status is derived from its runs changed): it is then dropped and loaded afresh.
 */
export function applyOps(wdb: WorkspaceDb, ops: QueryOp[]): boolean {
  wdb.db.run('BEGIN');
  try {
    for (const op of ops) applyOp(wdb, op);
    wdb.db.run('COMMIT');
    return true;
  } catch (error) {
    wdb.db.run('ROLLBACK');
    if (error instanceof Stale) return false;
    throw error;
  }
}
