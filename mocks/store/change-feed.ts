import { partOfKey, workspaceKey } from './keys';
import { batchQueryRow, rowsOfListedRuns, runQueryRow, runsOfBatch, viewBatch, viewRun } from './runs';
import type { Write } from './port';
import { decodeRow, decodeRun, type RowTable } from './stored-form';
import type { WorkspaceReader } from './repositories/workspace-slice';
import type { BatchRecord, LogRow, RecordRow, RunRecord, SpanRow } from './types';
import type { QueryOp, QuerySnapshot, QuerySource } from '../query/tables';
import { randomUuid } from '../web/bytes';

/**
 * The SQL change feed: how the store's commits reach the query engine. A commit that touches a workspace's SQL
 * tables appends a new version to the workspace's `query-versions` list in the same atomic commit, and the
 * engine is told its changes before the commit; the engine reads the list per query, applies the changes it
 * holds, and loads a consistent snapshot when it missed one.
 */

/** Parts of a workspace's keys the SQL tables are made of: a write to one of them is a new version of the tables. */
const QUERY_PARTS: ReadonlySet<string> = new Set([
  'runs',
  'batches',
  'logs',
  'records',
  'spans',
  'runs-created',
  'batches-created',
]);
/** Versions of a workspace's SQL tables remembered; a database older than these is loaded afresh. */
const QUERY_VERSIONS_KEPT = 1024;
const VERSIONS_PART = 'query-versions';

export type QueryTablesRows = { runs: object[]; batches: object[]; logs: object[]; records: object[]; spans: object[] };

export type QueryChangeListener = (
  workspaceUuid: string,
  version: string,
  ops: () => QueryOp[] | null,
  bytes: number,
) => void;

/** The writes' bytes, roughly: what a listener keeps if it holds the changes until a query needs them. */
const bytesOf = (writes: Write[]) =>
  writes.reduce(
    (n, write) => n + ('value' in write ? write.value.length : 'values' in write ? write.values.join('').length : 0),
    0,
  );

/** The feed's write side: every repository's commit passes through `announce`. */
export function createQueryChangeFeed() {
  const listeners = new Set<QueryChangeListener>();

  /** The writes with a new version of the SQL tables when they touch them (see the module comment). */
  const versioned = (workspaceUuid: string, writes: Write[]): { writes: Write[]; version?: string } => {
    if (!writes.some((write) => QUERY_PARTS.has(partOfKey(workspaceUuid, write.key) ?? ''))) return { writes };
    const version = randomUuid();
    const append: Write = {
      op: 'append',
      key: workspaceKey(workspaceUuid, VERSIONS_PART),
      values: [version],
      keepLast: QUERY_VERSIONS_KEPT,
    };
    return { writes: [...writes, append], version };
  };

  return {
    versioned,
    /** The writes with their SQL-tables version, the engine told of their changes before they are committed. */
    announce(workspaceUuid: string, changes: Write[]): Write[] {
      const { writes, version } = versioned(workspaceUuid, changes);
      // Told before the commit, so a query that reads the new version already finds its changes.
      if (version && listeners.size > 0) {
        const bytes = bytesOf(changes);
        for (const listener of listeners)
          listener(workspaceUuid, version, () => queryOpsOf(workspaceUuid, changes), bytes);
      }
      return writes;
    },
    /** Tells `listener` of every change to SQL tables committed through `announce`; returns the unsubscribe. */
    subscribe(listener: QueryChangeListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type QueryChangeFeed = ReturnType<typeof createQueryChangeFeed>;

/** A write to one of the SQL tables' parts as the engine's op, or null when it cannot be expressed. */
function opOf(workspaceUuid: string, write: Write, runs: Map<string, RunRecord>): QueryOp | null {
  const part = partOfKey(workspaceUuid, write.key) ?? '';
  const list = part === 'runs-created' ? 'runs' : part === 'batches-created' ? 'batches' : undefined;
  if (write.op === 'hset' && part === 'runs') {
    const run = runs.get(write.field) ?? decodeRun(write.value, workspaceUuid, write.field);
    return { op: 'upsert', table: 'runs', rows: [runQueryRow(run)] };
  }
  if (write.op === 'hset' && part === 'batches') {
    const batch = JSON.parse(write.value) as BatchRecord;
    const members = batch.runUuids.flatMap((uuid) => runs.get(uuid) ?? []);
    if (!batch.fixedStatus && !batch.tally && members.length < batch.runUuids.length) return null;
    return { op: 'upsert', table: 'batches', rows: [batchQueryRow(batch, members)] };
  }
  if (write.op === 'hdelete' && (part === 'runs' || part === 'batches'))
    return { op: 'delete', table: part, uuid: write.field };
  if (write.op === 'delete') return list ? { op: 'untrack', list } : { op: 'clear', table: part as 'runs' };
  if (write.op === 'append' && list)
    return { op: 'track', list, uuids: write.values, keepLast: write.keepLast, trimTo: write.trimTo };
  if (write.op === 'remove' && list) return { op: 'forget', list, uuids: write.values };
  if (write.op === 'append' && (part === 'logs' || part === 'spans' || part === 'records')) {
    const rows = write.values.map((text) => decodeRow(text, workspaceUuid, part));
    return { op: 'append', table: part, rows, keepLast: write.keepLast };
  }
  return null;
}

/**
 * The same writes as changes to the SQL tables in their stored form; null when they cannot be expressed without
 * reading more (a batch whose status comes from runs not written with it).
 */
export function queryOpsOf(workspaceUuid: string, writes: Write[]): QueryOp[] | null {
  const runs = new Map<string, RunRecord>();
  for (const write of writes)
    if (write.op === 'hset' && partOfKey(workspaceUuid, write.key) === 'runs')
      runs.set(write.field, decodeRun(write.value, workspaceUuid, write.field));
  const ops: QueryOp[] = [];
  for (const write of writes) {
    if (!QUERY_PARTS.has(partOfKey(workspaceUuid, write.key) ?? '')) continue;
    const op = opOf(workspaceUuid, write, runs);
    if (op === null) return null;
    ops.push(op);
  }
  return ops;
}

const sortRuns = (runs: RunRecord[]) =>
  runs.sort((a, b) => a.createdAtMs - b.createdAtMs || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));

/** The feed's read side: the workspace's SQL tables read from the store, as rows or as a versioned snapshot. */
export function createQueryTablesReader(options: {
  readWorkspace: WorkspaceReader;
  now: () => number;
  feed: QueryChangeFeed;
}) {
  const { readWorkspace } = options;
  const tableReads = (workspaceUuid: string) =>
    [
      { op: 'hgetall', key: workspaceKey(workspaceUuid, 'runs') },
      { op: 'hgetall', key: workspaceKey(workspaceUuid, 'batches') },
      { op: 'list', key: workspaceKey(workspaceUuid, 'logs') },
      { op: 'list', key: workspaceKey(workspaceUuid, 'records') },
      { op: 'list', key: workspaceKey(workspaceUuid, 'spans') },
      { op: 'list', key: workspaceKey(workspaceUuid, 'runs-created') },
    ] as const;

  const reader = {
    /** Rows for the SQL engine: one per entity, camelCase columns, booleans as 0/1, statuses as of now; one round trip. */
    async readQueryTables(workspaceUuid: string): Promise<QueryTablesRows> {
      const { values } = await readWorkspace(workspaceUuid, tableReads(workspaceUuid));
      const [runTexts, batchTexts, logs, records, spans, listed] = values;
      const now = options.now();
      const runs = new Map<string, RunRecord>();
      for (const run of sortRuns(Object.entries(runTexts).map(([uuid, text]) => decodeRun(text, workspaceUuid, uuid))))
        runs.set(run.uuid, run);
      // The rows kept, then those the created runs show (derived from them, as the SQL tables show them).
      const created = rowsOfListedRuns(listed, runs);
      return {
        runs: [...runs.values()].map((run) => {
          const view = viewRun(run, now);
          return { ...view, isGroupParent: view.isGroupParent ? 1 : 0 };
        }),
        batches: Object.values(batchTexts).map((text) => {
          const batch = JSON.parse(text) as BatchRecord;
          const { errorMessage: _ignored, ...row } = viewBatch(batch, now, runsOfBatch({ runs }, batch));
          return row;
        }),
        logs: [...logs.map((text) => decodeRow<LogRow>(text, workspaceUuid, 'logs')), ...created.logs],
        records: records.map((text) => decodeRow<RecordRow>(text, workspaceUuid, 'records')),
        spans: [...spans.map((text) => decodeRow<SpanRow>(text, workspaceUuid, 'spans')), ...created.spans],
      };
    },

    /** The latest versions of the workspace's SQL tables, oldest first. */
    async queryVersions(workspaceUuid: string): Promise<string[]> {
      const { values } = await readWorkspace(workspaceUuid, [
        { op: 'list', key: workspaceKey(workspaceUuid, VERSIONS_PART) },
      ]);
      return values[0];
    },

    /** The workspace's SQL tables in stored form (timelines, not statuses) at one version, in one consistent read. */
    async querySnapshot(workspaceUuid: string): Promise<QuerySnapshot> {
      const { values } = await readWorkspace(workspaceUuid, [
        { op: 'list', key: workspaceKey(workspaceUuid, VERSIONS_PART) },
        ...tableReads(workspaceUuid),
        { op: 'list', key: workspaceKey(workspaceUuid, 'batches-created') },
      ] as const);
      const [versions, runTexts, batchTexts, logs, records, spans, runsCreated, batchesCreated] = values;
      return {
        version: versions.at(-1) ?? '',
        tables: storedTables(workspaceUuid, runTexts, batchTexts, { logs, records, spans }),
        created: { runs: runsCreated, batches: batchesCreated },
      };
    },

    /** Tells `listener` of every change to SQL tables this store commits, before it commits; returns the unsubscribe. */
    subscribeQueryChanges: (listener: QueryChangeListener) => options.feed.subscribe(listener),

    /** This store as the SQL engine's source: versions, snapshots and changes of each workspace's tables. */
    querySource(): QuerySource {
      return {
        versions: (workspaceUuid) => reader.queryVersions(workspaceUuid),
        snapshot: (workspaceUuid) => reader.querySnapshot(workspaceUuid),
        subscribe: (listener) => options.feed.subscribe(listener),
      };
    },
  };
  return reader;
}

/**
 * Stored texts as the engine's tables, converted a slice at a time as the engine sends them on. (A created run's
 * log and span rows are not among them: the engine generates them in the order of the list of created runs.)
 */
function storedTables(
  workspaceUuid: string,
  runTexts: Record<string, string>,
  batchTexts: Record<string, string>,
  rows: { logs: string[]; records: string[]; spans: string[] },
): QuerySnapshot['tables'] {
  // Converted lazily, so a large workspace never stalls the event loop.
  const lazy = <S, T>(texts: S[], convert: (text: S) => T) => ({
    length: texts.length,
    slice: (start: number, end: number) => texts.slice(start, end).map(convert),
  });
  const runOf = ([uuid, text]: [string, string]) => decodeRun(text, workspaceUuid, uuid);
  const runTextOf = new Map(Object.entries(runTexts));
  const parseRow = (table: RowTable) => (text: string) => decodeRow(text, workspaceUuid, table);
  return {
    runs: lazy(Object.entries(runTexts), (entry) => runQueryRow(runOf(entry))),
    batches: lazy(Object.values(batchTexts), (text) => {
      const batch = JSON.parse(text) as BatchRecord;
      const needsRuns = !batch.fixedStatus && !batch.tally;
      const members = needsRuns
        ? batch.runUuids.flatMap((uuid) => {
            const run = runTextOf.get(uuid);
            return run === undefined ? [] : [runOf([uuid, run])];
          })
        : [];
      return batchQueryRow(batch, members);
    }),
    logs: lazy(rows.logs, parseRow('logs')),
    records: lazy(rows.records, parseRow('records')),
    spans: lazy(rows.spans, parseRow('spans')),
  };
}
