import { randomUUID } from 'node:crypto';
import { startRedisServer, type RedisServer } from '../testing/redis-server';
import { createMemoryPort } from './adapters/memory';
import { createRedisPort } from './adapters/redis';
import { createRunRecord, tallyOf } from './runs';
import { createFailingPort } from '../testing/failing-port';
import { StoreUnavailableError, type Read, type StoragePort, type Write } from './port';
import type { BatchRecord, RunRecord } from './types';
import { createStore, type StoreLimits } from '.';
import { defined } from '../testing/defined';

const WS = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const HOUR = 60 * 60 * 1000;
const TTL = 24 * HOUR;
const START = Date.parse('2026-03-01T00:00:00Z');

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 600_000);
afterAll(async () => {
  await redis?.stop();
});

/** Created runs (and a batch of some), with one log and one span row each, as the handlers write them. */
function created(at: number, count: number, batched = false) {
  const batch: BatchRecord | undefined = batched
    ? { uuid: randomUUID(), workspaceUuid: WS, workflowUuid: null, createdAtMs: at, durationMs: 1000, runUuids: [] }
    : undefined;
  const runs: RunRecord[] = Array.from({ length: count }, () =>
    createRunRecord({
      uuid: randomUUID(),
      workspaceUuid: WS,
      createdAtMs: at,
      durationMs: 1000,
      batchUuid: batch?.uuid ?? null,
    }),
  );
  if (batch) {
    batch.runUuids = runs.map((run) => run.uuid);
    if (runs.length > 0) batch.tally = tallyOf(runs);
  }
  return { runs, batch };
}

/** Counts the list items and hash fields a port is asked to read (what a check costs). */
function counting(port: StoragePort) {
  const counts = { items: 0, whole: 0 };
  const read: StoragePort['read'] = async (reads) => {
    for (const one of reads as readonly Read[]) {
      if (one.op === 'hgetall' || (one.op === 'list' && one.first === undefined)) counts.whole++;
      if (one.op === 'hget') counts.items++;
      if (one.op === 'list' && one.first !== undefined) counts.items += one.first;
    }
    return port.read(reads);
  };
  // Without the port's read at once (`readNow`): every read goes through the counted one.
  return { port: { ...port, readNow: undefined, read } as StoragePort, counts };
}

const memoryPorts = new Map<string, StoragePort>();
/** `space` names the state: two ports made with one name share it (two replicas). */
describe.each([
  [
    'memory',
    async (space: string): Promise<StoragePort> => {
      if (!memoryPorts.has(space)) memoryPorts.set(space, createMemoryPort({ now: () => 0 }));
      return defined(memoryPorts.get(space), 'memoryPorts.get(space)');
    },
  ],
  [
    'redis',
    async (space: string): Promise<StoragePort> => createRedisPort({ url: redis.url, prefix: `test:${space}:` }),
  ],
])('created runs and batches bounded by age (%s)', (name, makePort) => {
  let clock = START;
  let port: StoragePort;
  let space = '';
  const stores: ReturnType<typeof createStore>[] = [];
  const storeOf = (limits: Partial<StoreLimits> = {}, on: StoragePort = port) => {
    const store = createStore({ port: on, seed: 3, now: () => clock, limits: { runTtlMs: TTL, ...limits } });
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    clock = START;
    space = randomUUID();
    port = await makePort(space);
  });
  afterEach(async () => {
    stores.length = 0;
    await port.close();
  });

  const present = async (store: ReturnType<typeof createStore>, added: ReturnType<typeof created>) => {
    const snapshot = await store.snapshot(WS);
    const uuids = new Set(added.runs.map((run) => run.uuid));
    return {
      runs: added.runs.filter((run) => snapshot.runs.has(run.uuid)).length,
      batch: added.batch ? snapshot.batches.has(added.batch.uuid) : undefined,
      logs: snapshot.logs.filter((row) => uuids.has(row.runUuid)).length,
      spans: snapshot.spans.filter((row) => uuids.has(row.runUuid)).length,
    };
  };

  it('should remove runs and batches past the age with their rows, no earlier, and leave seeded runs alone', async () => {
    const store = storeOf();
    const seeded = await store.snapshot(WS);
    const old = created(clock, 3, true);
    await store.addRuns(WS, old);
    clock += 6 * HOUR;
    const young = created(clock, 2);
    await store.addRuns(WS, young);

    // Exactly at the age: kept.
    clock = START + TTL;
    expect(await present(store, old)).toEqual({ runs: 3, batch: true, logs: 3, spans: 3 });
    expect(await store.get(WS, 'runs', old.runs[0].uuid)).toBeDefined();

    // Past it: gone, with the batch and the rows; the younger runs and everything seeded stay.
    clock = START + TTL + 1_000;
    expect(await store.get(WS, 'runs', old.runs[0].uuid)).toBeUndefined();
    expect(await store.get(WS, 'batches', defined(old.batch, 'old.batch').uuid)).toBeUndefined();
    expect(await present(store, old)).toEqual({ runs: 0, batch: false, logs: 0, spans: 0 });
    expect(await present(store, young)).toEqual({ runs: 2, batch: undefined, logs: 2, spans: 2 });
    const after = await store.snapshot(WS);
    for (const uuid of seeded.runs.keys()) expect(after.runs.has(uuid)).toBe(true);
    for (const uuid of seeded.batches.keys()) expect(after.batches.has(uuid)).toBe(true);
    expect(after.logs.length).toBe(seeded.logs.length + 2);
    expect(after.spans.length).toBe(seeded.spans.length + 2);
    expect((await store.listCreated([WS])).map((entry) => entry.uuid).sort()).toEqual(
      young.runs.map((run) => run.uuid).sort(),
    );

    clock += 6 * HOUR;
    expect(await present(store, young)).toEqual({ runs: 0, batch: undefined, logs: 0, spans: 0 });
    expect(await store.snapshot(WS)).toEqual(seeded);
  });

  it('should still bound by count, and remove by age what the count bound left', async () => {
    const store = storeOf({ runsPerWorkspace: 4, batchesPerWorkspace: 1 });
    const first = created(clock, 3, true);
    await store.addRuns(WS, first);
    clock += 1_000;
    const second = created(clock, 3, true);
    await store.addRuns(WS, second);
    expect(await present(store, first)).toEqual({ runs: 1, batch: false, logs: 1, spans: 1 });
    expect(await present(store, second)).toEqual({ runs: 3, batch: true, logs: 3, spans: 3 });
    clock += TTL + 1_000;
    expect(await present(store, first)).toEqual({ runs: 0, batch: false, logs: 0, spans: 0 });
    expect(await present(store, second)).toEqual({ runs: 0, batch: false, logs: 0, spans: 0 });
  });

  it('should remove a burst larger than one step in one check, reading the head only', async () => {
    const spied = counting(port);
    const store = storeOf({}, spied.port);
    const burst = created(clock, 1_500, true);
    await store.addRuns(WS, burst);
    const young = created(clock + HOUR, 3_000);
    await store.addRuns(WS, young);
    clock += TTL + 1;
    const before = { ...spied.counts };
    expect(await store.get(WS, 'runs', burst.runs[1_499].uuid)).toBeUndefined();
    // A check reads windows of the created lists' heads, never a whole list or hash.
    expect(spied.counts.whole - before.whole).toBe(0);
    expect(await present(store, burst)).toEqual({ runs: 0, batch: false, logs: 0, spans: 0 });
    // When nothing is due, a check reads a few entries, however many runs are kept.
    clock += 2_000;
    const quiet = { ...spied.counts };
    expect(await store.get(WS, 'runs', young.runs[0].uuid)).toBeDefined();
    // (the heads of both created lists, 8 entries each, the records of those, and the run asked for)
    expect(spied.counts.items - quiet.items).toBeLessThanOrEqual(4 * 8 + 1);
    expect(spied.counts.whole - quiet.whole).toBe(0);
  });

  it('should leave everything in place when a removal fails, and remove it all at the next check', async () => {
    const failing = createFailingPort(port);
    const store = storeOf({}, failing.port);
    const old = created(clock, 4, true);
    await store.addRuns(WS, old);
    clock += TTL + 1;
    failing.failNext(
      (call) =>
        call.method === 'commit' &&
        (call.args[0] as Write[]).some((write) => write.op === 'remove' && write.key.endsWith(':runs-created')),
    );
    await expect(store.get(WS, 'runs', old.runs[0].uuid)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(failing.failures()).toBe(1);
    expect(await present(store, old)).toEqual({ runs: 4, batch: true, logs: 4, spans: 4 });
    clock += 1_000;
    expect(await store.get(WS, 'runs', old.runs[0].uuid)).toBeUndefined();
    expect(await present(store, old)).toEqual({ runs: 0, batch: false, logs: 0, spans: 0 });
  });

  it('should come out the same when two replicas remove the same runs at once', async () => {
    const other = await makePort(space);
    const a = storeOf();
    const b = storeOf({}, other);
    const added = [created(clock, 20, true), created(clock + 1, 20), created(clock + HOUR, 5, true)];
    for (const one of added) await a.addRuns(WS, one);
    clock += TTL + 10;
    const results = await Promise.all([a.get(WS, 'runs', added[0].runs[0].uuid), b.runs(WS)]);
    expect(results[0]).toBeUndefined();
    for (const store of [a, b]) {
      expect(await present(store, added[0])).toEqual({ runs: 0, batch: false, logs: 0, spans: 0 });
      expect(await present(store, added[1])).toEqual({ runs: 0, batch: undefined, logs: 0, spans: 0 });
      expect(await present(store, added[2])).toEqual({ runs: 5, batch: true, logs: 5, spans: 5 });
    }
    if (name === 'redis') await other.close();
  });
});
