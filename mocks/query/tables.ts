/**
 * The tables `POST /orchestration/query` can read, one row per entity, columns camelCase as documented in the spec
 * (x-rules: workspace-scoping). The declared type gives SQLite its column affinity; everything else is TEXT.
 */
export type ColumnType = 'TEXT' | 'INTEGER' | 'REAL';
/** A stored column's type: as documented, or BLOB (no affinity: a value is kept as given, a number or a text). */
export type StoredColumnType = ColumnType | 'BLOB';
export type TableName = 'runs' | 'batches' | 'logs' | 'records' | 'spans';
export type TableSchema = Record<TableName, [column: string, type: ColumnType][]>;

export type QueryTables = Record<TableName, object[]>;

export const queryTableSchema: TableSchema = {
  runs: [
    ['uuid', 'TEXT'],
    ['workspaceUuid', 'TEXT'],
    ['workflowUuid', 'TEXT'],
    ['releaseUuid', 'TEXT'],
    ['batchUuid', 'TEXT'],
    ['parentUuid', 'TEXT'],
    ['parentBatchUuid', 'TEXT'],
    ['parentNodeUuid', 'TEXT'],
    ['recordId', 'TEXT'],
    ['recordTitle', 'TEXT'],
    ['status', 'TEXT'],
    ['isGroupParent', 'INTEGER'],
    ['createdAt', 'TEXT'],
    ['updatedAt', 'TEXT'],
    ['finishedAt', 'TEXT'],
  ],
  batches: [
    ['uuid', 'TEXT'],
    ['workspaceUuid', 'TEXT'],
    ['workflowUuid', 'TEXT'],
    ['status', 'TEXT'],
    ['runsStatus', 'TEXT'],
    ['createdAt', 'TEXT'],
    ['finishedAt', 'TEXT'],
  ],
  logs: [
    ['uuid', 'TEXT'],
    ['workspaceUuid', 'TEXT'],
    ['runUuid', 'TEXT'],
    ['level', 'TEXT'],
    ['message', 'TEXT'],
    ['createdAt', 'TEXT'],
  ],
  records: [
    ['id', 'TEXT'],
    ['workspaceUuid', 'TEXT'],
    ['modelUuid', 'TEXT'],
    ['title', 'TEXT'],
    ['createdAt', 'TEXT'],
  ],
  spans: [
    ['uuid', 'TEXT'],
    ['workspaceUuid', 'TEXT'],
    ['runUuid', 'TEXT'],
    ['parentSpanUuid', 'TEXT'],
    ['name', 'TEXT'],
    ['startedAt', 'TEXT'],
    ['endedAt', 'TEXT'],
    ['durationMs', 'INTEGER'],
  ],
};

export const queryTableNames = Object.keys(queryTableSchema) as TableName[];

/**
 * Tables of rows in which each created run (listed in `runs-created`) shows one row whose content follows from
 * the run (mocks/store/runs.ts `createdRunRows`): the store keeps none of them; the engine generates them, narrow,
 * as the run is listed, and removes them as it leaves the list.
 */
export const createdRowTables = ['logs', 'spans'] as const;

/** Columns whose value moves with the clock: the engine computes them at query time from a row's timeline. */
export const timedColumns: ReadonlySet<string> = new Set(['status', 'updatedAt', 'finishedAt']);
/**
 * The timed columns kept in a row at the clock of the last query, so an index finds them (`status`); the others
 * are computed by the table's view as they are read.
 */
export const materialisedColumns: ReadonlySet<string> = new Set(['status']);
/** Tables whose rows carry a timeline (mocks/store/runs.ts: Timeline) instead of a stored status. */
export const timedTables: ReadonlySet<TableName> = new Set(['runs', 'batches']);
/**
 * The timeline's columns and their SQLite types, stored beside a timed table's fixed columns. A status is kept as
 * its position among the contract's run statuses (one byte instead of a word), any other as its text.
 */
export const timelineColumns: [column: string, type: StoredColumnType][] = [
  ['t1Until', 'REAL'],
  ['t1Status', 'BLOB'],
  ['t1SinceMs', 'REAL'],
  ['t1Since', 'TEXT'],
  ['t2Until', 'REAL'],
  ['t2Status', 'BLOB'],
  ['t2SinceMs', 'REAL'],
  ['t2Since', 'TEXT'],
  ['tStatus', 'BLOB'],
  ['tSinceMs', 'REAL'],
  ['tSince', 'TEXT'],
  ['tFinishedAtMs', 'REAL'],
  ['tFinishedAt', 'TEXT'],
];

/** Before any instant: a phase ending here never applies (the same value as mocks/store/runs.ts NEVER). */
export const NEVER = -8.64e15;

/**
 * A row as it is shown (a fixed status, as the tests' tables hold) in the stored form of a timed table: the
 * final phase only, with the given status, updatedAt and finishedAt.
 */
export function fixedTimelineRow(row: Record<string, unknown>): Record<string, unknown> {
  const { status, updatedAt, finishedAt, ...fixed } = row;
  return {
    ...fixed,
    t1Until: NEVER,
    t2Until: NEVER,
    tStatus: status ?? null,
    tSinceMs: NEVER,
    tSince: updatedAt ?? null,
    tFinishedAtMs: null,
    tFinishedAt: finishedAt ?? null,
  };
}

/** Keeps only the caller's rows: the database a query runs in never holds another workspace's data. */
export function selectWorkspaceRows(tables: QueryTables, workspaceUuid: string): QueryTables {
  const scoped = {} as QueryTables;
  for (const name of queryTableNames) {
    const rows = Array.isArray(tables[name]) ? tables[name] : [];
    scoped[name] = rows.filter((row) => (row as { workspaceUuid?: unknown }).workspaceUuid === workspaceUuid);
  }
  return scoped;
}

/**
 * A change to a workspace's tables, in the engine's stored form: rows of timed tables carry their timelines. The
 * store describes each write it commits this way (`queryOpsOf` in store/change-feed.ts), so a database follows it in place.
 */
export type QueryOp =
  | { op: 'upsert'; table: 'runs' | 'batches'; rows: object[] }
  | { op: 'delete'; table: 'runs' | 'batches'; uuid: string }
  | { op: 'clear'; table: TableName }
  | { op: 'append'; table: 'logs' | 'spans' | 'records'; rows: object[]; keepLast?: number }
  /**
   * Created runs or batches, oldest first; beyond `keepLast` the oldest go (down to `trimTo`, as the store's
   * list), with their rows. A listed run shows its
   * created log and span rows (derived from it: mocks/store/runs.ts createdRunRows).
   */
  | { op: 'track'; list: 'runs' | 'batches'; uuids: string[]; keepLast?: number; trimTo?: number }
  | { op: 'untrack'; list: 'runs' | 'batches' }
  /**
   * These uuids leave the list of created runs or batches (their rows are deleted by their own ops; a run's
   * created log and span rows, derived from the list, go with it).
   */
  | { op: 'forget'; list: 'runs' | 'batches'; uuids: string[] };

/** Rows handed over in slices (an array is one): a large table is converted and sent a chunk at a time. */
export type RowSource = { readonly length: number; slice(start: number, end: number): object[] };

/** A workspace's tables at one version, in stored form, with the lists of created runs and batches. */
export type QuerySnapshot = {
  version: string;
  tables: Record<TableName, RowSource>;
  created: { runs: string[]; batches: string[] };
};

/**
 * Where the engine reads a workspace's data. `versions` lists the latest versions, oldest first (cheap: read per
 * query); a database at the last one is current. `subscribe` hands the engine each change as it is committed,
 * keyed by the version it produces, with its approximate size (the ops are computed only if a query needs them), so a database steps from
 * version to version without a reload; any gap (another replica's write, a trimmed list) means a fresh snapshot.
 */
export type QuerySource = {
  versions(workspaceUuid: string): Promise<string[]>;
  snapshot(workspaceUuid: string): Promise<QuerySnapshot>;
  subscribe?(
    listener: (workspaceUuid: string, version: string, ops: () => QueryOp[] | null, bytes: number) => void,
  ): () => void;
};
