import type { MaybePromise } from '../../maybe-promise';
import { seedWorkspace } from '../seed';
import { markerKey, workspaceKey } from '../keys';
import { encodeEntry, encodeRow } from '../stored-form';
import type { Guard, Read, ReadResults, StoragePort, Write } from '../port';
import { ReservedTry, type PartTry, type PendingPart } from '../pending-commit';
import type { Reservation } from '../byte-budget';

/** Parsed values of unchanged JSON texts are reused (the hot read paths); at most this many are kept. */
const PARSE_CACHE_SIZE = 256;

/** Collections kept as one hash per workspace, an entry per uuid. */
export const HASH_COLLECTIONS = ['mcpServers', 'workflows', 'models', 'domains', 'envVars', 'runs', 'batches'] as const;
/** Lists the API only reads, kept as one JSON value each. */
export const FIXED_LISTS = ['suppressions', 'allocations', 'recipes'] as const;

/** A commit on a workspace holds only while it is seeded (a reset meanwhile removed its marker). */
const seededGuard = (workspaceUuid: string): Guard => ({ key: markerKey(workspaceUuid), is: 'present' });

/**
 * Reads of one workspace, with its seed marker in the same round trip; an unseeded workspace is seeded first.
 * What a store in this process holds for a seeded workspace is answered at once (the values, not a promise).
 */
export type WorkspaceReader = <const R extends readonly Read[]>(
  workspaceUuid: string,
  reads: R,
) => MaybePromise<{ marker: string; values: ReadResults<R> }>;

/**
 * What every repository of a workspace's state shares: the seed (written once per workspace by whichever
 * replica reads it first, guarded by its marker), reads that seed on demand, and guarded commits on a seeded
 * workspace that pass through the SQL change feed (`announce`). Repositories are built on this; none of them
 * writes to the port around it.
 */
export function createWorkspaceSlice(options: {
  port: StoragePort;
  seed: number;
  /** The writes of one workspace as committed: the change feed adds the SQL tables' version. */
  announce: (workspaceUuid: string, changes: Write[]) => Write[];
  /** Work a read of the workspace waits for first (the age bound of created runs), if any is due. */
  beforeRead: (workspaceUuid: string) => Promise<void> | undefined;
}) {
  const { port, announce } = options;
  const parsedTexts = new Map<string, { text: string; value: unknown }>();

  /** Writes the seed of a workspace unless some replica already did (the marker guards the whole batch). */
  const seed = async (workspaceUuid: string) => {
    const state = seedWorkspace(workspaceUuid, options.seed);
    const at = (part: string) => workspaceKey(workspaceUuid, part);
    const writes: Write[] = [
      { op: 'set', key: at('workspace'), value: JSON.stringify(state.workspace) },
      ...FIXED_LISTS.map((list): Write => ({ op: 'set', key: at(list), value: JSON.stringify(state[list]) })),
    ];
    for (const rows of ['logs', 'records', 'spans'] as const)
      writes.push({
        op: 'append',
        key: at(rows),
        values: state[rows].map((row) => encodeRow(row, workspaceUuid, rows)),
      });
    for (const collection of HASH_COLLECTIONS) {
      for (const [uuid, value] of state[collection])
        writes.push({
          op: 'hset',
          key: at(collection),
          field: uuid,
          value: encodeEntry(collection, value, workspaceUuid, uuid),
        });
    }
    const marker = markerKey(workspaceUuid);
    writes.push({ op: 'set', key: marker, value: JSON.stringify({ seed: options.seed, userUuid: state.userUuid }) });
    await port.commit(announce(workspaceUuid, writes), [{ key: marker, is: 'absent' }]);
  };

  const readWorkspace: WorkspaceReader = (workspaceUuid, reads) => {
    const due = options.beforeRead(workspaceUuid);
    // A store in this process answers at once: a seeded workspace's read with nothing due waits for no turn.
    if (due === undefined && port.readNow !== undefined) {
      const [marker, ...values] = port.readNow([{ op: 'get', key: markerKey(workspaceUuid) }, ...reads] as const);
      if (marker !== null) return { marker, values: values as unknown as ReadResults<typeof reads> };
    }
    return readWorkspaceLater(workspaceUuid, reads, due);
  };

  /** The read through the port's round trip, after what is due; an unseeded workspace is seeded first. */
  const readWorkspaceLater = async <const R extends readonly Read[]>(
    workspaceUuid: string,
    reads: R,
    due: Promise<void> | undefined,
  ): Promise<{ marker: string; values: ReadResults<R> }> => {
    if (due) await due;
    const [marker, ...values] = await port.read([{ op: 'get', key: markerKey(workspaceUuid) }, ...reads] as const);
    if (marker !== null) return { marker, values: values as unknown as ReadResults<typeof reads> };
    await seed(workspaceUuid);
    return readWorkspace(workspaceUuid, reads);
  };

  /** Seeds every workspace not seeded yet (before a commit that spans several). */
  const ensureSeeded = async (workspaceUuids: Iterable<string>) => {
    for (const workspaceUuid of workspaceUuids) await readWorkspace(workspaceUuid, []);
  };

  /**
   * One guarded commit over the writes of several seeded workspaces (all or nothing): false when one of the
   * caller's guards failed. A workspace reset meanwhile (its marker gone) is seeded again, then committed once more.
   */
  const commitWorkspaces = async (changes: Map<string, Write[]>, guards: Guard[] = []): Promise<boolean> => {
    const writes = [...changes].flatMap(([workspaceUuid, writes]) => announce(workspaceUuid, writes));
    const markers = [...changes.keys()].map(seededGuard);
    if (await port.commit(writes, [...markers, ...guards])) return true;
    // A marker absent at the commit may be present now (another replica seeded the workspace meanwhile): the
    // commit is tried once more either way, and fails again only when one of the caller's guards does not hold.
    await ensureSeeded(changes.keys());
    return port.commit(writes, [...markers, ...guards]);
  };

  /**
   * One try of the writes of one seeded workspace in a later commit (`PendingCommit`): announced, guarded by the
   * workspace's marker (seeded again by `ensureSeeded` after a reset); with a byte reservation, that stands only
   * if the try applied.
   */
  const workspaceTry = (
    workspaceUuid: string,
    changes: Write[],
    guards: Guard[] = [],
    reservation?: Reservation,
  ): PartTry => {
    const writes = announce(workspaceUuid, changes);
    const every = [seededGuard(workspaceUuid), ...guards];
    return reservation ? new ReservedTry(writes, every, reservation) : { writes, guards: every };
  };

  /**
   * The writes of one seeded workspace joined to a later commit, made by `make` for each try (`workspaceTry`);
   * `alone` is the same write through its own commit.
   */
  const pendingWorkspacePart = (
    workspaceUuid: string,
    make: () => { changes: Write[]; guards?: Guard[] },
    alone: () => Promise<boolean>,
    ready: () => Promise<unknown> = () => ensureSeeded([workspaceUuid]),
  ): PendingPart => ({
    take: () => {
      const { changes, guards } = make();
      return workspaceTry(workspaceUuid, changes, guards);
    },
    alone,
    ready,
  });

  return {
    port,
    seed,
    pendingWorkspacePart,
    workspaceTry,
    readWorkspace,
    ensureSeeded,
    commitWorkspaces,
    /** A guarded batch on a seeded workspace: false when one of the caller's guards failed. */
    commitWorkspace: (workspaceUuid: string, changes: Write[], guards: Guard[] = []) =>
      commitWorkspaces(new Map([[workspaceUuid, changes]]), guards),
    /** A commit of one workspace through the change feed, with the caller's guards only (no marker, no seeding). */
    commitAnnounced: (workspaceUuid: string, changes: Write[], guards?: Guard[]) =>
      port.commit(announce(workspaceUuid, changes), guards),
    /** JSON.parse, reusing the value of the last identical text read under `cacheKey` (values are never mutated). */
    parseCached<T>(cacheKey: string, text: string): T {
      const cached = parsedTexts.get(cacheKey);
      if (cached && cached.text === text) return cached.value as T;
      const value = JSON.parse(text) as T;
      parsedTexts.delete(cacheKey);
      parsedTexts.set(cacheKey, { text, value });
      if (parsedTexts.size > PARSE_CACHE_SIZE) parsedTexts.delete(parsedTexts.keys().next().value as string);
      return value;
    },
  };
}

export type WorkspaceSlice = ReturnType<typeof createWorkspaceSlice>;
