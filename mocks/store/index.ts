import { randomUUID } from 'node:crypto';
import { STORE_LIMITS, approximateBytes } from '../limits';
import { createByteBudget } from './byte-budget';
import { SEED_COUNTS, seedWorkspace } from './seed';
import { batchQueryRow, runQueryRow, runsOfBatch, viewBatch, viewRun, type RunView } from './runs';
import type { QueryOp, QuerySnapshot, QuerySource } from '../query/tables';
import type { Guard, Read, ReadResults, StoragePort, Write } from './port';
import type {
  AllocationEntry,
  BatchRecord,
  JsonRecord,
  LogRow,
  RecipeEntry,
  RecordRow,
  RunRecord,
  SpanRow,
  Suppression,
  WorkspaceState,
} from './types';

export type QueryTablesRows = { runs: object[]; batches: object[]; logs: object[]; records: object[]; spans: object[] };
export type Download = { workspaceUuid: string; runs: RunView[]; createdAtMs: number };
/** What a client created since start (or since the last reset): the control plane lists it. */
export type CreatedEntry = {
  kind: 'mcpServer' | 'run' | 'batch';
  uuid: string;
  workspaceUuid: string;
  createdAt: string | null;
  status?: string;
};
/** Collections a fixture file may replace; each one given replaces the seeded one whole. */
export type WorkspaceFixture = Partial<
  Pick<
    WorkspaceState,
    | 'workspace'
    | 'suppressions'
    | 'mcpServers'
    | 'workflows'
    | 'models'
    | 'domains'
    | 'allocations'
    | 'envVars'
    | 'recipes'
    | 'runs'
    | 'batches'
  >
>;

/** Collections kept as one hash per workspace, an entry per uuid. */
export type Collection = 'mcpServers' | 'workflows' | 'models' | 'domains' | 'envVars' | 'runs' | 'batches';
type EntryOf<C extends Collection> = C extends 'runs' ? RunRecord : C extends 'batches' ? BatchRecord : JsonRecord;
/** Lists the API only reads, kept as one JSON value each. */
type FixedList = 'suppressions' | 'allocations' | 'recipes';
type FixedListOf<L extends FixedList> = L extends 'suppressions'
  ? Suppression[]
  : L extends 'allocations'
    ? AllocationEntry[]
    : RecipeEntry[];

export type StoreLimits = {
  /** Runs created through the API per workspace (oldest out first, with the rows of logs and spans beyond theirs). */
  runsPerWorkspace: number;
  batchesPerWorkspace: number;
  /**
   * Runs and batches created through the API are kept this long after their creation, then removed with their
   * log and span rows (age bound, beside the count bound). Seeded and fixture runs are fixed data and stay.
   */
  runTtlMs: number;
  mcpServersPerWorkspace: number;
  /** Downloads kept at once (oldest out first), each for this long, and their bytes in all. */
  downloads: number;
  downloadTtlMs: number;
  downloadBytes: number;
  /** Bytes of created MCP servers per workspace (oldest created out first). */
  mcpServerBytesPerWorkspace: number;
};

export const DEFAULT_STORE_LIMITS: StoreLimits = {
  runsPerWorkspace: 100_000,
  batchesPerWorkspace: 10_000,
  runTtlMs: 24 * 60 * 60 * 1000,
  mcpServersPerWorkspace: 1_000,
  downloads: 1_000,
  downloadTtlMs: 60 * 60 * 1000,
  downloadBytes: STORE_LIMITS.downloadBytes,
  mcpServerBytesPerWorkspace: STORE_LIMITS.mcpServerBytesPerWorkspace,
};

/** Parsed values of unchanged JSON texts are reused (the hot read paths); at most this many are kept. */
const PARSE_CACHE_SIZE = 256;
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

export type QueryChangeListener = (
  workspaceUuid: string,
  version: string,
  ops: () => QueryOp[] | null,
  bytes: number,
) => void;

/** How often one process looks, per workspace, for created runs and batches past their age (at most). */
const EXPIRY_CHECK_EVERY_MS = 1_000;
/** Created runs (and batches) looked at per removal step at most: the head of the created list, oldest first. */
const EXPIRY_WINDOW_MAX = 512;
/** Runs and batches removed by one check at most; the rest go at the next request (checked again at once). */
const EXPIRY_BUDGET = 5_000;
/**
 * Rows of logs (and of spans) looked at per removal step: the seeded rows, which lie before every created run's,
 * and a few rows per expired run (each created run writes one of each). Rows of an expired run not among them
 * (none, as the mock writes them) are left to the count bound.
 */
const expiryRowWindow = (runs: number) => 2 * SEED_COUNTS.runs + 4 * runs;
/** Workspaces whose next age check this process remembers; beyond, the oldest are forgotten (checked sooner). */
const EXPIRY_WORKSPACES_KEPT = 10_000;

/** A compare-and-set that keeps losing to other writers gives up after this many tries (500, never a lost write). */
const MAX_UPDATE_TRIES = 50;

/**
 * The mock's state, one slice per workspace, kept in the storage port (memory or Redis) so every replica sees
 * the same: seeded from MOCK_SEED once per workspace (whichever replica reads it first writes the seed, guarded
 * by a marker, so it is written once), then read and written per entry. Every key of a workspace begins with
 * `ws:<uuid>:`, so one workspace never reaches another's data (x-rules workspace-scoping). Changes are atomic
 * in the port: new entries in one guarded batch, edits by compare-and-set, removals guarded by presence.
 */
export function createStore(options: {
  port: StoragePort;
  seed: number;
  now: () => number;
  limits?: Partial<StoreLimits>;
}) {
  const { port } = options;
  const limits: StoreLimits = { ...DEFAULT_STORE_LIMITS, ...options.limits };
  const key = (workspaceUuid: string, part: string) => `ws:${workspaceUuid}:${part}`;
  const markerOf = (workspaceUuid: string) => key(workspaceUuid, 'seeded');
  const parsedTexts = new Map<string, { text: string; value: unknown }>();
  // Byte bounds beside the port's count and age bounds: the oldest go once the budget is spent.
  const downloadBudget = createByteBudget(limits.downloadBytes);
  const mcpServerBudget = createByteBudget(limits.mcpServerBytesPerWorkspace);

  /** JSON.parse, reusing the value of the last identical text read under `cacheKey` (values are never mutated). */
  const parseCached = <T>(cacheKey: string, text: string): T => {
    const cached = parsedTexts.get(cacheKey);
    if (cached && cached.text === text) return cached.value as T;
    const value = JSON.parse(text) as T;
    parsedTexts.delete(cacheKey);
    parsedTexts.set(cacheKey, { text, value });
    if (parsedTexts.size > PARSE_CACHE_SIZE) parsedTexts.delete(parsedTexts.keys().next().value!);
    return value;
  };

  const queryListeners = new Set<QueryChangeListener>();
  const partOf = (workspaceUuid: string, at: string) => {
    const prefix = key(workspaceUuid, '');
    return at.startsWith(prefix) ? at.slice(prefix.length) : undefined;
  };
  /**
   * A write batch that changes the SQL tables also appends a new version to the workspace's list of versions, in
   * the same atomic commit, so a query engine can tell whether its database is current, and which changes (if it
   * saw them all) take it there.
   */
  const versioned = (workspaceUuid: string, writes: Write[]): { writes: Write[]; version?: string } => {
    if (!writes.some((write) => QUERY_PARTS.has(partOf(workspaceUuid, write.key) ?? ''))) return { writes };
    const version = randomUUID();
    return {
      writes: [
        ...writes,
        { op: 'append', key: key(workspaceUuid, 'query-versions'), values: [version], keepLast: QUERY_VERSIONS_KEPT },
      ],
      version,
    };
  };

  /**
   * The same writes as changes to the SQL tables in their stored form; null when they cannot be expressed without
   * reading more (a batch whose status comes from runs not written with it).
   */
  const queryOpsOf = (workspaceUuid: string, writes: Write[]): QueryOp[] | null => {
    const runs = new Map<string, RunRecord>();
    for (const write of writes)
      if (write.op === 'hset' && partOf(workspaceUuid, write.key) === 'runs')
        runs.set(write.field, JSON.parse(write.value) as RunRecord);
    const ops: QueryOp[] = [];
    for (const write of writes) {
      const part = partOf(workspaceUuid, write.key);
      if (part === undefined || !QUERY_PARTS.has(part)) continue;
      const list = part === 'runs-created' ? 'runs' : part === 'batches-created' ? 'batches' : undefined;
      if (write.op === 'hset' && part === 'runs') {
        ops.push({ op: 'upsert', table: 'runs', rows: [runQueryRow(runs.get(write.field)!)] });
      } else if (write.op === 'hset' && part === 'batches') {
        const batch = JSON.parse(write.value) as BatchRecord;
        const members = batch.runUuids.flatMap((uuid) => runs.get(uuid) ?? []);
        if (!batch.fixedStatus && !batch.tally && members.length < batch.runUuids.length) return null;
        ops.push({ op: 'upsert', table: 'batches', rows: [batchQueryRow(batch, members)] });
      } else if (write.op === 'hdelete' && (part === 'runs' || part === 'batches')) {
        ops.push({ op: 'delete', table: part, uuid: write.field });
      } else if (write.op === 'delete') {
        ops.push(list ? { op: 'untrack', list } : { op: 'clear', table: part as 'runs' });
      } else if (write.op === 'append' && list) {
        ops.push({ op: 'track', list, uuids: write.values, keepLast: write.keepLast });
      } else if (write.op === 'remove' && list) {
        ops.push({ op: 'forget', list, uuids: write.values });
      } else if (write.op === 'remove' && (part === 'logs' || part === 'spans')) {
        const uuids = write.values.map((text) => (JSON.parse(text) as { uuid: string }).uuid);
        ops.push({ op: 'remove', table: part, uuids });
      } else if (write.op === 'append' && (part === 'logs' || part === 'spans' || part === 'records')) {
        ops.push({
          op: 'append',
          table: part,
          rows: write.values.map((text) => JSON.parse(text) as object),
          keepLast: write.keepLast,
        });
      } else {
        return null;
      }
    }
    return ops;
  };

  /** Writes the seed of a workspace unless some replica already did (the marker guards the whole batch). */
  const seed = async (workspaceUuid: string) => {
    const state = seedWorkspace(workspaceUuid, options.seed);
    const writes: Write[] = [
      { op: 'set', key: key(workspaceUuid, 'workspace'), value: JSON.stringify(state.workspace) },
      { op: 'set', key: key(workspaceUuid, 'suppressions'), value: JSON.stringify(state.suppressions) },
      { op: 'set', key: key(workspaceUuid, 'allocations'), value: JSON.stringify(state.allocations) },
      { op: 'set', key: key(workspaceUuid, 'recipes'), value: JSON.stringify(state.recipes) },
      { op: 'append', key: key(workspaceUuid, 'logs'), values: state.logs.map((row) => JSON.stringify(row)) },
      { op: 'append', key: key(workspaceUuid, 'records'), values: state.records.map((row) => JSON.stringify(row)) },
      { op: 'append', key: key(workspaceUuid, 'spans'), values: state.spans.map((row) => JSON.stringify(row)) },
    ];
    for (const collection of ['mcpServers', 'workflows', 'models', 'domains', 'envVars', 'runs', 'batches'] as const) {
      for (const [uuid, value] of state[collection])
        writes.push({ op: 'hset', key: key(workspaceUuid, collection), field: uuid, value: JSON.stringify(value) });
    }
    writes.push({
      op: 'set',
      key: markerOf(workspaceUuid),
      value: JSON.stringify({ seed: options.seed, userUuid: state.userUuid }),
    });
    await port.commit(versioned(workspaceUuid, writes).writes, [{ key: markerOf(workspaceUuid), is: 'absent' }]);
  };

  /** Reads of one workspace, with its seed marker in the same round trip; an unseeded workspace is seeded first. */
  const readWorkspace = async <const R extends readonly Read[]>(
    workspaceUuid: string,
    reads: R,
  ): Promise<{ marker: string; values: ReadResults<R> }> => {
    const expiry = expireDue(workspaceUuid);
    if (expiry) await expiry;
    const [marker, ...values] = await port.read([{ op: 'get', key: markerOf(workspaceUuid) }, ...reads] as const);
    if (marker !== null) return { marker, values: values as unknown as ReadResults<R> };
    await seed(workspaceUuid);
    return readWorkspace(workspaceUuid, reads);
  };

  /** The writes with their SQL-tables version, the engine told of their changes before they are committed. */
  const announce = (workspaceUuid: string, changes: Write[]): Write[] => {
    const { writes, version } = versioned(workspaceUuid, changes);
    // Told before the commit, so a query that reads the new version already finds its changes.
    if (version && queryListeners.size > 0) {
      const bytes = changes.reduce(
        (n, write) =>
          n + ('value' in write ? write.value.length : 'values' in write ? write.values.join('').length : 0),
        0,
      );
      for (const listener of queryListeners)
        listener(workspaceUuid, version, () => queryOpsOf(workspaceUuid, changes), bytes);
    }
    return writes;
  };

  const expiryDueAt = new Map<string, number>();
  const expiring = new Map<string, Promise<void>>();

  /**
   * The age bound: at most once a second per workspace (on the request that finds it due, which waits for it, so
   * no run past its age is served after the check), the oldest created runs and batches are read at the head of
   * their created lists, and those past `runTtlMs` are removed. Resolves undefined when no check is due.
   */
  const expireDue = (workspaceUuid: string): Promise<void> | undefined => {
    const running = expiring.get(workspaceUuid);
    if (running) return running;
    const now = options.now();
    const dueAt = expiryDueAt.get(workspaceUuid);
    if (dueAt !== undefined && dueAt > now) return undefined;
    expiryDueAt.delete(workspaceUuid);
    expiryDueAt.set(workspaceUuid, now + Math.min(EXPIRY_CHECK_EVERY_MS, limits.runTtlMs));
    if (expiryDueAt.size > EXPIRY_WORKSPACES_KEPT) expiryDueAt.delete(expiryDueAt.keys().next().value!);
    const check = expireAged(workspaceUuid, now - limits.runTtlMs).finally(() => expiring.delete(workspaceUuid));
    expiring.set(workspaceUuid, check);
    return check;
  };

  /**
   * Removes the created runs and batches created before `cutoff`, a guarded commit per step (all or nothing):
   * each step reads the head of the created lists (in creation order, so the oldest are first), removes the
   * leading entries past the age from their hash and their list, and the runs' log and span rows. Removing what
   * another replica removed already changes nothing. Stops at the first entry still young.
   */
  const expireAged = async (workspaceUuid: string, cutoff: number): Promise<void> => {
    const runsAt = key(workspaceUuid, 'runs');
    const batchesAt = key(workspaceUuid, 'batches');
    const runsCreated = key(workspaceUuid, 'runs-created');
    const batchesCreated = key(workspaceUuid, 'batches-created');
    let window = 8;
    for (let removed = 0; removed < EXPIRY_BUDGET; window = Math.min(window * 8, EXPIRY_WINDOW_MAX)) {
      const [runUuids, batchUuids] = await port.read([
        { op: 'list', key: runsCreated, first: window },
        { op: 'list', key: batchesCreated, first: window },
      ] as const);
      if (runUuids.length === 0 && batchUuids.length === 0) return;
      const texts = await port.read([
        ...runUuids.map((uuid) => ({ op: 'hget' as const, key: runsAt, field: uuid })),
        ...batchUuids.map((uuid) => ({ op: 'hget' as const, key: batchesAt, field: uuid })),
      ]);
      // An entry whose record is gone already (removed elsewhere) is past its age too: its list entry goes.
      const aged = (uuids: string[], offset: number) => {
        const count = uuids.findIndex((_, i) => {
          const text = texts[offset + i];
          return text !== null && (JSON.parse(text) as { createdAtMs: number }).createdAtMs >= cutoff;
        });
        return uuids.slice(0, count === -1 ? uuids.length : count);
      };
      const runs = aged(runUuids, 0);
      const batches = aged(batchUuids, runUuids.length);
      if (runs.length === 0 && batches.length === 0) return;
      const rowWindow = expiryRowWindow(runs.length);
      const [logs, spans] =
        runs.length === 0
          ? [[], []]
          : await port.read([
              { op: 'list', key: key(workspaceUuid, 'logs'), first: rowWindow },
              { op: 'list', key: key(workspaceUuid, 'spans'), first: rowWindow },
            ] as const);
      const gone = new Set(runs);
      const rowsOfGone = (rows: string[]) =>
        rows.filter((text) => gone.has((JSON.parse(text) as { runUuid?: string }).runUuid ?? ''));
      const writes: Write[] = [
        ...runs.map((uuid): Write => ({ op: 'hdelete', key: runsAt, field: uuid })),
        { op: 'remove', key: runsCreated, values: runs, within: runUuids.length },
        { op: 'remove', key: key(workspaceUuid, 'logs'), values: rowsOfGone(logs), within: rowWindow },
        { op: 'remove', key: key(workspaceUuid, 'spans'), values: rowsOfGone(spans), within: rowWindow },
        ...batches.map((uuid): Write => ({ op: 'hdelete', key: batchesAt, field: uuid })),
        { op: 'remove', key: batchesCreated, values: batches, within: batchUuids.length },
      ];
      const changes = writes.filter((write) => write.op !== 'remove' || write.values.length > 0);
      // A workspace reset meanwhile has nothing left to remove (and is not seeded again for it).
      if (!(await port.commit(announce(workspaceUuid, changes), [{ key: markerOf(workspaceUuid), is: 'present' }])))
        return;
      removed += runs.length + batches.length;
      // More may be due only behind a full window that was past its age whole.
      const more = (list: string[], aged: string[]) => list.length === window && aged.length === window;
      if (!more(runUuids, runs) && !more(batchUuids, batches)) return;
    }
    // Budget spent: the next request of the workspace checks again at once.
    expiryDueAt.set(workspaceUuid, options.now());
  };

  /** A guarded batch on a seeded workspace: false when one of the caller's guards failed. */
  const commitWorkspace = async (workspaceUuid: string, changes: Write[], guards: Guard[] = []): Promise<boolean> => {
    const writes = announce(workspaceUuid, changes);
    if (await port.commit(writes, [{ key: markerOf(workspaceUuid), is: 'present' }, ...guards])) return true;
    const [marker] = await port.read([{ op: 'get', key: markerOf(workspaceUuid) }]);
    if (marker !== null) return false;
    await seed(workspaceUuid);
    return port.commit(writes, [{ key: markerOf(workspaceUuid), is: 'present' }, ...guards]);
  };

  const readList = async <L extends FixedList>(workspaceUuid: string, list: L): Promise<FixedListOf<L>> => {
    const { values } = await readWorkspace(workspaceUuid, [{ op: 'get', key: key(workspaceUuid, list) }]);
    return values[0] === null
      ? ([] as unknown as FixedListOf<L>)
      : parseCached<FixedListOf<L>>(key(workspaceUuid, list), values[0]);
  };

  /** Runs by uuid, in one round trip; uuids without a run are left out. */
  const runsByUuid = async (workspaceUuid: string, uuids: string[]): Promise<RunRecord[]> => {
    if (uuids.length === 0) return [];
    const { values } = await readWorkspace(
      workspaceUuid,
      uuids.map((uuid) => ({ op: 'hget' as const, key: key(workspaceUuid, 'runs'), field: uuid })),
    );
    return values.flatMap((text) => (text === null ? [] : [JSON.parse(text) as RunRecord]));
  };

  const sortRuns = (runs: RunRecord[]) =>
    runs.sort((a, b) => a.createdAtMs - b.createdAtMs || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));

  return {
    port,

    suppressions: (workspaceUuid: string) => readList(workspaceUuid, 'suppressions'),
    allocations: (workspaceUuid: string) => readList(workspaceUuid, 'allocations'),
    recipes: (workspaceUuid: string) => readList(workspaceUuid, 'recipes'),

    /** The user the workspace's static tokens act as. */
    async userUuid(workspaceUuid: string): Promise<string> {
      const { marker } = await readWorkspace(workspaceUuid, []);
      return parseCached<{ userUuid: string }>(markerOf(workspaceUuid), marker).userUuid;
    },

    async getWorkspace(workspaceUuid: string): Promise<JsonRecord> {
      const { values } = await readWorkspace(workspaceUuid, [{ op: 'get', key: key(workspaceUuid, 'workspace') }]);
      return JSON.parse(values[0] ?? '{}') as JsonRecord;
    },

    /** Replaces the workspace settings by `change(current)`, by compare-and-set: concurrent edits never get lost. */
    async updateWorkspace(workspaceUuid: string, change: (current: JsonRecord) => JsonRecord): Promise<JsonRecord> {
      const at = key(workspaceUuid, 'workspace');
      for (let attempt = 0; attempt < MAX_UPDATE_TRIES; attempt++) {
        const { values } = await readWorkspace(workspaceUuid, [{ op: 'get', key: at }]);
        const next = change(JSON.parse(values[0] ?? '{}') as JsonRecord);
        const guard: Guard =
          values[0] === null ? { key: at, is: 'absent' } : { key: at, is: 'equals', value: values[0] };
        if (await commitWorkspace(workspaceUuid, [{ op: 'set', key: at, value: JSON.stringify(next) }], [guard]))
          return next;
      }
      throw new Error('updateWorkspace: too many concurrent changes');
    },

    async get<C extends Collection>(
      workspaceUuid: string,
      collection: C,
      uuid: string,
    ): Promise<EntryOf<C> | undefined> {
      const { values } = await readWorkspace(workspaceUuid, [
        { op: 'hget', key: key(workspaceUuid, collection), field: uuid },
      ]);
      return values[0] === null ? undefined : (JSON.parse(values[0]) as EntryOf<C>);
    },

    /** Every entry of a collection, oldest written first. */
    async list<C extends Collection>(workspaceUuid: string, collection: C): Promise<EntryOf<C>[]> {
      const { values } = await readWorkspace(workspaceUuid, [{ op: 'hgetall', key: key(workspaceUuid, collection) }]);
      return Object.values(values[0]).map((text) => JSON.parse(text) as EntryOf<C>);
    },

    /**
     * Changes one entry by compare-and-set: `change` gets the current entry and returns the new one, or undefined
     * to leave it as it is. Resolves what the entry is afterwards, or undefined when there is no such entry.
     */
    async update<C extends Collection>(
      workspaceUuid: string,
      collection: C,
      uuid: string,
      change: (current: EntryOf<C>) => EntryOf<C> | undefined,
    ): Promise<EntryOf<C> | undefined> {
      const at = key(workspaceUuid, collection);
      for (let attempt = 0; attempt < MAX_UPDATE_TRIES; attempt++) {
        const { values } = await readWorkspace(workspaceUuid, [{ op: 'hget', key: at, field: uuid }]);
        if (values[0] === null) return undefined;
        const current = JSON.parse(values[0]) as EntryOf<C>;
        const next = change(JSON.parse(values[0]) as EntryOf<C>);
        if (next === undefined) return current;
        const text = JSON.stringify(next);
        if (
          await commitWorkspace(
            workspaceUuid,
            [{ op: 'hset', key: at, field: uuid, value: text }],
            [{ key: at, field: uuid, is: 'equals', value: values[0] }],
          )
        )
          return next;
      }
      throw new Error(`update ${collection}: too many concurrent changes`);
    },

    /** Removes one entry; false when there was none (so of two concurrent removals one finds nothing). */
    async remove(workspaceUuid: string, collection: Collection, uuid: string): Promise<boolean> {
      const at = key(workspaceUuid, collection);
      return commitWorkspace(
        workspaceUuid,
        [{ op: 'hdelete', key: at, field: uuid }],
        [{ key: at, field: uuid, is: 'present' }],
      );
    },

    /**
     * Adds an MCP server created through the API; the oldest created ones go beyond the cap and the byte budget,
     * in the same commit (nothing can fail once the server is stored).
     */
    async addMcpServer(workspaceUuid: string, mcpServer: JsonRecord): Promise<void> {
      const uuid = mcpServer.uuid as string;
      const servers = key(workspaceUuid, 'mcpServers');
      const reservation = mcpServerBudget.reserve(workspaceUuid, uuid, approximateBytes(mcpServer));
      let done = false;
      try {
        await commitWorkspace(workspaceUuid, [
          { op: 'hset', key: servers, field: uuid, value: JSON.stringify(mcpServer) },
          {
            op: 'append',
            key: key(workspaceUuid, 'mcpServers-created'),
            values: [uuid],
            keepLast: limits.mcpServersPerWorkspace,
            dropFrom: servers,
          },
          ...reservation.released.map((released): Write => ({ op: 'hdelete', key: servers, field: released })),
        ]);
        done = true;
      } finally {
        if (!done) reservation.cancel();
      }
    },

    /** Takes back an MCP server this request created (its request failed after the write). */
    async removeCreatedMcpServer(workspaceUuid: string, uuid: string): Promise<void> {
      mcpServerBudget.remove(workspaceUuid, uuid);
      await port.commit([
        { op: 'hdelete', key: key(workspaceUuid, 'mcpServers'), field: uuid },
        { op: 'remove', key: key(workspaceUuid, 'mcpServers-created'), values: [uuid] },
      ]);
    },

    /** Adds created runs (and the batch they belong to) with their first log and span rows, all or nothing. */
    async addRuns(
      workspaceUuid: string,
      added: { runs: RunRecord[]; batch?: BatchRecord; logs: LogRow[]; spans: SpanRow[] },
    ): Promise<void> {
      const runs = key(workspaceUuid, 'runs');
      const writes: Write[] = added.runs.map((run) => ({
        op: 'hset',
        key: runs,
        field: run.uuid,
        value: JSON.stringify(run),
      }));
      if (added.runs.length > 0) {
        writes.push({
          op: 'append',
          key: key(workspaceUuid, 'runs-created'),
          values: added.runs.map((run) => run.uuid),
          keepLast: limits.runsPerWorkspace,
          dropFrom: runs,
        });
      }
      if (added.batch) {
        const batches = key(workspaceUuid, 'batches');
        writes.push({ op: 'hset', key: batches, field: added.batch.uuid, value: JSON.stringify(added.batch) });
        writes.push({
          op: 'append',
          key: key(workspaceUuid, 'batches-created'),
          values: [added.batch.uuid],
          keepLast: limits.batchesPerWorkspace,
          dropFrom: batches,
        });
      }
      // Rows of logs and spans are bounded with the runs (each created run writes one of each), oldest out first.
      const rowCap = limits.runsPerWorkspace;
      writes.push({
        op: 'append',
        key: key(workspaceUuid, 'logs'),
        values: added.logs.map((row) => JSON.stringify(row)),
        keepLast: rowCap,
      });
      writes.push({
        op: 'append',
        key: key(workspaceUuid, 'spans'),
        values: added.spans.map((row) => JSON.stringify(row)),
        keepLast: rowCap,
      });
      await commitWorkspace(workspaceUuid, writes);
    },

    /**
     * Takes back what one `addRuns` added (its request failed after the write): the runs, their batch, their
     * log and span rows. Runs the cap dropped to make room stay dropped.
     */
    async removeCreatedRuns(
      workspaceUuid: string,
      added: { runs: RunRecord[]; batch?: BatchRecord; logs: LogRow[]; spans: SpanRow[] },
    ): Promise<void> {
      const uuids = added.runs.map((run) => run.uuid);
      const writes: Write[] = [
        ...uuids.map((uuid): Write => ({ op: 'hdelete', key: key(workspaceUuid, 'runs'), field: uuid })),
        { op: 'remove', key: key(workspaceUuid, 'runs-created'), values: uuids },
        { op: 'remove', key: key(workspaceUuid, 'logs'), values: added.logs.map((row) => JSON.stringify(row)) },
        { op: 'remove', key: key(workspaceUuid, 'spans'), values: added.spans.map((row) => JSON.stringify(row)) },
      ];
      if (added.batch) {
        writes.push({ op: 'hdelete', key: key(workspaceUuid, 'batches'), field: added.batch.uuid });
        writes.push({ op: 'remove', key: key(workspaceUuid, 'batches-created'), values: [added.batch.uuid] });
      }
      await port.commit(announce(workspaceUuid, writes));
    },

    runsByUuid,

    /** Every run of the workspace, oldest first. */
    async runs(workspaceUuid: string): Promise<RunRecord[]> {
      const { values } = await readWorkspace(workspaceUuid, [{ op: 'hgetall', key: key(workspaceUuid, 'runs') }]);
      return sortRuns(Object.values(values[0]).map((text) => JSON.parse(text) as RunRecord));
    },

    /** The runs of a batch, read in one round trip. */
    runsOfBatch: (workspaceUuid: string, batch: BatchRecord) => runsByUuid(workspaceUuid, batch.runUuids),

    /** Rows for the SQL engine: one per entity, camelCase columns, booleans as 0/1, statuses as of now; one round trip. */
    async readQueryTables(workspaceUuid: string): Promise<QueryTablesRows> {
      const { values } = await readWorkspace(workspaceUuid, [
        { op: 'hgetall', key: key(workspaceUuid, 'runs') },
        { op: 'hgetall', key: key(workspaceUuid, 'batches') },
        { op: 'list', key: key(workspaceUuid, 'logs') },
        { op: 'list', key: key(workspaceUuid, 'records') },
        { op: 'list', key: key(workspaceUuid, 'spans') },
      ]);
      const [runTexts, batchTexts, logs, records, spans] = values;
      const now = options.now();
      const runs = new Map<string, RunRecord>();
      for (const run of sortRuns(Object.values(runTexts).map((text) => JSON.parse(text) as RunRecord)))
        runs.set(run.uuid, run);
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
        logs: logs.map((text) => JSON.parse(text) as LogRow),
        records: records.map((text) => JSON.parse(text) as RecordRow),
        spans: spans.map((text) => JSON.parse(text) as SpanRow),
      };
    },

    /** The latest versions of the workspace's SQL tables, oldest first (see `versioned`). */
    async queryVersions(workspaceUuid: string): Promise<string[]> {
      const { values } = await readWorkspace(workspaceUuid, [
        { op: 'list', key: key(workspaceUuid, 'query-versions') },
      ]);
      return values[0];
    },

    /** The workspace's SQL tables in stored form (timelines, not statuses) at one version, in one consistent read. */
    async querySnapshot(workspaceUuid: string): Promise<QuerySnapshot> {
      const { values } = await readWorkspace(workspaceUuid, [
        { op: 'list', key: key(workspaceUuid, 'query-versions') },
        { op: 'hgetall', key: key(workspaceUuid, 'runs') },
        { op: 'hgetall', key: key(workspaceUuid, 'batches') },
        { op: 'list', key: key(workspaceUuid, 'logs') },
        { op: 'list', key: key(workspaceUuid, 'records') },
        { op: 'list', key: key(workspaceUuid, 'spans') },
        { op: 'list', key: key(workspaceUuid, 'runs-created') },
        { op: 'list', key: key(workspaceUuid, 'batches-created') },
      ]);
      const [versions, runTexts, batchTexts, logs, records, spans, runsCreated, batchesCreated] = values;
      // Converted a slice at a time as the engine sends them on, so a large workspace never stalls the event loop.
      const lazy = <T>(texts: string[], convert: (text: string) => T) => ({
        length: texts.length,
        slice: (start: number, end: number) => texts.slice(start, end).map(convert),
      });
      const runOf = (text: string) => JSON.parse(text) as RunRecord;
      const runTextOf = new Map(Object.entries(runTexts));
      return {
        version: versions.at(-1) ?? '',
        tables: {
          runs: lazy(Object.values(runTexts), (text) => runQueryRow(runOf(text))),
          batches: lazy(Object.values(batchTexts), (text) => {
            const batch = JSON.parse(text) as BatchRecord;
            const needsRuns = !batch.fixedStatus && !batch.tally;
            const members = needsRuns
              ? batch.runUuids.flatMap((uuid) => {
                  const text = runTextOf.get(uuid);
                  return text === undefined ? [] : [runOf(text)];
                })
              : [];
            return batchQueryRow(batch, members);
          }),
          logs: lazy(logs, (text) => JSON.parse(text) as object),
          records: lazy(records, (text) => JSON.parse(text) as object),
          spans: lazy(spans, (text) => JSON.parse(text) as object),
        },
        created: { runs: runsCreated, batches: batchesCreated },
      };
    },

    /** Tells `listener` of every change to SQL tables this store commits, before it commits; returns the unsubscribe. */
    subscribeQueryChanges(listener: QueryChangeListener): () => void {
      queryListeners.add(listener);
      return () => queryListeners.delete(listener);
    },

    /** This store as the SQL engine's source: versions, snapshots and changes of each workspace's tables. */
    querySource(): QuerySource {
      return {
        versions: (workspaceUuid) => this.queryVersions(workspaceUuid),
        snapshot: (workspaceUuid) => this.querySnapshot(workspaceUuid),
        subscribe: (listener) => this.subscribeQueryChanges(listener),
      };
    },

    /** A copy of a workspace's whole state (tests, diagnostics); changing it changes nothing stored. */
    async snapshot(workspaceUuid: string): Promise<WorkspaceState> {
      const { marker, values } = await readWorkspace(workspaceUuid, [
        { op: 'get', key: key(workspaceUuid, 'workspace') },
        { op: 'get', key: key(workspaceUuid, 'suppressions') },
        { op: 'get', key: key(workspaceUuid, 'allocations') },
        { op: 'get', key: key(workspaceUuid, 'recipes') },
        { op: 'hgetall', key: key(workspaceUuid, 'mcpServers') },
        { op: 'hgetall', key: key(workspaceUuid, 'workflows') },
        { op: 'hgetall', key: key(workspaceUuid, 'models') },
        { op: 'hgetall', key: key(workspaceUuid, 'domains') },
        { op: 'hgetall', key: key(workspaceUuid, 'envVars') },
        { op: 'hgetall', key: key(workspaceUuid, 'runs') },
        { op: 'hgetall', key: key(workspaceUuid, 'batches') },
        { op: 'list', key: key(workspaceUuid, 'logs') },
        { op: 'list', key: key(workspaceUuid, 'records') },
        { op: 'list', key: key(workspaceUuid, 'spans') },
      ]);
      const [
        workspace,
        suppressions,
        allocations,
        recipes,
        mcpServers,
        workflows,
        models,
        domains,
        envVars,
        runs,
        batches,
        logs,
        records,
        spans,
      ] = values;
      const parse = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));
      const hash = <T>(texts: Record<string, string>) =>
        new Map(Object.entries(texts).map(([uuid, text]) => [uuid, JSON.parse(text) as T]));
      return {
        workspaceUuid,
        userUuid: (JSON.parse(marker) as { userUuid: string }).userUuid,
        workspace: parse(workspace, {}),
        suppressions: parse(suppressions, []),
        allocations: parse(allocations, []),
        recipes: parse(recipes, []),
        mcpServers: hash(mcpServers),
        workflows: hash(workflows),
        models: hash(models),
        domains: hash(domains),
        envVars: hash(envVars),
        runs: hash(runs),
        batches: hash(batches),
        logs: logs.map((text) => JSON.parse(text) as LogRow),
        records: records.map((text) => JSON.parse(text) as RecordRow),
        spans: spans.map((text) => JSON.parse(text) as SpanRow),
      };
    },

    /** True for the first caller with this name on the whole store (every replica), false for the others. */
    async markOnce(name: string): Promise<boolean> {
      return port.commit(
        [{ op: 'set', key: `once:${name}`, value: String(options.now()) }],
        [{ key: `once:${name}`, is: 'absent' }],
      );
    },

    /** Forgets a workspace; the next request seeds it afresh. */
    async forgetWorkspace(workspaceUuid: string): Promise<void> {
      await port.deleteByPrefix(key(workspaceUuid, ''));
    },

    /** Back to the seed: one workspace, or every workspace and download. */
    async reset(workspaceUuid?: string): Promise<void> {
      if (workspaceUuid !== undefined) return void (await port.deleteByPrefix(key(workspaceUuid, '')));
      await port.deleteByPrefix('ws:');
      await port.deleteByPrefix('download');
    },

    /**
     * Replaces the given collections of a workspace in one batch. What a fixture holds is seeded data: it is not
     * listed as created, and the caps on created entries never drop it.
     */
    async applyFixture(workspaceUuid: string, fixture: WorkspaceFixture): Promise<void> {
      await readWorkspace(workspaceUuid, []);
      const writes: Write[] = [];
      if (fixture.workspace)
        writes.push({
          op: 'set',
          key: key(workspaceUuid, 'workspace'),
          value: JSON.stringify({ ...fixture.workspace, uuid: workspaceUuid }),
        });
      for (const list of ['suppressions', 'allocations', 'recipes'] as const) {
        if (fixture[list])
          writes.push({ op: 'set', key: key(workspaceUuid, list), value: JSON.stringify(fixture[list]) });
      }
      for (const collection of [
        'mcpServers',
        'workflows',
        'models',
        'domains',
        'envVars',
        'runs',
        'batches',
      ] as const) {
        const entries = fixture[collection] as Map<string, unknown> | undefined;
        if (!entries) continue;
        writes.push({ op: 'delete', key: key(workspaceUuid, collection) });
        if (collection === 'mcpServers' || collection === 'runs' || collection === 'batches')
          writes.push({ op: 'delete', key: key(workspaceUuid, `${collection}-created`) });
        for (const [uuid, value] of entries)
          writes.push({ op: 'hset', key: key(workspaceUuid, collection), field: uuid, value: JSON.stringify(value) });
      }
      await commitWorkspace(workspaceUuid, writes);
    },

    /** What clients created in these workspaces since start or the last reset, oldest first. */
    async listCreated(workspaceUuids: string[]): Promise<CreatedEntry[]> {
      const now = options.now();
      const entries: CreatedEntry[] = [];
      for (const workspaceUuid of workspaceUuids) {
        const [marker, servers, runs, batches] = await port.read([
          { op: 'get', key: markerOf(workspaceUuid) },
          { op: 'list', key: key(workspaceUuid, 'mcpServers-created') },
          { op: 'list', key: key(workspaceUuid, 'runs-created') },
          { op: 'list', key: key(workspaceUuid, 'batches-created') },
        ] as const);
        if (marker === null) continue;
        const of = <C extends Collection>(collection: C, uuids: string[]) =>
          readWorkspace(
            workspaceUuid,
            uuids.map((uuid) => ({ op: 'hget' as const, key: key(workspaceUuid, collection), field: uuid })),
          ).then(({ values }) => values.flatMap((text) => (text === null ? [] : [JSON.parse(text) as EntryOf<C>])));
        for (const server of await of('mcpServers', servers)) {
          entries.push({
            kind: 'mcpServer',
            uuid: server.uuid as string,
            workspaceUuid,
            createdAt: (server.createdAt as string | undefined) ?? null,
          });
        }
        for (const run of await of('runs', runs)) {
          entries.push({
            kind: 'run',
            uuid: run.uuid,
            workspaceUuid,
            createdAt: new Date(run.createdAtMs).toISOString(),
            status: viewRun(run, now).status,
          });
        }
        for (const batch of await of('batches', batches)) {
          const status = viewBatch(batch, now, await runsByUuid(workspaceUuid, batch.runUuids)).status;
          entries.push({
            kind: 'batch',
            uuid: batch.uuid,
            workspaceUuid,
            createdAt: new Date(batch.createdAtMs).toISOString(),
            status,
          });
        }
      }
      return entries.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
    },

    /** Keeps an export for `downloadTtlMs`, at most `downloads` of them (oldest out first); resolves its id. */
    async saveDownload(download: Download): Promise<string> {
      const id = randomUUID();
      const text = JSON.stringify(download);
      // The oldest exports beyond the byte budget go first, so nothing can fail once this one is stored.
      const reservation = downloadBudget.reserve('downloads', id, text.length);
      const releases = reservation.released.filter((released) => released !== id);
      let released = releases.length === 0;
      try {
        if (!released)
          released = await port.commit(
            releases.map((old) => ({ op: 'delete', key: `download:${old}`, index: 'downloads' })),
          );
        if (!reservation.released.includes(id))
          await port.claim(`download:${id}`, text, limits.downloadTtlMs, { key: 'downloads', cap: limits.downloads });
      } catch (error) {
        // Exports released already stay released (they were due to go); the ledger forgets only this one.
        if (released) downloadBudget.remove('downloads', id);
        else reservation.cancel();
        throw error;
      }
      return id;
    },

    /** Takes back an export this request saved (its request failed after the write). */
    async removeDownload(id: string): Promise<void> {
      downloadBudget.remove('downloads', id);
      await port.commit([{ op: 'delete', key: `download:${id}`, index: 'downloads' }]);
    },

    /** Bytes of downloads this process keeps (tests, the soak report). */
    downloadBytes: () => downloadBudget.bytes('downloads'),

    async getDownload(id: string): Promise<Download | undefined> {
      const [text] = await port.read([{ op: 'get', key: `download:${id}` }]);
      return text === null ? undefined : (JSON.parse(text) as Download);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
