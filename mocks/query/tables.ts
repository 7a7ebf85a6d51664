/**
 * The tables `POST /orchestration/query` can read, one row per entity, columns camelCase as documented in the spec
 * (x-rules: workspace-scoping). The declared type gives SQLite its column affinity; everything else is TEXT.
 */
export type ColumnType = 'TEXT' | 'INTEGER' | 'REAL';
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

/** Keeps only the caller's rows: the database a query runs in never holds another workspace's data. */
export function selectWorkspaceRows(tables: QueryTables, workspaceUuid: string): QueryTables {
  const scoped = {} as QueryTables;
  for (const name of queryTableNames) {
    const rows = Array.isArray(tables[name]) ? tables[name] : [];
    scoped[name] = rows.filter((row) => (row as { workspaceUuid?: unknown }).workspaceUuid === workspaceUuid);
  }
  return scoped;
}
