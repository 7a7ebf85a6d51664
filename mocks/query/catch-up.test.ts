import { randomUUID } from 'node:crypto';
import { createMemoryPort } from '../store/adapters/memory';
import { createStore } from '../store';
import { createRunRecord } from '../store/runs';
import type { RunRecord } from '../store/types';
import { engineCountingLoads } from './test-tables';
import { QueryWorkerPool } from './worker-pool';

const WORKSPACE = '4b1d2c3e-6f7a-4b8c-9d0e-2f3a4b5c6d7e';
const OTHER = '5c2e3d4f-7a8b-4c9d-8e0f-3a4b5c6d7e8f';

/**
 * Bringing a kept database up to date (the writes since its last query, statuses whose phase ended) is the mock's
 * own work: a query's budget starts once that is done. Charged to the query, a burst of writes or a clock jump
 * over a large workspace made the next query run out of budget, its worker was replaced, the databases it held
 * were lost and loaded again: the engine spiralled into reloads.
 */
describe('catching a kept database up is not charged to the query', () => {
  // The real clock, moved forward at will: the engine's budget timers run on real time.
  let skew = 0;
  const now = () => Date.now() + skew;
  const store = createStore({ port: createMemoryPort({ now }), seed: 3, now });
  // A budget far shorter than applying the burst below takes on any machine.
  const { engine, loads: loadsSoFar } = engineCountingLoads(store, { now, timeoutMs: 150, workers: 2 });
  afterAll(() => engine.close());

  let serial = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;
  const addRuns = async (count: number) => {
    for (let done = 0; done < count; done += 1000) {
      const runs: RunRecord[] = Array.from({ length: Math.min(1000, count - done) }, () =>
        createRunRecord({ uuid: uuid(), workspaceUuid: WORKSPACE, createdAtMs: now(), durationMs: 600_000 }),
      );
      await store.addRuns(WORKSPACE, { runs });
    }
  };
  const statuses = async () =>
    Object.fromEntries(
      (
        (
          await engine.query(
            WORKSPACE,
            "SELECT status, count(*) AS n FROM runs WHERE uuid LIKE '00000000-0000-4000-8000-%' GROUP BY status",
          )
        ).rows as { status: string; n: number }[]
      ).map(({ status, n }) => [status, n]),
    );

  it('should answer the first query after a burst of writes and after every run changed phase, without reloading', async () => {
    await engine.query(WORKSPACE, 'SELECT 1');
    const loads = loadsSoFar();
    await addRuns(30_000);
    const early = await statuses();
    expect(early.success).toBeUndefined();
    expect(Object.values(early).reduce((a, b) => a + b, 0)).toBe(30_000);
    skew += 3_600_000;
    expect(await statuses()).toEqual({ success: 30_000 });
    expect(loadsSoFar()).toBe(loads);
  }, 60_000);

  it('should keep a workspace written to but not queried current, rather than load it again at its next query', async () => {
    await engine.query(WORKSPACE, 'SELECT 1');
    const loads = loadsSoFar();
    // One commit per run, none followed by a query: more changes than the store keeps versions of (1024), at
    // about the pace of a busy server (the event loop turns between writes, as between requests).
    for (let i = 0; i < 3000; i++) {
      await addRuns(1);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const { rows } = await engine.query(WORKSPACE, "SELECT count(*) AS n FROM runs WHERE uuid LIKE '00000000-%'");
    expect(rows).toEqual([{ n: 33_000 }]);
    expect(loadsSoFar()).toBe(loads);
  }, 120_000);
});

describe('the buffer of changes', () => {
  it('should forget the changes a database applied, and keep the others’ until their databases do', async () => {
    const store = createStore({ port: createMemoryPort(), seed: 3, now: Date.now });
    let loads = 0;
    const source = store.querySource();
    const pool = new QueryWorkerPool({
      source: { ...source, snapshot: (workspace) => (loads++, source.snapshot(workspace)) },
      ...{ workers: 1, timeoutMs: 10_000, perWorkspace: 1, cacheRows: 1e6, now: Date.now },
      ...{ maxRows: 1000, maxResultBytes: 4 << 20, maxQueryMemoryBytes: 64 << 20, maxWorkerMemoryBytes: 1 << 30 },
    });
    const buffered = () => {
      const { changes, changeBytes } = pool as unknown as {
        changes: Map<string, { workspace: string; bytes: number }>;
        changeBytes: number;
      };
      const workspaces = [...changes.values()].map((change) => change.workspace);
      const bytes = [...changes.values()].reduce((n, change) => n + change.bytes, 0);
      return {
        [WORKSPACE]: workspaces.filter((w) => w === WORKSPACE).length,
        [OTHER]: workspaces.filter((w) => w === OTHER).length,
        bytes,
        changeBytes,
      };
    };
    const add = (workspaceUuid: string) =>
      store.addRuns(workspaceUuid, {
        runs: [createRunRecord({ uuid: randomUUID(), workspaceUuid, createdAtMs: Date.now(), durationMs: 1 })],
      });
    const count = async () => ((await pool.run(WORKSPACE, 'SELECT count(*) AS n FROM logs'))[0] as { n: number }).n;
    try {
      const seeded = await count();
      await pool.run(OTHER, 'SELECT 1');
      for (let i = 0; i < 3; i++) await Promise.all([add(WORKSPACE), add(OTHER)]);
      expect(buffered()).toMatchObject({ [WORKSPACE]: 3 });
      expect(await count()).toBe(seeded + 3);
      // Applied: forgotten. The other workspace's, not applied yet: kept, and counted in the buffer's bytes.
      const after = buffered();
      expect(after[WORKSPACE]).toBe(0);
      expect(after[OTHER]).toBe(3);
      expect(after.changeBytes).toBe(after.bytes);
      await add(WORKSPACE);
      expect(await count()).toBe(seeded + 4);
      expect(loads).toBe(2);
    } finally {
      await pool.close();
    }
  });
});
