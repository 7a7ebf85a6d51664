import { RUN_DEFAULTS } from './runs';
import type { Collection, EntryOf, LogRow, RunRecord, SpanRow } from './types';

/**
 * How runs and their rows are kept: a kept run costs what its data needs, not its shape. A run's text leaves out
 * the fields still at their defaults (no links, not a group parent, outcome `success`) and its workspace (the key
 * it is kept under names it); a log or span row's text leaves out its workspace. Reading puts them back, so every
 * reader gets the same record as before; a text written whole (by an older version) reads the same.
 * The form is deterministic (the same record gives the same text), which compare-and-set and the removal of a
 * row by its text rely on.
 */

/** The fields a run's text leaves out while they hold their defaults. */
const runDefaults: ReadonlyMap<string, unknown> = new Map(Object.entries(RUN_DEFAULTS));

/** A run's kept text in the workspace it is kept in. */
export function encodeRun(run: RunRecord, workspaceUuid: string): string {
  // Object.fromEntries defines own properties, so no field name can reach a prototype.
  const kept = Object.entries(run).filter(
    ([field, value]) =>
      value !== undefined &&
      !(runDefaults.has(field) && runDefaults.get(field) === value) &&
      !(field === 'workspaceUuid' && value === workspaceUuid),
  );
  return JSON.stringify(Object.fromEntries(kept));
}

/** The run a kept text holds (see encodeRun), in the workspace it is kept in. */
export function decodeRun(text: string, workspaceUuid: string): RunRecord {
  return { ...RUN_DEFAULTS, workspaceUuid, ...(JSON.parse(text) as Partial<RunRecord>) } as RunRecord;
}

type Row = { workspaceUuid?: string };
/** The lists of rows a workspace keeps. */
export type RowTable = 'logs' | 'records' | 'spans';

/**
 * Fields a row's text leaves out while they are null: a span of a created run has no parent, end or duration yet
 * (about a quarter of its text).
 */
const NULLABLE_FIELDS = new Map<RowTable, ReadonlySet<string>>([
  ['spans', new Set(['parentSpanUuid', 'endedAt', 'durationMs'])],
]);

/** A log, span or record row's kept text in the workspace it is kept in (see NULLABLE_FIELDS). */
export function encodeRow(row: Row, workspaceUuid: string, table?: RowTable): string {
  const nullable = table === undefined ? undefined : NULLABLE_FIELDS.get(table);
  const kept = Object.entries(row).filter(
    ([field, value]) =>
      !(field === 'workspaceUuid' && value === workspaceUuid) && !(value === null && nullable?.has(field)),
  );
  return JSON.stringify(Object.fromEntries(kept));
}

/** The row a kept text holds (see encodeRow): its workspace and null fields put back. */
export function decodeRow<T extends LogRow | SpanRow | object>(
  text: string,
  workspaceUuid: string,
  table?: RowTable,
): T {
  const row = JSON.parse(text) as Row;
  const nullable = table === undefined ? [] : [...(NULLABLE_FIELDS.get(table) ?? [])];
  const absent = nullable.filter((field) => !Object.hasOwn(row, field)).map((field) => [field, null]);
  return (
    row.workspaceUuid === undefined
      ? { workspaceUuid, ...row, ...Object.fromEntries(absent) }
      : { ...row, ...Object.fromEntries(absent) }
  ) as T;
}

/** An entry of a collection as kept: runs in their short form, everything else as JSON. */
export function encodeEntry(collection: Collection, value: unknown, workspaceUuid: string): string {
  return collection === 'runs' ? encodeRun(value as RunRecord, workspaceUuid) : JSON.stringify(value);
}

/** The entry a kept text of a collection holds. */
export function decodeEntry<C extends Collection>(collection: C, text: string, workspaceUuid: string): EntryOf<C> {
  return (collection === 'runs' ? decodeRun(text, workspaceUuid) : JSON.parse(text)) as EntryOf<C>;
}
