import type { Database, SqlValue, Statement } from 'sql.js';
import {
  NEVER,
  createdRowTables,
  materialisedColumns,
  queryTableSchema,
  timedColumns,
  timedTables,
  timelineColumns,
  type StoredColumnType,
} from '../tables';
import { RUN_STATUSES } from '../../../spec/lib/constants';
import { CREATED_LOG, CREATED_SPAN, SPAN_VARIANT_DIGITS, derivesIso, millisecondsOfIso } from '../../store/runs';

/**
 * One workspace's database in the worker: every table is stored under `mock_<name>` and shown through a view of
 * the documented name and columns. The workspace's uuid is the view's constant, not a stored column (every row of
 * the database is the workspace's). Timed tables keep their timelines and their timed columns materialised at the
 * last query's clock; the lists that bound created runs and batches are mirrored in `mock_created_<list>`, so trimming them drops
 * the same rows the store drops.
 */
export type WorkspaceDb = {
  db: Database;
  workspace: string;
  /** The clock of the last refresh of the timed columns. */
  clockAt: number;
  /** Entries of each list of created runs or batches. */
  created: Map<string, number>;
  /** Prepared statements by their text: a write compiles its SQL once per database, not once per change. */
  statements: Map<string, Statement>;
};

type Columns = [column: string, type: StoredColumnType | string][];

const schema = new Map<string, Columns>(Object.entries(queryTableSchema));
export const tableNames = [...schema.keys()];
/** The documented columns of a table. */
export const documentedColumns = (table: string): Columns => schema.get(table) ?? [];
const isTimed = (table: string) => (timedTables as ReadonlySet<string>).has(table);

export const quoteName = (name: string) => '"' + name.replace(/"/g, '""') + '"';

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The stored table of a documented one: its rows live under `mock_<name>`, behind a view of the documented name. */
export const storedName = (table: string) => `mock_${table}`;

/** A text as an SQL string literal. */
const sqlText = (text: string) => "'" + text.replace(/'/g, "''") + "'";

/**
 * Columns indexed for the lookups clients make most (by status, by time, by record, a run's logs and spans): a
 * query over a large workspace then reads what it selects instead of every row.
 */
const INDEXED = new Map<string, string[]>([
  ['runs', ['status', 'createdAt', 'recordId', 'batchUuid', 'workflowUuid']],
  ['batches', ['status', 'createdAt']],
  ['logs', ['runUuid']],
  ['spans', ['runUuid']],
]);
/**
 * Links most runs leave empty: their indexes hold only the rows that have one (`= ?`, `IN`, a join on them
 * still use it; SQLite knows such a term is never NULL). Columns a query orders by keep every row.
 */
const INDEXED_WHEN_SET: ReadonlySet<string> = new Set(['recordId', 'batchUuid', 'workflowUuid']);

/** The documented tables, empty (the parser's database, on which every query text is checked first). */
export function createTables(db: Database): void {
  for (const [table, columns] of schema)
    db.run(`CREATE TABLE ${quoteName(table)} (${columns.map(([c, t]) => `${quoteName(c)} ${t}`).join(', ')})`);
}

/** The timeline's status columns: a known status is kept as its position in RUN_STATUSES (see timelineColumns). */
const STATUS_COLUMNS: ReadonlySet<string> = new Set(['t1Status', 't2Status', 'tStatus']);
const statusCodes = new Map(RUN_STATUSES.map((status, code) => [status, code]));

/** A kept status as its text again. */
const statusText = (column: string) =>
  `CASE ${column} ${RUN_STATUSES.map((status, code) => `WHEN ${code} THEN ${sqlText(status)}`).join(' ')} ELSE ${column} END`;

/**
 * Instants kept as milliseconds (`…Ms`, six bytes) where the engine writes the same ISO text from them as
 * JavaScript does (`derivesIso`), else as given; the view shows the text either way (isoExpression), and an index
 * on one is on that very expression, so a query through the view orders and filters by it.
 */
const INSTANTS = new Map<string, ReadonlySet<string>>([
  ['runs', new Set(['createdAt'])],
  ['batches', new Set(['createdAt'])],
  ['logs', new Set(['createdAt'])],
  ['spans', new Set(['startedAt', 'endedAt'])],
  ['records', new Set(['createdAt'])],
]);
const isInstant = (table: string, column: string) => INSTANTS.get(table)?.has(column) ?? false;

/** An ISO text's milliseconds where the engine writes that very text from them (isoExpression). */
function millisecondsOf(value: unknown): number | undefined {
  const ms = millisecondsOfIso(value);
  return ms !== undefined && derivesIso(ms) ? ms : undefined;
}

/** A row's value of a stored column, as SQLite keeps it. */
function storedValue(table: string, column: string, row: Record<string, unknown>): SqlValue {
  if (column === 'nextAt') return NEVER;
  // dictionary-lookup: `column` is a column of the schema, never request data
  const value = row[column];
  if (STATUS_COLUMNS.has(column) && typeof value === 'string') return statusCodes.get(value) ?? value;
  if (isInstant(table, column)) return millisecondsOf(value) === undefined ? toSqlValue(value) : null;
  const instant = column.endsWith('Ms') ? column.slice(0, -2) : undefined;
  // dictionary-lookup: the instant beside its milliseconds column, a column of the schema
  if (instant !== undefined && isInstant(table, instant)) return millisecondsOf(row[instant]) ?? null;
  return toSqlValue(value);
}

function toSqlValue(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/**
 * The mark of a row generated from a created run (1; NULL on a row the store keeps): such a row keeps only its
 * run's uuid (which its index of lookups by run needs) and its instant; the view shows the rest as
 * `createdRunRows` (mocks/store/runs.ts) derives it.
 */
const FROM_RUN = 'fromRun';

/** The SQL of `createdLogUuid` and `createdSpanUuid` (mocks/store/runs.ts) over the run's uuid. */
function createdUuidSql(table: string, runUuid: string): string {
  const head = `substr(${runUuid}, 1, 14) || '8'`;
  if (table === 'logs') return `${head} || substr(${runUuid}, 16)`;
  const flips = [...SPAN_VARIANT_DIGITS].map(([from, to]) => `WHEN ${sqlText(from)} THEN ${sqlText(to)}`).join(' ');
  const variant = `CASE substr(${runUuid}, 20, 1) ${flips} ELSE substr(${runUuid}, 20, 1) END`;
  return `${head} || substr(${runUuid}, 16, 4) || ${variant} || substr(${runUuid}, 21)`;
}

/**
 * How each documented column of a table of created rows follows from the run (`createdRunRows`): `uuid` from the
 * run's, `runUuid` the run's, the fixed values a created row says, and the one instant, the run's creation. A
 * column none of these covers is an error here, when the worker starts.
 */
const createdRows = new Map<string, { says: ReadonlyMap<string, string | null>; instant: string }>(
  createdRowTables.map((table) => {
    const says = new Map<string, string | null>(Object.entries(table === 'logs' ? CREATED_LOG : CREATED_SPAN));
    const instants = documentedColumns(table)
      .map(([c]) => c)
      .filter((c) => isInstant(table, c) && !says.has(c));
    const covered = new Set(['uuid', 'workspaceUuid', 'runUuid', ...says.keys(), ...instants]);
    const missing = documentedColumns(table).filter(([c]) => !covered.has(c));
    if (instants.length !== 1 || missing.length > 0)
      throw new Error(`${table}: a created run's row does not say what ${missing.map(([c]) => c).join(', ')} holds`);
    return [table, { says, instant: instants[0] }];
  }),
);

/** The shown value of a column of a table of created rows: as kept, or as a generated row derives it. */
function createdRowColumn(table: string, column: string, type: string): string | undefined {
  const rows = createdRows.get(table);
  if (!rows) return undefined;
  const fromRun = (derived: string) =>
    `CAST(CASE WHEN ${quoteName(FROM_RUN)} = 1 THEN ${derived} ELSE ${quoteName(column)} END AS ${type})`;
  if (column === 'uuid') return fromRun(createdUuidSql(table, quoteName('runUuid')));
  const says = rows.says.get(column);
  // A value the row says that is NULL is kept as NULL: nothing to derive.
  return typeof says === 'string' ? fromRun(sqlText(says)) : undefined;
}

/** Generates a created run's row in a table of created rows (the run's uuid bound as the parameter). */
export function createdRowInsert(table: string): string {
  const { instant } = createdRows.get(table) ?? { instant: '' };
  const columns = ['runUuid', instant, `${instant}Ms`, FROM_RUN].map(quoteName).join(', ');
  return (
    `INSERT INTO ${quoteName(storedName(table))} (${columns}) ` +
    `SELECT "uuid", "createdAt", "createdAtMs", 1 FROM ${quoteName(storedName('runs'))} WHERE "uuid" = ?`
  );
}

/** Removes the generated rows of the runs `runUuids` selects (an SQL list or subquery) from a table of created rows. */
export const createdRowDelete = (table: string, runUuids?: string) =>
  `DELETE FROM ${quoteName(storedName(table))} WHERE ${quoteName(FROM_RUN)} = 1` +
  (runUuids === undefined ? '' : ` AND "runUuid" IN (${runUuids})`);

/**
 * The columns a table keeps: a timed table its documented columns (the timed ones materialised), its timeline,
 * `derived` and `nextAt` (when its shown values change next); other tables exactly as documented.
 */
export function storedColumns(table: string): Columns {
  const fixed = documentedColumns(table)
    .filter(([c]) => c !== 'workspaceUuid')
    .flatMap(([c, type]): Columns =>
      isInstant(table, c)
        ? [
            [c, type],
            [`${c}Ms`, 'REAL'],
          ]
        : [[c, type]],
    );
  if (createdRows.has(table)) return [...fixed, [FROM_RUN, 'INTEGER']];
  if (!isTimed(table)) return fixed;
  const kept = fixed.filter(([c]) => !isComputed(c));
  return [...kept, ...timelineColumns, ['derived', 'INTEGER'], ['nextAt', 'REAL']];
}

/** The columns a row's write sets: the stored ones but the mark of a row generated from a created run. */
const writtenColumns = (table: string): Columns => storedColumns(table).filter(([c]) => c !== FROM_RUN);

/** A timed column the view computes as it is read (see materialisedColumns). */
const isComputed = (column: string) => timedColumns.has(column) && !materialisedColumns.has(column);

/**
 * The clock of the last query, one row: what the views' computed columns read (a subquery without correlation
 * runs once per statement).
 */
const CLOCK = { now: '(SELECT "now" FROM mock_clock)', nowIso: '(SELECT "nowIso" FROM mock_clock)' };

/**
 * An instant's ISO text: the kept text, else written from its milliseconds as `Date.prototype.toISOString` does
 * (the store keeps no text where this gives the same: mocks/store/runs.ts `derivesIso`).
 */
export const isoExpression = (text: string, ms: string) =>
  `COALESCE(${text}, strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch'))`;

/** The shown value of a timed column at the clock `now` (its ISO text `nowIso`), from the row's phases. */
function timedExpression(column: string, now = ':now', nowIso = ':nowIso'): string {
  const since = (p: string) =>
    `CASE WHEN ${p}SinceMs > ${now} THEN ${nowIso} ELSE ${isoExpression(`${p}Since`, `${p}SinceMs`)} END`;
  if (column === 'status')
    return `CASE WHEN ${now} < t1Until THEN ${statusText('t1Status')} WHEN ${now} < t2Until THEN ${statusText('t2Status')} ELSE ${statusText('tStatus')} END`;
  if (column === 'updatedAt')
    return `CASE WHEN ${now} < t1Until THEN ${since('t1')} WHEN ${now} < t2Until THEN ${since('t2')} ELSE ${since('t')} END`;
  return `CASE WHEN ${now} < t1Until OR ${now} < t2Until THEN NULL ELSE ${isoExpression('tFinishedAt', 'tFinishedAtMs')} END`;
}

/**
 * When the row's shown values change next, seen at `:now`: the end of its current phase, or `:now` itself while
 * its `updatedAt` follows the clock (a phase that begins in the future), or NULL once it is final.
 */
function nextChangeExpression(table: string): string {
  const phaseEnd = 'CASE WHEN :now < t1Until THEN t1Until WHEN :now < t2Until THEN t2Until ELSE NULL END';
  if (!documentedColumns(table).some(([c]) => c === 'updatedAt')) return phaseEnd;
  const since = 'CASE WHEN :now < t1Until THEN t1SinceMs WHEN :now < t2Until THEN t2SinceMs ELSE tSinceMs END';
  return `CASE WHEN ${since} > :now THEN :now ELSE ${phaseEnd} END`;
}

/**
 * Brings the timed columns up to `now`: only the rows whose phase changed since the last refresh (an index on
 * `nextAt` finds them), or every row when the clock went back (tests move the mock's clock freely).
 */
export function refresh(wdb: WorkspaceDb, now: number, all = now < wdb.clockAt): void {
  const params = { ':now': now, ':nowIso': new Date(now).toISOString() };
  wdb.db.run('UPDATE mock_clock SET "now" = :now, "nowIso" = :nowIso', params);
  for (const table of timedTables) {
    const sets = documentedColumns(table)
      .filter(([c]) => materialisedColumns.has(c))
      .map(([c]) => `${quoteName(c)} = ${timedExpression(c)}`);
    sets.push(`"nextAt" = ${nextChangeExpression(table)}`);
    wdb.db.run(
      `UPDATE ${quoteName(storedName(table))} SET ${sets.join(', ')}${all ? '' : ' WHERE "nextAt" <= :now'}`,
      params,
    );
  }
  wdb.clockAt = now;
}

/** What the view shows of an instant (see INSTANTS), of its documented type. */
const instantExpression = (column: string, type: string) =>
  `CAST(${isoExpression(quoteName(column), quoteName(`${column}Ms`))} AS ${type})`;

/**
 * The mirror of a list of created runs or batches (`mock_created_runs`, `mock_created_batches`): a uuid per entry,
 * in the order of the list (its rowid), so its oldest entries are found without an index.
 */
export const createdTable = (list: string) => quoteName(`mock_created_${list}`);

/** A workspace's tables and views, empty (see WorkspaceDb). */
export function createWorkspaceTables(db: Database, workspace: string): void {
  for (const list of timedTables) db.run(`CREATE TABLE ${createdTable(list)} (seq INTEGER PRIMARY KEY, uuid TEXT)`);
  db.run('CREATE TABLE mock_clock ("now" REAL, "nowIso" TEXT)');
  db.run('INSERT INTO mock_clock VALUES (0, NULL)');
  for (const table of tableNames) {
    const columns = storedColumns(table);
    const key = isTimed(table) ? ', PRIMARY KEY ("uuid")' : '';
    const stored = storedName(table);
    db.run(`CREATE TABLE ${quoteName(stored)} (${columns.map(([c, t]) => `${quoteName(c)} ${t}`).join(', ')}${key})`);
    const shown = documentedColumns(table).map(([c, type]) => {
      if (c === 'workspaceUuid') return `${sqlText(workspace)} AS ${quoteName(c)}`;
      // CAST gives the computed column its documented type, as a stored one has.
      if (isTimed(table) && isComputed(c))
        return `CAST(${timedExpression(c, CLOCK.now, CLOCK.nowIso)} AS ${type}) AS ${quoteName(c)}`;
      if (isInstant(table, c)) return `${instantExpression(c, type)} AS ${quoteName(c)}`;
      const created = createdRowColumn(table, c, type);
      return created === undefined ? quoteName(c) : `${created} AS ${quoteName(c)}`;
    });
    db.run(`CREATE VIEW ${quoteName(table)} AS SELECT ${shown.join(', ')} FROM ${quoteName(stored)}`);
  }
}

/** Indexes, built once the loaded rows are in (one sort each, rather than one update per row). */
export function createWorkspaceIndexes(db: Database): void {
  for (const table of tableNames) {
    const stored = storedName(table);
    for (const column of INDEXED.get(table) ?? []) {
      const partial = INDEXED_WHEN_SET.has(column) ? ` WHERE ${quoteName(column)} IS NOT NULL` : '';
      const type = documentedColumns(table).find(([c]) => c === column)?.[1] ?? 'TEXT';
      const on = isInstant(table, column) ? instantExpression(column, type) : quoteName(column);
      db.run(`CREATE INDEX ${quoteName(`${stored}_${column}`)} ON ${quoteName(stored)} (${on})${partial}`);
    }
    if (isTimed(table))
      db.run(
        `CREATE INDEX ${quoteName(`${stored}_next`)} ON ${quoteName(stored)} ("nextAt") WHERE "nextAt" IS NOT NULL`,
      );
  }
}

/** The statement of `sql` on the workspace's database, prepared on first use and kept until the database closes. */
export function statementOf(wdb: WorkspaceDb, sql: string): Statement {
  let statement = wdb.statements.get(sql);
  if (!statement) {
    statement = wdb.db.prepare(sql);
    wdb.statements.set(sql, statement);
  }
  return statement;
}

/** The same text for every workspace: built once per table. */
const writeSql = new Map<string, string>();

/** Writes a row of `table`: a timed table's replaces the row of its uuid, another table's is appended. */
function writeOf(wdb: WorkspaceDb, table: string): Statement {
  let sql = writeSql.get(table);
  if (sql === undefined) {
    const names = writtenColumns(table).map(([c]) => quoteName(c));
    const updates = names.filter((n) => n !== '"uuid"').map((n) => `${n} = excluded.${n}`);
    sql =
      `INSERT INTO ${quoteName(storedName(table))} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})` +
      (isTimed(table) ? ` ON CONFLICT ("uuid") DO UPDATE SET ${updates.join(', ')}` : '');
    writeSql.set(table, sql);
  }
  return statementOf(wdb, sql);
}

/** Writes rows of a table (timed tables by uuid, replacing the row there), the workspace's own rows only. */
export function putRows(wdb: WorkspaceDb, table: string, rows: Record<string, unknown>[]): void {
  const columns = writtenColumns(table);
  const statement = writeOf(wdb, table);
  for (const row of rows) {
    // Only the workspace's own rows ever enter its database (x-rules workspace-scoping).
    if (row.workspaceUuid !== wdb.workspace) continue;
    statement.run(columns.map(([c]) => storedValue(table, c, row)));
  }
}

export function closeDb(wdb: WorkspaceDb): void {
  for (const statement of wdb.statements.values()) statement.free();
  wdb.db.close();
}
