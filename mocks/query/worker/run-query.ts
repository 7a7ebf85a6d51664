import type { Database, SqlValue, Statement } from 'sql.js';
import { applyOps, Stale } from './apply-ops';
import { closeDb, messageOf, refresh, type WorkspaceDb } from './database';
import type { QueryMessage, QueryOutcome } from './messages';
import { toBase64 } from '../../web/bytes';

/** A query the engine refuses: answered 400 with its reason. */
class QueryRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Lets the engine split the input: exactly one statement may be present (empty statements and trailing
 * comments are no statements to SQLite). Returns that statement's text without its terminating semicolon.
 */
function extractSingleStatement(db: Database, sql: string): string {
  const statements = db.iterateStatements(sql);
  let first: IteratorResult<Statement>;
  try {
    first = statements.next();
  } catch (error) {
    throw new QueryRefusal('invalid_query', messageOf(error));
  }
  if (first.done) throw new QueryRefusal('invalid_query', 'The query holds no SQL statement.');
  const text = first.value.getSQL().trimEnd();
  let second: { done?: boolean };
  try {
    second = statements.next();
  } catch {
    second = { done: false };
  } finally {
    // Frees the iterator's copy of the text; sql.js has return() though its typings omit it.
    (statements as unknown as { return(): unknown }).return();
  }
  if (!second.done)
    throw new QueryRefusal(
      'query_multiple_statements',
      'Only a single statement may run; the query holds more than one.',
    );
  return text.endsWith(';') ? text.slice(0, -1) : text;
}

/**
 * Only a SELECT (or WITH … SELECT, or VALUES) is valid as a subquery in SQLite's grammar, so the engine's own
 * parser decides read-only-ness: the statement that runs is the wrapped one, never the raw input.
 */
const wrapAsSubquery = (statement: string) => `SELECT * FROM (\n${statement}\n)`;

const toJsonValue = (value: SqlValue | undefined) =>
  value instanceof Uint8Array ? toBase64(value) : value === undefined ? null : value;

/** Approximate JSON size, measured before a blob is converted so a huge one is never base64-encoded. */
function sizeOf(value: SqlValue): number {
  if (typeof value === 'string') return value.length + 2;
  if (value instanceof Uint8Array) return Math.ceil(value.byteLength / 3) * 4 + 2;
  return 8;
}

/** The rows of a prepared statement, refused once they exceed the job's row or byte bound. */
function readRows(statement: Statement, job: QueryMessage): Record<string, unknown>[] {
  const columns = statement.getColumnNames();
  const rows: Record<string, unknown>[] = [];
  let bytes = 0;
  while (statement.step()) {
    if (rows.length >= job.maxRows)
      throw new QueryRefusal(
        'query_result_too_large',
        `The result holds more than ${job.maxRows} rows; narrow the query or add a LIMIT.`,
      );
    const values = statement.get();
    const row: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      bytes += column.length + sizeOf(values[i]);
      if (bytes > job.maxResultBytes)
        throw new QueryRefusal(
          'query_result_too_large',
          `The result is larger than ${mebibytes(job.maxResultBytes)}; select fewer columns or rows.`,
        );
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
  return rows;
}

/** The JSON texts of the statement's first column as one JSON array text, within the job's row and byte bounds. */
function readJsonArray(statement: Statement, job: QueryMessage): string {
  const texts: string[] = [];
  let bytes = 2;
  while (statement.step()) {
    const text = statement.get()[0];
    if (typeof text !== 'string') throw new QueryRefusal('invalid_query', 'A JSON array is made of JSON texts.');
    bytes += text.length + 1;
    if (texts.length >= job.maxRows || bytes > job.maxResultBytes)
      throw new QueryRefusal('query_result_too_large', `The result is larger than ${mebibytes(job.maxResultBytes)}.`);
    texts.push(text);
  }
  return `[${texts.join(',')}]`;
}

const mebibytes = (bytes: number) => (bytes >= 1 << 20 ? `${+(bytes / (1 << 20)).toFixed(1)} MiB` : `${bytes} bytes`);

/** Runs the checked statement read-only on the workspace's database. */
function select(db: Database, wrapped: string, job: QueryMessage): Record<string, unknown>[] {
  // Defence in depth: the statement is a SELECT by construction; nothing it does may write.
  db.run('PRAGMA query_only = 1');
  let statement: Statement | undefined;
  try {
    statement = db.prepare(wrapped);
    if (job.params) statement.bind(job.params);
    return job.jsonArray ? [{ json: readJsonArray(statement, job) }] : readRows(statement, job);
  } catch (error) {
    if (error instanceof QueryRefusal) throw error;
    // SQLite's own refusals of a value or working set over the memory the query may take (see sql-worker.ts).
    if (/^(out of memory|string or blob too big)/.test(messageOf(error)))
      throw new QueryRefusal(
        'query_result_too_large',
        `The query needed more than ${mebibytes(job.maxQueryMemoryBytes)} of memory for a value or the rows it ` +
          `sorts or groups (and a result may hold at most ${mebibytes(job.maxResultBytes)}); select less.`,
      );
    throw new QueryRefusal('invalid_query', messageOf(error));
  } finally {
    statement?.free();
    db.run('PRAGMA query_only = 0');
  }
}

/**
 * Brings the workspace's database up to date with the changes sent along, then runs the query against it at the
 * query's clock. The query text is split and checked on a separate empty database holding the documented tables,
 * so the checks never depend on what a workspace holds. Reports `started` once the database is up to date,
 * before the statement runs: the engine times the query's budget from there.
 */
export function runQuery(
  parser: Database,
  dbs: Map<string, WorkspaceDb>,
  job: QueryMessage,
  started: () => void = () => {},
): QueryOutcome {
  const wdb = dbs.get(job.workspace);
  if (!wdb) return { id: job.id, stale: true };
  try {
    if (job.ops && job.ops.length > 0 && !applyOps(wdb, job.ops)) throw new Stale();
  } catch {
    closeDb(wdb);
    dbs.delete(job.workspace);
    return { id: job.id, stale: true };
  }
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
    return { id: job.id, ok: true, rows: select(wdb.db, wrapped, job) };
  } catch (error) {
    const reason = error instanceof QueryRefusal ? error.reason : 'invalid_query';
    return { id: job.id, ok: false, reason, message: messageOf(error) };
  }
}
