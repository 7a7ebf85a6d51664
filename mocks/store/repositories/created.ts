import { markerKey, workspaceKey } from '../keys';
import { viewBatch, viewRun } from '../runs';
import type { BatchRecord, JsonRecord, RunRecord } from '../types';
import { decodeRun } from '../stored-form';
import type { WorkspaceSlice } from './workspace-slice';

/** What a client created since start (or since the last reset): the control plane lists it. */
export type CreatedEntry = {
  kind: 'mcpServer' | 'run' | 'batch';
  uuid: string;
  workspaceUuid: string;
  createdAt: string | null;
  status?: string;
};

/** One page of the listing: `next` continues it (absent on the last page); `count` is the total listed. */
export type CreatedPage = { count: number; created: CreatedEntry[]; next?: string };

/** Entries of one page: by default, and at most (a page is read and answered in one piece). */
export const CREATED_PAGE = { default: 1_000, max: 10_000 } as const;

const KINDS = [
  { kind: 'mcpServer', collection: 'mcpServers' },
  { kind: 'run', collection: 'runs' },
  { kind: 'batch', collection: 'batches' },
] as const;

/**
 * Where a page starts: the workspace (its index in the selection), the kind, and the last entry listed of it
 * (its uuid and its index, the index used when the entry has gone since — removed by age or by the caps).
 */
type Cursor = { workspace: number; kind: number; index: number; after: string };

const CURSOR = /^(\d{1,6})\.([0-2])\.(\d{1,9})\.([0-9a-f-]{0,64})$/i;

/** A cursor from a previous page, or undefined when `text` is not one. */
export function parseCreatedCursor(text: string): Cursor | undefined {
  const match = CURSOR.exec(text);
  if (!match) return undefined;
  return { workspace: Number(match[1]), kind: Number(match[2]), index: Number(match[3]), after: match[4] };
}

const cursorText = (cursor: Cursor) => `${cursor.workspace}.${cursor.kind}.${cursor.index}.${cursor.after}`;

/**
 * The listing of what clients created, a page at a time: by workspace (in the order asked), then MCP servers,
 * runs and batches, each oldest first (the `-created` lists are in creation order). A page reads the lists'
 * lengths, then only its own range of uuids and their records, so a workspace with 100 000 created runs costs
 * one page per call, never all of them.
 */
export function createCreatedListing(slice: WorkspaceSlice, now: () => number) {
  const entryOf = async (workspaceUuid: string, kind: number, uuid: string, text: string): Promise<CreatedEntry> => {
    if (kind === 0) {
      const server = JSON.parse(text) as JsonRecord;
      const createdAt = (server.createdAt as string | undefined) ?? null;
      return { kind: 'mcpServer', uuid: server.uuid as string, workspaceUuid, createdAt };
    }
    const record = kind === 1 ? decodeRun(text, workspaceUuid, uuid) : (JSON.parse(text) as BatchRecord);
    const createdAt = new Date(record.createdAtMs).toISOString();
    const base = { uuid: record.uuid, workspaceUuid, createdAt };
    if (kind === 1) return { kind: 'run', ...base, status: viewRun(record as RunRecord, now()).status };
    const batch = record as BatchRecord;
    const members = batch.fixedStatus || batch.tally ? [] : await readRuns(workspaceUuid, batch.runUuids);
    return { kind: 'batch', ...base, status: viewBatch(batch, now(), members).status };
  };

  const readRuns = async (workspaceUuid: string, uuids: string[]) => {
    const at = workspaceKey(workspaceUuid, 'runs');
    const reads = uuids.map((field) => ({ op: 'hget' as const, key: at, field }));
    const { values } = await slice.readWorkspace(workspaceUuid, reads);
    return values.flatMap((text, i) => (text === null ? [] : [decodeRun(text, workspaceUuid, uuids[i])]));
  };

  const listKey = (workspaceUuid: string, kind: number) =>
    workspaceKey(workspaceUuid, `${KINDS[kind].collection}-created`);

  /**
   * The lengths of the created lists of the seeded workspaces among these, per workspace and kind (an unseeded
   * workspace created nothing, and is not seeded for being listed).
   */
  const createdLengths = async (workspaceUuids: string[]): Promise<number[][]> => {
    const markers = await slice.port.read(workspaceUuids.map((uuid) => ({ op: 'get' as const, key: markerKey(uuid) })));
    return Promise.all(
      workspaceUuids.map(async (workspaceUuid, i) => {
        if (markers[i] === null) return KINDS.map(() => 0);
        const reads = KINDS.map((_, kind) => ({ op: 'length' as const, key: listKey(workspaceUuid, kind) }));
        return (await slice.readWorkspace(workspaceUuid, reads)).values;
      }),
    );
  };

  /** Uuids of one created list from `from`, at most `count`. */
  const uuidsOf = async (workspaceUuid: string, kind: number, from: number, count?: number) => {
    const read = { op: 'list' as const, key: listKey(workspaceUuid, kind), from, first: count };
    return (await slice.readWorkspace(workspaceUuid, [read])).values[0];
  };

  /**
   * Where the list of a cursor goes on: after its last entry listed, found where it was; when entries before it
   * went meanwhile (the age or count bound trim the head), it is looked for in the list; when it went itself, the
   * head was trimmed past it, so the list goes on from its head.
   */
  const resume = async (workspaceUuid: string, cursor: Cursor): Promise<number> => {
    if (cursor.after === '') return 0;
    const [there] = await uuidsOf(workspaceUuid, cursor.kind, cursor.index, 1);
    if (there === cursor.after) return cursor.index + 1;
    const at = (await uuidsOf(workspaceUuid, cursor.kind, 0)).indexOf(cursor.after);
    return at >= 0 ? at + 1 : 0;
  };

  /** The entries of these uuids of one list, read in one round trip (gone ones left out). */
  const entriesOf = async (workspaceUuid: string, kind: number, uuids: string[]) => {
    if (uuids.length === 0) return [];
    const at = workspaceKey(workspaceUuid, KINDS[kind].collection);
    const reads = uuids.map((field) => ({ op: 'hget' as const, key: at, field }));
    const { values } = await slice.readWorkspace(workspaceUuid, reads);
    const entries: CreatedEntry[] = [];
    for (const [i, text] of values.entries())
      if (text !== null) entries.push(await entryOf(workspaceUuid, kind, uuids[i], text));
    return entries;
  };

  /** True when no list after this one (this workspace's later kinds, then later workspaces) holds an entry. */
  const nothingAfter = (lengths: number[][], workspace: number, kind: number) =>
    lengths.every((kinds, w) => w < workspace || kinds.every((n, k) => (w === workspace && k <= kind) || n === 0));

  /**
   * One page of the listing, from `cursor` (the start without one): the lists' lengths, then only the uuids and
   * records of the page, so a page costs what it holds however long the lists are.
   */
  const listCreatedPage = async (
    workspaceUuids: string[],
    page: { limit?: number; cursor?: Cursor } = {},
  ): Promise<CreatedPage> => {
    const limit = Math.max(1, Math.min(page.limit ?? CREATED_PAGE.default, CREATED_PAGE.max));
    const lengths = await createdLengths(workspaceUuids);
    const count = lengths.flat().reduce((n, length) => n + length, 0);
    const from = page.cursor ?? { workspace: 0, kind: 0, index: 0, after: '' };
    const created: CreatedEntry[] = [];
    for (let w = from.workspace; w < workspaceUuids.length; w++) {
      for (let kind = w === from.workspace ? from.kind : 0; kind < KINDS.length; kind++) {
        const length = lengths[w][kind];
        const resumed = w === from.workspace && kind === from.kind;
        const start = resumed ? await resume(workspaceUuids[w], from) : 0;
        const uuids = start < length ? await uuidsOf(workspaceUuids[w], kind, start, limit - created.length) : [];
        created.push(...(await entriesOf(workspaceUuids[w], kind, uuids)));
        const end = start + uuids.length;
        if (created.length < limit && end >= length) continue;
        if (end >= length && nothingAfter(lengths, w, kind)) return { count, created };
        return { count, created, next: cursorText({ workspace: w, kind, index: end - 1, after: uuids.at(-1) ?? '' }) };
      }
    }
    return { count, created };
  };

  return {
    listCreatedPage,

    /** Everything listed, page by page (tests, small mocks): the control plane answers a page at a time. */
    async listCreated(workspaceUuids: string[]): Promise<CreatedEntry[]> {
      const all: CreatedEntry[] = [];
      let cursor: Cursor | undefined;
      for (;;) {
        const page = await listCreatedPage(workspaceUuids, { limit: CREATED_PAGE.max, cursor });
        all.push(...page.created);
        if (page.next === undefined) return all;
        cursor = parseCreatedCursor(page.next);
      }
    },
  };
}
