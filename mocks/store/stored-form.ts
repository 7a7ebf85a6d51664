import { CREATED_LOG, CREATED_SPAN, RUN_DEFAULTS, millisecondsOfIso } from './runs';
import type { Collection, EntryOf, LogRow, RunRecord, SpanRow } from './types';

/**
 * How runs and their rows are kept: a kept run costs what its data needs, not its shape. A run's text leaves out
 * the fields still at their defaults (no links, not a group parent, outcome `success`), its workspace and its uuid
 * (the key and the hash field it is kept under name them); a log or span row's text leaves out its workspace. Reading puts them back, so every
 * reader gets the same record as before; a text written whole (by an older version) reads the same.
 * The form is deterministic (the same record gives the same text), which compare-and-set and the removal of a
 * row by its text rely on.
 */

/** The fields a run's text leaves out while they hold their defaults. */
const runDefaults: ReadonlyMap<string, unknown> = new Map(Object.entries(RUN_DEFAULTS));

/** A run's kept text in the workspace it is kept in, under the hash field `uuid` (which names it: left out). */
export function encodeRun(run: RunRecord, workspaceUuid: string, uuid: string): string {
  // Object.fromEntries defines own properties, so no field name can reach a prototype.
  const kept = Object.entries(run).filter(
    ([field, value]) =>
      value !== undefined &&
      !(runDefaults.has(field) && runDefaults.get(field) === value) &&
      !(field === 'workspaceUuid' && value === workspaceUuid) &&
      !(field === 'uuid' && value === uuid),
  );
  return JSON.stringify(Object.fromEntries(kept));
}

/** The run a kept text holds (see encodeRun), in the workspace it is kept in, under the hash field `uuid`. */
export function decodeRun(text: string, workspaceUuid: string, uuid: string): RunRecord {
  return { ...RUN_DEFAULTS, workspaceUuid, uuid, ...(JSON.parse(text) as Partial<RunRecord>) } as RunRecord;
}

type Row = { workspaceUuid?: string };
/** The lists of rows a workspace keeps. */
export type RowTable = 'logs' | 'records' | 'spans';

/**
 * Fields a row's text leaves out while they hold these values: what a created run's log and span rows say (their
 * level and message; a span's name, and no parent, end or duration yet), about a quarter of their text.
 */
const ROW_DEFAULTS = new Map<RowTable, ReadonlyMap<string, unknown>>([
  ['logs', new Map(Object.entries(CREATED_LOG))],
  ['spans', new Map(Object.entries(CREATED_SPAN))],
]);
/** Instants a row's text keeps as milliseconds (`<field>Ms`: 13 digits instead of 26 characters) where they read back. */
const ROW_INSTANTS = new Map<RowTable, ReadonlySet<string>>([
  ['logs', new Set(['createdAt'])],
  ['records', new Set(['createdAt'])],
  ['spans', new Set(['startedAt', 'endedAt'])],
]);

/** A log, span or record row's kept text in the workspace it is kept in (see ROW_DEFAULTS, ROW_INSTANTS). */
export function encodeRow(row: Row, workspaceUuid: string, table?: RowTable): string {
  const defaults = table === undefined ? undefined : ROW_DEFAULTS.get(table);
  const instants = table === undefined ? undefined : ROW_INSTANTS.get(table);
  const kept = Object.entries(row).flatMap(([field, value]): [string, unknown][] => {
    if (field === 'workspaceUuid' && value === workspaceUuid) return [];
    if (defaults?.has(field) && defaults.get(field) === value) return [];
    const ms = instants?.has(field) && !Object.hasOwn(row, `${field}Ms`) ? millisecondsOfIso(value) : undefined;
    return [ms === undefined ? [field, value] : [`${field}Ms`, ms]];
  });
  return JSON.stringify(Object.fromEntries(kept));
}

/** The row a kept text holds (see encodeRow): its workspace, instants and default fields put back. */
export function decodeRow<T extends LogRow | SpanRow | object>(
  text: string,
  workspaceUuid: string,
  table?: RowTable,
): T {
  const row = JSON.parse(text) as Row;
  const defaults = table === undefined ? undefined : ROW_DEFAULTS.get(table);
  const instants = table === undefined ? undefined : ROW_INSTANTS.get(table);
  const fields = Object.entries(row).map(([field, value]): [string, unknown] => {
    const instant = field.endsWith('Ms') ? field.slice(0, -2) : '';
    const kept = instants?.has(instant) && typeof value === 'number' && !Object.hasOwn(row, instant);
    return kept ? [instant, new Date(value).toISOString()] : [field, value];
  });
  const named = new Set(fields.map(([field]) => field));
  const absent = [...(defaults ?? [])].filter(([field]) => !named.has(field));
  const workspace: [string, unknown][] = named.has('workspaceUuid') ? [] : [['workspaceUuid', workspaceUuid]];
  return Object.fromEntries([...workspace, ...fields, ...absent]) as T;
}

/** An entry of a collection as kept: runs in their short form, everything else as JSON. */
export function encodeEntry(collection: Collection, value: unknown, workspaceUuid: string, uuid: string): string {
  return collection === 'runs' ? encodeRun(value as RunRecord, workspaceUuid, uuid) : JSON.stringify(value);
}

/** The entry a kept text of a collection holds, under the hash field `uuid`. */
export function decodeEntry<C extends Collection>(
  collection: C,
  text: string,
  workspaceUuid: string,
  uuid: string,
): EntryOf<C> {
  return (collection === 'runs' ? decodeRun(text, workspaceUuid, uuid) : JSON.parse(text)) as EntryOf<C>;
}
