import { createMemoryPort } from '../store/adapters/memory';
import { createStore } from '../store';
import { createRunRecord, tallyOf, viewBatch } from '../store/runs';
import type { BatchRecord } from '../store/types';
import { makeCtx } from '../testing/ctx';
import type { AdmittedCtx, Ctx, ValidatedInput } from '../context';
import { runHandlers } from './runs';
import { defined } from '../testing/defined';

const WS = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

function setup(outcome: 'success' | 'error' = 'success') {
  let now = 1_000_000;
  const store = createStore({ port: createMemoryPort({ now: () => now }), seed: 1, now: () => now });
  const handlers = runHandlers({
    store,
    now: () => now,
    sleep: async () => undefined,
    runDurationMs: 1000,
    planRun: () => ({ durationMs: 1000, outcome }),
    basePath: '/v1',
    queryEngine: async () => {
      throw new Error('not used');
    },
  });
  const addBatch = async (withTally: boolean) => {
    const batchUuid = `b${withTally ? 1 : 2}000000-0000-4000-8000-000000000000`;
    const runs = Array.from({ length: 3 }, (_, i) =>
      createRunRecord({
        uuid: `${withTally ? 'a' : 'c'}000000${i}-0000-4000-8000-000000000000`,
        workspaceUuid: WS,
        createdAtMs: now,
        durationMs: 1000,
        batchUuid,
        outcome: i === 2 ? 'error' : 'success',
      }),
    );
    const batch: BatchRecord = {
      uuid: batchUuid,
      workspaceUuid: WS,
      workflowUuid: null,
      createdAtMs: now,
      durationMs: 1000,
      runUuids: runs.map((run) => run.uuid),
      ...(withTally ? { tally: tallyOf(runs) } : {}),
    };
    await store.addRuns(WS, { runs, batch });
    return { batch, runs };
  };
  const getBatch = (uuid: string) => {
    const ctx = admittedCtx(makeCtx({ path: `/orchestration/batches/${uuid}` }), { path: { uuid }, query: {} });
    return defined(handlers.getBatch, 'handlers.getBatch')(ctx);
  };
  const call = (operation: 'createBatch' | 'cancelRun', input: { body?: unknown; uuid?: string }) => {
    const ctx = admittedCtx(makeCtx({ method: 'POST' }), { path: input.uuid ? { uuid: input.uuid } : {}, query: {} });
    ctx.req = { ...ctx.req, body: input.body };
    return Promise.resolve(defined(handlers[operation], 'handlers[operation]')(ctx));
  };
  return { store, getBatch, addBatch, call, advance: (ms: number) => (now += ms), now: () => now };
}

describe('getBatch', () => {
  it('should answer a batch that keeps its tally without reading its runs', async () => {
    const { store, getBatch, addBatch, advance, now } = setup();
    const { batch, runs } = await addBatch(true);
    const read = jest.spyOn(store, 'runsOfBatch');
    const readMany = jest.spyOn(store, 'runsByUuid');
    for (const step of [0, 300, 800]) {
      advance(step);
      const answer = await getBatch(batch.uuid);
      expect(answer.body).toEqual({ batch: viewBatch(batch, now(), runs) });
    }
    expect((answer(await getBatch(batch.uuid)) as { status: string }).status).toBe('error');
    expect(read).not.toHaveBeenCalled();
    expect(readMany).not.toHaveBeenCalled();
  });

  it('should still read the runs of a batch without a tally (fixtures, older records)', async () => {
    const { store, getBatch, addBatch, advance } = setup();
    const { batch } = await addBatch(false);
    const read = jest.spyOn(store, 'runsOfBatch');
    advance(2000);
    expect((answer(await getBatch(batch.uuid)) as { status: string }).status).toBe('error');
    expect(read).toHaveBeenCalledTimes(1);
  });
});

describe('a batch created through the API', () => {
  it.each([
    ['success', 1, 'success'],
    ['error', 1, 'error'],
    ['success', 3, 'cancelled'],
  ] as const)(
    'should keep its tally through cancels, its status never needing its runs (runs ending %s, %d cancelled → %s)',
    async (outcome, cancels, last) => {
      const { store, call, getBatch, advance, now } = setup(outcome);
      const created = (await call('createBatch', { body: { recordIds: ['a', 'b', 'c'] } })).body as {
        batch: { uuid: string };
      };
      const uuid = created.batch.uuid;
      const stored = defined(await store.get(WS, 'batches', uuid), "(await store.get(WS, 'batches', uuid))");
      expect(stored.tally).toMatchObject({ runs: 3, cancelled: 0 });
      const read = jest.spyOn(store, 'runsOfBatch');
      const statuses: string[] = [];
      for (const [step, cancel] of [
        [0, undefined],
        [100, 0],
        [200, undefined],
        [150, 1],
        [150, 2],
        [1000, undefined],
      ] as const) {
        advance(step);
        if (cancel !== undefined && cancel < cancels) await call('cancelRun', { uuid: stored.runUuids[cancel] });
        const batch = defined(await store.get(WS, 'batches', uuid), "(await store.get(WS, 'batches', uuid))");
        const runs = await store.runsByUuid(WS, batch.runUuids);
        // The status the runs themselves give (no tally), against the answer from the tally alone.
        const fromRuns = viewBatch({ ...batch, tally: undefined }, now(), runs);
        const answered = answer(await getBatch(uuid)) as { status: string; finishedAt: string | null };
        expect([step, answered.status, answered.finishedAt]).toEqual([step, fromRuns.status, fromRuns.finishedAt]);
        statuses.push(answered.status);
      }
      expect([statuses[0], statuses[1], statuses.at(-1)]).toEqual(['pending', 'running', last]);
      expect(read).not.toHaveBeenCalled();
    },
  );
});

const answer = (response: { body?: unknown }) => (response.body as { batch: unknown }).batch;

/** A context as the stages before handle leave it (caller, operation and input known). */
function admittedCtx(ctx: Ctx, input: ValidatedInput): AdmittedCtx {
  return Object.assign(ctx, {
    caller: { workspaceUuid: WS, via: 'token' as const },
    route: { operation: {} as never, params: {} },
    input,
  });
}
