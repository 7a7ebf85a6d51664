// @ts-check
/**
 * Runs one query at a time in a throw-away SQLite (sql.js, WASM) database that holds only the caller's rows.
 * Plain CommonJS so node:worker_threads loads it unchanged under node, tsx and jest; the engine terminates this
 * worker when a query runs past its time budget, which is the only way to stop a WASM SQLite mid-statement.
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const initSqlJs = require('sql.js');

/** @typedef {{ id: number, sql: string, tables: Record<string, Record<string, unknown>[]>, maxRows: number, maxResultBytes: number }} Job */
/** @typedef {{ status: number, reason: string, message: string }} Refusal */

/** @type {Record<string, [string, string][]>} */
const schema = workerData.schema;

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

/** @param {import('sql.js').Database} db @param {Job['tables']} tables */
function loadRows(db, tables) {
  db.run('BEGIN');
  for (const [table, columns] of Object.entries(schema)) {
    const insert = db.prepare(`INSERT INTO ${quoteName(table)} VALUES (${columns.map(() => '?').join(', ')})`);
    try {
      for (const row of tables[table] || []) insert.run(columns.map(([c]) => toSqlValue(row[c])));
    } finally {
      insert.free();
    }
  }
  db.run('COMMIT');
}

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

/** @param {import('sql.js').SqlJsStatic} SQL @param {Job} job */
function runJob(SQL, job) {
  const db = new SQL.Database();
  try {
    createTables(db);
    const wrapped = wrapAsSubquery(extractSingleStatement(db, job.sql));
    try {
      db.prepare(wrapped).free();
    } catch (error) {
      throw new QueryRefusal(
        'query_not_read_only',
        `Only a single read-only SELECT (or WITH … SELECT) statement may run: ${messageOf(error)}`,
      );
    }
    loadRows(db, job.tables);
    // Defence in depth: the database is discarded after this query anyway.
    db.run('PRAGMA query_only = 1');
    const statement = db.prepare(wrapped);
    try {
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
      statement.free();
    }
  } catch (error) {
    if (error instanceof QueryRefusal) {
      return { id: job.id, ok: false, reason: error.reason, message: error.message };
    }
    return { id: job.id, ok: false, reason: 'invalid_query', message: messageOf(error) };
  } finally {
    db.close();
  }
}

/**
 * WASM functions are compiled on first call; running a few representative queries before reporting ready keeps
 * that one-off cost (hundreds of ms) out of the first caller's time budget.
 * @param {import('sql.js').SqlJsStatic} SQL
 */
function warmUp(SQL) {
  const tables = Object.fromEntries(
    Object.entries(schema).map(([table, columns]) => [table, [Object.fromEntries(columns.map(([c]) => [c, c]))]]),
  );
  const queries = [
    'DELETE FROM runs',
    'SELECT 1; SELECT 2',
    "SELECT r.status, count(*) AS n, json_extract('{\"a\":1}', '$.a') AS j FROM runs r JOIN logs l ON l.runUuid = r.uuid WHERE r.uuid LIKE '%u%' GROUP BY r.status ORDER BY n DESC",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, upper(printf('%d', x)) FROM c LIMIT 5",
  ];
  for (const sql of queries) runJob(SQL, { id: 0, sql, tables, maxRows: 10, maxResultBytes: 1 << 20 });
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
  warmUp(SQL);
  port.on('message', (/** @type {Job} */ job) => port.postMessage(runJob(SQL, job)));
  whenIdle(() => port.postMessage({ ready: true }));
});
