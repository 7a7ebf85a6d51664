import fc from 'fast-check';
import { createMemoryPort } from '../store/adapters/memory';
import { createStore, type Store } from '../store';
import { createRunRecord, requestRunCancel, tallyOf } from '../store/runs';
import type { BatchRecord, RunRecord } from '../store/types';
import type { QueryEngine } from './index';
import { engineCountingLoads } from './test-tables';

const WORKSPACE = '3f0c2a4e-5b6d-4e7f-8a9b-1c2d3e4f5a6b';
const OTHER = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

const byUuid = (a: { uuid: string }, b: { uuid: string }) => (a.uuid < b.uuid ? -1 : 1);

/** What the store shows of a workspace's tables (readQueryTables, built from viewRun/viewBatch). */
async function shownBy(store: Store, ws: string) {
  const tables = await store.readQueryTables(ws);
  return {
    runs: (tables.runs as { uuid: string }[]).sort(byUuid),
    batches: (tables.batches as { uuid: string }[]).sort(byUuid),
    logs: tables.logs,
    spans: tables.spans,
  };
}

/** The same, as the engine answers it. */
async function queriedBy(engine: QueryEngine, ws: string) {
  return {
    runs: (await engine.query(ws, 'SELECT * FROM runs ORDER BY uuid')).rows,
    batches: (await engine.query(ws, 'SELECT * FROM batches ORDER BY uuid')).rows,
    // In the order the tables keep them (no ORDER BY): the rows kept, then those the created runs derive.
    logs: (await engine.query(ws, 'SELECT * FROM logs')).rows,
    spans: (await engine.query(ws, 'SELECT * FROM spans')).rows,
  };
}

/**
 * The engine keeps a database per workspace and follows the store's writes; what it answers must equal what the
 * store shows (readQueryTables, built from viewRun/viewBatch) at the same clock, whatever happened in between.
 */
describe('SQL tables kept in step with the store', () => {
  let clock = Date.parse('2026-03-01T00:00:00Z');
  const store = createStore({ port: createMemoryPort({ now: () => clock }), seed: 7, now: () => clock });
  const { engine, loads: loadsSoFar } = engineCountingLoads(store, {
    now: () => clock,
    maxRows: 100_000,
    maxResultBytes: 64 << 20,
  });
  afterAll(() => engine.close());
  const shown = (ws: string) => shownBy(store, ws);
  const queried = (ws: string) => queriedBy(engine, ws);

  let serial = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;
  const newRun = (fields: Partial<RunRecord> = {}) =>
    createRunRecord({ uuid: uuid(), workspaceUuid: WORKSPACE, createdAtMs: clock, durationMs: 400, ...fields });

  it('should answer as the store shows at every moment of a run’s life, without reloading after writes', async () => {
    expect(await queried(WORKSPACE)).toEqual(await shown(WORKSPACE));
    const loads = loadsSoFar();
    const runs = [newRun(), newRun({ outcome: 'error', durationMs: 1001 }), newRun({ durationMs: 0 })];
    await store.addRuns(WORKSPACE, { runs });
    const batch: BatchRecord = {
      uuid: uuid(),
      workspaceUuid: WORKSPACE,
      workflowUuid: null,
      createdAtMs: clock,
      durationMs: 400,
      runUuids: [],
    };
    const members = [newRun({ batchUuid: batch.uuid }), newRun({ batchUuid: batch.uuid, outcome: 'error' })];
    batch.runUuids = members.map((run) => run.uuid);
    await store.addRuns(WORKSPACE, { runs: members, batch });
    const empty: BatchRecord = { ...batch, uuid: uuid(), runUuids: [], durationMs: 333, outcome: 'error' };
    await store.addRuns(WORKSPACE, { runs: [], batch: empty });
    for (const step of [0, 1, 99, 100, 101, 250, 400, 1000, 1001, 5000]) {
      const at = clock;
      clock = at + step;
      expect(await queried(WORKSPACE)).toEqual(await shown(WORKSPACE));
      clock = at;
    }
    expect(loadsSoFar()).toBe(loads);
  });

  it('should follow a cancel through cancelling to cancelled', async () => {
    const run = newRun({ durationMs: 10_000 });
    await store.addRuns(WORKSPACE, { runs: [run] });
    clock += 100;
    await store.update(WORKSPACE, 'runs', run.uuid, (current) =>
      requestRunCancel(current, clock) ? current : undefined,
    );
    for (const step of [0, 1000, 2499, 2500, 20_000]) {
      clock += step;
      expect(await queried(WORKSPACE)).toEqual(await shown(WORKSPACE));
    }
  });

  it('should agree with the store for any sequence of creates, cancels and clock moves', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('create' as const), durationMs: fc.nat(3000), error: fc.boolean() }),
            fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
            fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(2000) }),
          ),
          { maxLength: 12 },
        ),
        async (steps) => {
          const mine: string[] = [];
          for (const step of steps) {
            if (step.kind === 'create') {
              const run = newRun({ durationMs: step.durationMs, outcome: step.error ? 'error' : 'success' });
              mine.push(run.uuid);
              await store.addRuns(WORKSPACE, { runs: [run] });
            } else if (step.kind === 'cancel' && mine.length > 0) {
              await store.update(WORKSPACE, 'runs', mine[step.pick % mine.length], (current) =>
                requestRunCancel(current, clock) ? current : undefined,
              );
            } else if (step.kind === 'tick') clock += step.ms;
          }
          expect(await queried(WORKSPACE)).toEqual(await shown(WORKSPACE));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('should take back what a failed request added (its undo is a new version too)', async () => {
    const runs = [newRun(), newRun()];
    const added = { runs };
    await store.addRuns(WORKSPACE, added);
    expect(await queried(WORKSPACE)).toEqual(await shown(WORKSPACE));
    await store.removeCreatedRuns(WORKSPACE, added);
    const after = await queried(WORKSPACE);
    expect(after).toEqual(await shown(WORKSPACE));
    expect(after.runs.map((row) => (row as { uuid: string }).uuid)).not.toContain(runs[0].uuid);
  });

  it('should load afresh after a reset, and never show another workspace’s rows', async () => {
    await store.reset(WORKSPACE);
    expect(await queried(WORKSPACE)).toEqual(await shown(WORKSPACE));
    const other = await queried(OTHER);
    expect(JSON.stringify(other)).not.toContain(WORKSPACE);
    expect(other).toEqual(await shown(OTHER));
  });

  // 3: cut to the bound, one at a time; 300: cut 1 % below it (trimmedTo), many at a time.
  it.each([3, 300])(
    'should drop the same rows the store drops when its bound of %i runs is reached, without reloading',
    async (bound) => {
      const bounded = createStore({
        port: createMemoryPort({ now: () => clock }),
        seed: 7,
        now: () => clock,
        limits: { runsPerWorkspace: bound },
      });
      const { engine: boundedEngine, loads } = engineCountingLoads(bounded, { now: () => clock });
      try {
        const count = async (table: string) =>
          ((await boundedEngine.query(WORKSPACE, `SELECT count(*) AS n FROM ${table}`)).rows[0] as { n: number }).n;
        const seeded = await count('runs');
        const perStep = Math.max(2, Math.ceil(bound / 7));
        for (let i = 0; i < 12; i++) {
          const runs = Array.from({ length: perStep }, () => newRun());
          await bounded.addRuns(WORKSPACE, { runs });
          const tables = await bounded.readQueryTables(WORKSPACE);
          expect(tables.runs.length - seeded).toBeLessThanOrEqual(bound);
          expect([await count('runs'), await count('logs'), await count('spans')]).toEqual([
            tables.runs.length,
            tables.logs.length,
            tables.spans.length,
          ]);
        }
        expect(await queriedBy(boundedEngine, WORKSPACE)).toEqual(await shownBy(bounded, WORKSPACE));
        expect(loads()).toBe(1);
      } finally {
        await boundedEngine.close();
      }
    },
  );

  it('should drop the same runs, batches and rows the store removes by age, without reloading', async () => {
    const runTtlMs = 5_000;
    const aging = createStore({
      port: createMemoryPort({ now: () => clock }),
      seed: 7,
      now: () => clock,
      limits: { runTtlMs, runsPerWorkspace: 6 },
    });
    const { engine: agingEngine, loads } = engineCountingLoads(aging, { now: () => clock });
    const agingQueried = () => queriedBy(agingEngine, WORKSPACE);
    const agingShown = () => shownBy(aging, WORKSPACE);
    try {
      const seeded = await agingQueried();
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.record({ kind: fc.constant('create' as const), runs: fc.nat(3), batch: fc.boolean() }),
              fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
              fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(4_000) }),
              fc.record({ kind: fc.constant('query' as const) }),
            ),
            { maxLength: 14 },
          ),
          async (steps) => {
            const mine: string[] = [];
            for (const step of steps) {
              if (step.kind === 'create') {
                const batch: BatchRecord | undefined = step.batch
                  ? {
                      uuid: uuid(),
                      workspaceUuid: WORKSPACE,
                      workflowUuid: null,
                      createdAtMs: clock,
                      durationMs: 900,
                      runUuids: [],
                    }
                  : undefined;
                const runs = Array.from({ length: step.batch ? step.runs : Math.max(1, step.runs) }, () =>
                  newRun({ durationMs: 900, batchUuid: batch?.uuid ?? null }),
                );
                if (batch) {
                  batch.runUuids = runs.map((run) => run.uuid);
                  if (runs.length > 0) batch.tally = tallyOf(runs);
                }
                mine.push(...runs.map((run) => run.uuid));
                await aging.addRuns(WORKSPACE, { runs, batch });
              } else if (step.kind === 'cancel' && mine.length > 0) {
                await aging.update(WORKSPACE, 'runs', mine[step.pick % mine.length], (current) =>
                  requestRunCancel(current, clock) ? current : undefined,
                );
              } else if (step.kind === 'tick') clock += step.ms;
              else expect(await agingQueried()).toEqual(await agingShown());
            }
            expect(await agingQueried()).toEqual(await agingShown());
          },
        ),
        { numRuns: 25 },
      );
      // Past the age of everything created, only the seed is left, in the store and in the engine alike.
      clock += runTtlMs + 2_000;
      expect(await agingQueried()).toEqual(await agingShown());
      expect((await agingQueried()).runs.length).toBe(seeded.runs.length);
      expect(loads()).toBe(1);
    } finally {
      await agingEngine.close();
    }
  });

  it('should show the seeded rows whole and the rows of the created runs still kept, after runs went by age', async () => {
    // A created run's rows are derived from it: they go when it goes (by age, amid younger runs), never a
    // seeded run's rows in their place (rows kept in one list bounded by count once pushed those out).
    const aging = createStore({
      port: createMemoryPort({ now: () => clock }),
      seed: 7,
      now: () => clock,
      limits: { runTtlMs: 5_000, runsPerWorkspace: 2 },
    });
    const { engine: agingEngine, loads } = engineCountingLoads(aging, { now: () => clock });
    const create = async () => {
      const runs = [newRun({ durationMs: 900 })];
      await aging.addRuns(WORKSPACE, { runs });
      return runs[0].uuid;
    };
    try {
      const seeded = await queriedBy(agingEngine, WORKSPACE);
      await create();
      clock += 3_000;
      const second = await create();
      clock += 2_500;
      expect(await queriedBy(agingEngine, WORKSPACE)).toEqual(await shownBy(aging, WORKSPACE));
      const third = await create();
      const shown = await shownBy(aging, WORKSPACE);
      expect(await queriedBy(agingEngine, WORKSPACE)).toEqual(shown);
      for (const table of ['logs', 'spans'] as const) {
        expect(shown[table].slice(0, seeded[table].length)).toEqual(seeded[table]);
        expect(shown[table].slice(seeded[table].length).map((row) => (row as { runUuid: string }).runUuid)).toEqual([
          second,
          third,
        ]);
      }
      expect(loads()).toBe(1);
    } finally {
      await agingEngine.close();
    }
  });
});
