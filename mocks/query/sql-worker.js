// @ts-check
/**
 * Keeps one SQLite (sql.js, WASM) database per workspace it was sent, each holding only that workspace's rows,
 * brings it up to date with the changes sent along with each query, and runs one query at a time.
 * Plain CommonJS so node:worker_threads loads it unchanged under node, tsx and jest; the engine terminates this
 * worker when a query runs past its time budget, which is the only way to stop a WASM SQLite mid-statement.
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const initSqlJs = require('sql.js');

/** @typedef {{ status: number, reason: string, message: string }} Refusal */

/** @type {Record<string, [string, string][]>} */
const schema = workerData.schema;
/** @type {string[]} */
const timedTables = workerData.timedTables;
/** @type {string[]} */
const timedColumns = workerData.timedColumns;
/** @type {[string, string][]} */
const timeline = workerData.timeline;

class QueryRefusal extends Error {
  /** @param {string} reason @param {string} message */
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

/** @param {string} name */
const quoteName = (name) => '"' + name.replace(/"/g, '""') + '"';

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/** @param {import('sql.js').Database} db */
function createTables(db) {
  for (const [table, columns] of Object.entries(schema)) {
    db.run(`CREATE TABLE ${quoteName(table)} (${columns.map(([c, t]) => `${quoteName(c)} ${t}`).join(', ')})`);
  }
}

/** @param {unknown} value @returns {string | number | null} */
function toSqlValue(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/** @param {string} table */
const storedName = (table) => (timedTables.includes(table) ? `mock_${table}` : table);

/**
 * Columns indexed for the lookups clients make most (by status, by time, by record, a run's logs and spans): a
 * query over a large workspace then reads what it selects instead of every row.
 * @type {Record<string, string[]>}
 */
const indexed = {
  runs: ['status', 'createdAt', 'recordId', 'batchUuid', 'workflowUuid'],
  batches: ['status', 'createdAt'],
  logs: ['runUuid'],
  spans: ['runUuid'],
};

/** Before any instant: a row stored with this as its next change is brought up to date by the next refresh. */
const NEVER = -8.64e15;

/**
 * The columns a table keeps: a timed table its documented columns (the timed ones materialised), its timeline,
 * `derived` and `nextAt` (when its shown values change next); other tables exactly as documented.
 * @param {string} table
 */
function storedColumns(table) {
  if (!timedTables.includes(table)) return schema[table];
  return [...schema[table], ...timeline, ['derived', 'INTEGER'], ['nextAt', 'REAL']];
}

/** The shown value of a timed column at the clock `:now`, from the row's phases. @param {string} column */
function timedExpression(column) {
  const since = (/** @type {string} */ p) => `CASE WHEN ${p}SinceMs > :now THEN :nowIso ELSE ${p}Since END`;
  if (column === 'status') {
    return 'CASE WHEN :now < t1Until THEN t1Status WHEN :now < t2Until THEN t2Status ELSE tStatus END';
  }
  if (column === 'updatedAt') {
    return `CASE WHEN :now < t1Until THEN ${since('t1')} WHEN :now < t2Until THEN ${since('t2')} ELSE ${since('t')} END`;
  }
  return 'CASE WHEN :now < t1Until OR :now < t2Until THEN NULL ELSE tFinishedAt END';
}

/**
 * When the row's shown values change next, seen at `:now`: the end of its current phase, or `:now` itself while
 * its `updatedAt` follows the clock (a phase that begins in the future), or NULL once it is final.
 * @param {string} table
 */
function nextChangeExpression(table) {
  const phaseEnd = 'CASE WHEN :now < t1Until THEN t1Until WHEN :now < t2Until THEN t2Until ELSE NULL END';
  if (!schema[table].some(([c]) => c === 'updatedAt')) return phaseEnd;
  const since = 'CASE WHEN :now < t1Until THEN t1SinceMs WHEN :now < t2Until THEN t2SinceMs ELSE tSinceMs END';
  return `CASE WHEN ${since} > :now THEN :now ELSE ${phaseEnd} END`;
}

/**
 * Brings the timed columns up to `now`: only the rows whose phase changed since the last refresh (an index on
 * `nextAt` finds them), or every row when the clock went back (tests move the mock's clock freely).
 * @param {WorkspaceDb} wdb @param {number} now
 */
function refresh(wdb, now, all = now < wdb.clockAt) {
  const params = { ':now': now, ':nowIso': new Date(now).toISOString() };
  for (const table of timedTables) {
    const sets = schema[table]
      .filter(([c]) => timedColumns.includes(c))
      .map(([c]) => `${quoteName(c)} = ${timedExpression(c)}`);
    sets.push(`"nextAt" = ${nextChangeExpression(table)}`);
    wdb.db.run(
      `UPDATE ${quoteName(storedName(table))} SET ${sets.join(', ')}${all ? '' : ' WHERE "nextAt" <= :now'}`,
      params,
    );
  }
  wdb.clockAt = now;
}

/**
 * One workspace's tables: timed tables are stored under `mock_<name>` with their timelines and their timed
 * columns materialised at the last query's clock, shown through a view of the documented name and columns; the
 * lists that bound created runs and batches are mirrored in `mock_created`, so trimming them drops the same rows
 * the store drops.
 * @param {import('sql.js').Database} db
 */
function createWorkspaceTables(db) {
  db.run('CREATE TABLE mock_created (seq INTEGER PRIMARY KEY, list TEXT, uuid TEXT)');
  for (const table of Object.keys(schema)) {
    const columns = storedColumns(table);
    const key = timedTables.includes(table) ? ', PRIMARY KEY ("uuid")' : '';
    const stored = storedName(table);
    db.run(`CREATE TABLE ${quoteName(stored)} (${columns.map(([c, t]) => `${quoteName(c)} ${t}`).join(', ')}${key})`);
    if (!timedTables.includes(table)) continue;
    const shown = schema[table].map(([c]) => quoteName(c));
    db.run(`CREATE VIEW ${quoteName(table)} AS SELECT ${shown.join(', ')} FROM ${quoteName(stored)}`);
  }
}

/** Indexes, built once the loaded rows are in (one sort each, rather than one update per row). @param {import('sql.js').Database} db */
function createWorkspaceIndexes(db) {
  db.run('CREATE INDEX mock_created_list ON mock_created (list, seq)');
  for (const table of Object.keys(schema)) {
    const stored = storedName(table);
    for (const column of indexed[table] ?? []) {
      db.run(`CREATE INDEX ${quoteName(`${stored}_${column}`)} ON ${quoteName(stored)} (${quoteName(column)})`);
    }
    if (timedTables.includes(table)) {
      db.run(
        `CREATE INDEX ${quoteName(`${stored}_next`)} ON ${quoteName(stored)} ("nextAt") WHERE "nextAt" IS NOT NULL`,
      );
    }
  }
}

/** @typedef {{ db: import('sql.js').Database, workspace: string, clockAt: number, created: Record<string, number>, upserts: Record<string, import('sql.js').Statement>, inserts: Record<string, import('sql.js').Statement> }} WorkspaceDb */

/** @param {WorkspaceDb} wdb @param {string} table */
function upsertOf(wdb, table) {
  if (!wdb.upserts[table]) {
    const columns = storedColumns(table);
    const names = columns.map(([c]) => quoteName(c));
    const updates = names.filter((n) => n !== '"uuid"').map((n) => `${n} = excluded.${n}`);
    wdb.upserts[table] = wdb.db.prepare(
      `INSERT INTO ${quoteName(storedName(table))} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ` +
        `ON CONFLICT ("uuid") DO UPDATE SET ${updates.join(', ')}`,
    );
  }
  return wdb.upserts[table];
}

/** @param {WorkspaceDb} wdb @param {string} table */
function insertOf(wdb, table) {
  if (!wdb.inserts[table]) {
    const columns = storedColumns(table);
    wdb.inserts[table] = wdb.db.prepare(
      `INSERT INTO ${quoteName(storedName(table))} VALUES (${columns.map(() => '?').join(', ')})`,
    );
  }
  return wdb.inserts[table];
}

/** @param {WorkspaceDb} wdb @param {string} table @param {Record<string, unknown>[]} rows */
function putRows(wdb, table, rows) {
  const columns = storedColumns(table);
  const statement = timedTables.includes(table) ? upsertOf(wdb, table) : insertOf(wdb, table);
  for (const row of rows) {
    // Only the workspace's own rows ever enter its database (x-rules workspace-scoping).
    if (row.workspaceUuid !== wdb.workspace) continue;
    statement.run(columns.map(([c]) => (c === 'nextAt' ? NEVER : toSqlValue(row[c]))));
  }
}

/**
 * Mirrors an append to a list of created runs or batches: beyond `keepLast` the oldest go, with their rows.
 * @param {WorkspaceDb} wdb @param {string} list @param {string[]} uuids @param {number | undefined} keepLast
 */
function track(wdb, list, uuids, keepLast) {
  const insert = wdb.db.prepare('INSERT INTO mock_created (list, uuid) VALUES (?, ?)');
  try {
    for (const uuid of uuids) insert.run([list, uuid]);
  } finally {
    insert.free();
  }
  const count = (wdb.created[list] ?? 0) + uuids.length;
  wdb.created[list] = count;
  if (keepLast === undefined || count <= keepLast) return;
  const oldest = 'SELECT seq FROM mock_created WHERE list = ? ORDER BY seq LIMIT ?';
  wdb.db.run(
    `DELETE FROM ${quoteName(storedName(list))} WHERE uuid IN (SELECT uuid FROM mock_created WHERE seq IN (${oldest}))`,
    [list, count - keepLast],
  );
  wdb.db.run(`DELETE FROM mock_created WHERE seq IN (${oldest})`, [list, count - keepLast]);
  wdb.created[list] = keepLast;
}

/**
 * Mirrors a removal from a list of created runs or batches (an age bound, or an undo): the list only; the rows go
 * by their own delete ops. One pass over the list per 500 uuids, as for rows (a lookup per uuid would scan it for
 * each: the list is indexed by position, not by uuid).
 * @param {WorkspaceDb} wdb @param {string} list @param {string[]} uuids
 */
function forget(wdb, list, uuids) {
  let removed = 0;
  for (let start = 0; start < uuids.length; start += 500) {
    const chunk = uuids.slice(start, start + 500);
    wdb.db.run(`DELETE FROM mock_created WHERE list = ? AND uuid IN (${chunk.map(() => '?').join(', ')})`, [
      list,
      ...chunk,
    ]);
    removed += wdb.db.getRowsModified();
  }
  wdb.created[list] = Math.max(0, (wdb.created[list] ?? 0) - removed);
}

/**
 * Deletes the rows with these uuids from a table of rows (logs, spans): one pass over the table per 500 uuids
 * (the column is not indexed; removals are rare and come in batches).
 * @param {WorkspaceDb} wdb @param {string} table @param {string[]} uuids
 */
function removeRows(wdb, table, uuids) {
  for (let start = 0; start < uuids.length; start += 500) {
    const chunk = uuids.slice(start, start + 500);
    wdb.db.run(`DELETE FROM ${quoteName(storedName(table))} WHERE uuid IN (${chunk.map(() => '?').join(', ')})`, chunk);
  }
}

/**
 * Applies the store's changes in order. Resolves false when the database can no longer follow them (a run of a
 * batch whose status is derived from its runs changed): it is then dropped and loaded afresh.
 * @param {WorkspaceDb} wdb @param {Op[]} ops
 */
function applyOps(wdb, ops) {
  const { db } = wdb;
  db.run('BEGIN');
  try {
    for (const op of ops) {
      if (op.op === 'upsert') {
        if (op.table === 'runs') {
          const batchUuids = [...new Set(op.rows.map((row) => row.batchUuid).filter((u) => typeof u === 'string'))];
          for (const uuid of batchUuids) {
            const derived = db.exec('SELECT 1 FROM mock_batches WHERE uuid = ? AND derived = 1', [uuid]);
            if (derived.length > 0) throw new Stale();
          }
        }
        putRows(wdb, op.table, op.rows);
      } else if (op.op === 'delete') {
        db.run(`DELETE FROM ${quoteName(storedName(op.table))} WHERE uuid = ?`, [op.uuid]);
      } else if (op.op === 'clear') {
        db.run(`DELETE FROM ${quoteName(storedName(op.table))}`);
      } else if (op.op === 'append') {
        putRows(wdb, op.table, op.rows);
        if (op.keepLast !== undefined) {
          const table = quoteName(storedName(op.table));
          db.run(`DELETE FROM ${table} WHERE rowid <= (SELECT max(rowid) FROM ${table}) - ?`, [op.keepLast]);
        }
      } else if (op.op === 'track') {
        track(wdb, op.list, op.uuids, op.keepLast);
      } else if (op.op === 'untrack') {
        db.run('DELETE FROM mock_created WHERE list = ?', [op.list]);
        wdb.created[op.list] = 0;
      } else if (op.op === 'forget') {
        forget(wdb, op.list, op.uuids);
      } else if (op.op === 'remove') {
        removeRows(wdb, op.table, op.uuids);
      }
    }
    db.run('COMMIT');
    return true;
  } catch (error) {
    db.run('ROLLBACK');
    if (error instanceof Stale) return false;
    throw error;
  }
}

class Stale extends Error {}

/** @typedef {{ op: 'upsert' | 'append', table: string, rows: Record<string, unknown>[], keepLast?: number } | { op: 'delete', table: string, uuid: string } | { op: 'clear', table: string } | { op: 'track', list: string, uuids: string[], keepLast?: number } | { op: 'untrack', list: string } | { op: 'forget', list: string, uuids: string[] } | { op: 'remove', table: string, uuids: string[] }} Op */

/**
 * Lets the engine split the input: exactly one statement may be present (empty statements and trailing
 * comments are no statements to SQLite). Returns that statement's text without its terminating semicolon.
 * @param {import('sql.js').Database} db @param {string} sql
 */
function extractSingleStatement(db, sql) {
  const statements = db.iterateStatements(sql);
  let first;
  try {
    first = statements.next();
  } catch (error) {
    throw new QueryRefusal('invalid_query', messageOf(error));
  }
  if (first.done) throw new QueryRefusal('invalid_query', 'The query holds no SQL statement.');
  const text = first.value.getSQL().trimEnd();
  let second;
  try {
    second = statements.next();
  } catch {
    second = { done: false };
  } finally {
    // Frees the iterator's copy of the text; sql.js has return() though its typings omit it.
    /** @type {{ return(): unknown }} */ (/** @type {unknown} */ (statements)).return();
  }
  if (!second.done) {
    throw new QueryRefusal(
      'query_multiple_statements',
      'Only a single statement may run; the query holds more than one.',
    );
  }
  return text.endsWith(';') ? text.slice(0, -1) : text;
}

/**
 * Only a SELECT (or WITH … SELECT, or VALUES) is valid as a subquery in SQLite's grammar, so the engine's own
 * parser decides read-only-ness: the statement that runs is the wrapped one, never the raw input.
 * @param {string} statement
 */
const wrapAsSubquery = (statement) => `SELECT * FROM (\n${statement}\n)`;

/** @param {unknown} value */
function toJsonValue(value) {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value === undefined ? null : value;
}

/** Approximate JSON size, measured before a blob is converted so a huge one is never base64-encoded. @param {unknown} value */
function sizeOf(value) {
  if (typeof value === 'string') return value.length + 2;
  if (value instanceof Uint8Array) return Math.ceil(value.byteLength / 3) * 4 + 2;
  return 8;
}

/** @param {WorkspaceDb} wdb */
function closeDb(wdb) {
  for (const statement of [...Object.values(wdb.upserts), ...Object.values(wdb.inserts)]) statement.free();
  wdb.db.close();
}

/** @typedef {{ type: 'load-begin', workspace: string } | { type: 'load-rows', workspace: string, table: string, rows: Record<string, unknown>[] } | { type: 'load-end', id: number, now: number, workspace: string, created: Record<string, string[]> }} Load */
/** @typedef {{ type: 'query', id: number, workspace: string, ops?: Op[], sql: string, params?: (string | number | null)[], now: number, maxRows: number, maxResultBytes: number }} Query */

/**
 * Builds a workspace's database from a snapshot sent in chunks (so the sending thread never stalls on one huge
 * message): the rows go in first, then the timed columns are computed and the indexes built once over them.
 * @param {import('sql.js').SqlJsStatic} SQL @param {Map<string, WorkspaceDb>} dbs @param {Map<string, { wdb: WorkspaceDb, error?: unknown }>} loading @param {Load} message
 */
function load(SQL, dbs, loading, message) {
  if (message.type === 'load-begin') {
    const previous = dbs.get(message.workspace) ?? loading.get(message.workspace)?.wdb;
    if (previous) closeDb(previous);
    dbs.delete(message.workspace);
    const db = new SQL.Database();
    /** @type {WorkspaceDb} */
    const wdb = { db, workspace: message.workspace, clockAt: 0, created: {}, upserts: {}, inserts: {} };
    const entry = { wdb, error: /** @type {unknown} */ (undefined) };
    loading.set(message.workspace, entry);
    try {
      createWorkspaceTables(db);
      db.run('BEGIN');
    } catch (error) {
      entry.error = error;
    }
    return undefined;
  }
  const entry = loading.get(message.workspace);
  if (!entry) return message.type === 'load-end' ? { id: message.id, stale: true } : undefined;
  const { wdb } = entry;
  if (message.type === 'load-rows') {
    if (entry.error === undefined) {
      try {
        putRows(wdb, message.table, message.rows);
      } catch (error) {
        entry.error = error;
      }
    }
    return undefined;
  }
  loading.delete(message.workspace);
  try {
    if (entry.error !== undefined) throw entry.error;
    for (const [list, uuids] of Object.entries(message.created || {})) track(wdb, list, uuids, undefined);
    wdb.clockAt = message.now;
    refresh(wdb, message.now, true);
    createWorkspaceIndexes(wdb.db);
    wdb.db.run('COMMIT');
  } catch (error) {
    closeDb(wdb);
    return { id: message.id, ok: false, reason: 'internal_error', message: messageOf(error) };
  }
  dbs.set(message.workspace, wdb);
  return { id: message.id, loaded: true };
}

/**
 * Brings the workspace's database up to date with the changes sent along, then runs the query against it at the
 * query's clock. The query text is split and checked on a separate empty database holding the documented tables,
 * so the checks never depend on what a workspace holds.
 * Reports `started` once the database is up to date, before the statement runs: the engine times the query's
 * budget from there.
 * @param {import('sql.js').Database} parser @param {Map<string, WorkspaceDb>} dbs @param {Query} job
 * @param {() => void} [started]
 */
function runQuery(parser, dbs, job, started = () => {}) {
  const wdb = dbs.get(job.workspace);
  if (!wdb) return { id: job.id, stale: true };
  try {
    if (job.ops && job.ops.length > 0 && !applyOps(wdb, job.ops)) throw new Stale();
  } catch {
    closeDb(wdb);
    dbs.delete(job.workspace);
    return { id: job.id, stale: true };
  }
  const { db } = wdb;
  try {
    const wrapped = wrapAsSubquery(extractSingleStatement(parser, job.sql));
    try {
      parser.prepare(wrapped).free();
    } catch (error) {
      throw new QueryRefusal(
        'query_not_read_only',
        `Only a single read-only SELECT (or WITH … SELECT) statement may run: ${messageOf(error)}`,
      );
    }
    refresh(wdb, job.now);
    // Up to date: the query's own budget starts now (the engine times it from this message).
    started();
    // Defence in depth: the statement is a SELECT by construction; nothing it does may write.
    db.run('PRAGMA query_only = 1');
    let statement;
    try {
      statement = db.prepare(wrapped);
      if (job.params) statement.bind(job.params);
      const columns = statement.getColumnNames();
      const rows = [];
      let bytes = 0;
      while (statement.step()) {
        if (rows.length >= job.maxRows) {
          throw new QueryRefusal(
            'query_result_too_large',
            `The result holds more than ${job.maxRows} rows; narrow the query or add a LIMIT.`,
          );
        }
        const values = statement.get();
        /** @type {Record<string, unknown>} */
        const row = {};
        columns.forEach((column, i) => {
          bytes += column.length + sizeOf(values[i]);
          if (bytes > job.maxResultBytes) {
            throw new QueryRefusal(
              'query_result_too_large',
              `The result is larger than ${job.maxResultBytes} bytes; select fewer columns or rows.`,
            );
          }
          // defineProperty, not assignment: a column named __proto__ must stay an own field of the row.
          Object.defineProperty(row, column, {
            value: toJsonValue(values[i]),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        });
        rows.push(row);
      }
      return { id: job.id, ok: true, rows };
    } catch (error) {
      if (error instanceof QueryRefusal) throw error;
      throw new QueryRefusal('invalid_query', messageOf(error));
    } finally {
      if (statement) statement.free();
      db.run('PRAGMA query_only = 0');
    }
  } catch (error) {
    if (error instanceof QueryRefusal) {
      return { id: job.id, ok: false, reason: error.reason, message: error.message };
    }
    return { id: job.id, ok: false, reason: 'invalid_query', message: messageOf(error) };
  }
}

/**
 * WASM functions are compiled on first call; running a few representative queries before reporting ready keeps
 * that one-off cost (hundreds of ms) out of the first caller's time budget.
 * @param {import('sql.js').SqlJsStatic} SQL @param {import('sql.js').Database} parser
 */
function warmUp(SQL, parser) {
  const dbs = new Map();
  const workspace = 'warm-up';
  const tables = Object.fromEntries(
    Object.keys(schema).map((table) => [
      table,
      [
        Object.fromEntries(
          [...storedColumns(table), ...schema[table]].map(([c]) => [c, c === 'workspaceUuid' ? workspace : c]),
        ),
      ],
    ]),
  );
  const loading = new Map();
  load(SQL, dbs, loading, { type: 'load-begin', workspace });
  for (const [table, rows] of Object.entries(tables))
    load(SQL, dbs, loading, { type: 'load-rows', workspace, table, rows });
  load(SQL, dbs, loading, { type: 'load-end', id: 0, now: 0, workspace, created: { runs: ['uuid'] } });
  const queries = [
    'DELETE FROM runs',
    'SELECT 1; SELECT 2',
    "SELECT r.status, count(*) AS n, json_extract('{\"a\":1}', '$.a') AS j FROM runs r JOIN logs l ON l.runUuid = r.uuid WHERE r.uuid LIKE '%u%' GROUP BY r.status ORDER BY n DESC",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, upper(printf('%d', x)) FROM c LIMIT 5",
    'SELECT * FROM batches',
  ];
  const ops = [{ op: 'append', table: 'logs', rows: tables.logs, keepLast: 1 }];
  for (const sql of queries)
    runQuery(parser, dbs, { type: 'query', id: 0, workspace, ops, sql, now: 0, maxRows: 10, maxResultBytes: 1 << 20 });
  for (const wdb of dbs.values()) closeDb(wdb);
}

/**
 * V8 finishes compiling the WASM module in tasks on this thread after instantiation, blocking it for up to a second;
 * ready is reported once a zero-delay timer fires on time, so no query's budget pays for that.
 * @param {() => void} callback
 */
function whenIdle(callback) {
  const scheduled = Date.now();
  setTimeout(() => (Date.now() - scheduled < 25 ? callback() : whenIdle(callback)), 0);
}

initSqlJs().then((SQL) => {
  if (!parentPort) return;
  const port = parentPort;
  const parser = new SQL.Database();
  createTables(parser);
  warmUp(SQL, parser);
  /** @type {Map<string, WorkspaceDb>} */
  const dbs = new Map();
  /** Databases being loaded, by workspace. */
  const loading = new Map();
  port.on('message', (/** @type {Load | Query | { type: 'drop', workspace: string }} */ message) => {
    if (message.type.startsWith('load-')) {
      const answer = load(SQL, dbs, loading, /** @type {Load} */ (message));
      return answer && port.postMessage(answer);
    }
    if (message.type === 'query') {
      const started = () => port.postMessage({ id: message.id, started: true });
      return port.postMessage(runQuery(parser, dbs, message, started));
    }
    const wdb = dbs.get(message.workspace);
    if (wdb) closeDb(wdb);
    dbs.delete(message.workspace);
  });
  whenIdle(() => port.postMessage({ ready: true }));
});
