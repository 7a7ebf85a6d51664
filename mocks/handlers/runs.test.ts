import { createMemoryPort } from '../store/adapters/memory';
import { createStore } from '../store';
import { createRunRecord, tallyOf, viewBatch } from '../store/runs';
import type { BatchRecord } from '../store/types';
import { makeCtx } from '../testing/ctx';
import { runHandlers } from './runs';

const WS = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

function setup() {
  let now = 1_000_000;
  const store = createStore({ port: createMemoryPort({ now: () => now }), seed: 1, now: () => now });
  const handlers = runHandlers({
    store,
    now: () => now,
    sleep: async () => undefined,
    runDurationMs: 1000,
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
    await store.addRuns(WS, { runs, batch, logs: [], spans: [] });
    return { batch, runs };
  };
  const getBatch = (uuid: string) => {
    const ctx = makeCtx({ path: `/orchestration/batches/${uuid}` });
    ctx.caller = { workspaceUuid: WS, via: 'token' };
    ctx.input = { path: { uuid }, query: {} };
    return handlers.getBatch!(ctx);
  };
  return { store, getBatch, addBatch, advance: (ms: number) => (now += ms), now: () => now };
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

const answer = (response: { body?: unknown }) => (response.body as { batch: unknown }).batch;
