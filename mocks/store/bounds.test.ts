import { createMemoryPort } from './adapters/memory';
import { createByteBudget } from './byte-budget';
import { createStore } from '.';
import { createFailingPort } from '../testing/failing-port';
import { createRunRecord, tallyOf } from './runs';

const WS = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

describe('store bounds (count, bytes, age)', () => {
  it('should release the oldest keys of an owner once its byte budget is spent, and leave other owners alone', () => {
    const budget = createByteBudget(100);
    expect(budget.add('a', 'k1', 60)).toEqual([]);
    expect(budget.add('b', 'k1', 90)).toEqual([]);
    expect(budget.add('a', 'k2', 30)).toEqual([]);
    expect(budget.add('a', 'k3', 30)).toEqual(['k1']);
    budget.remove('a', 'k2');
    expect(budget.bytes('a')).toBe(30);
    expect(budget.add('a', 'huge', 500)).toEqual(['k3', 'huge']);
    expect(budget.bytes('b')).toBe(90);
  });

  it('should keep downloads within their byte budget and lifetime', async () => {
    let now = 0;
    const store = createStore({
      port: createMemoryPort({ now: () => now }),
      seed: 1,
      now: () => now,
      limits: { downloadBytesPerWorkspace: 10_000, downloadTtlMs: 1000 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(
        await store.saveDownload({
          workspaceUuid: WS,
          runs: [{ recordId: 'x'.repeat(1000) } as never],
          createdAtMs: now,
        }),
      );
    expect(store.downloadBytes(WS)).toBeLessThanOrEqual(10_000);
    expect(await store.getDownload(WS, ids[0])).toBeUndefined();
    expect(await store.getDownload(WS, ids[29])).toBeDefined();
    now = 1001;
    expect(await store.getDownload(WS, ids[29])).toBeUndefined();
  });

  it("should leave the claim index of a workspace whose id begins with the reset one's (its cap still holds)", async () => {
    const store = createStore({
      port: createMemoryPort({ now: () => 0 }),
      seed: 1,
      now: () => 0,
      limits: { downloadsPerWorkspace: 2 },
    });
    const longer = `${WS}-2`;
    const save = () => store.saveDownload({ workspaceUuid: longer, runs: [], createdAtMs: 0 });
    const first = await save();
    await store.reset(WS);
    await save();
    await save();
    expect(await store.getDownload(longer, first)).toBeUndefined();
  });

  describe.each([
    ['bytes', { downloadBytesPerWorkspace: 10_000 }, 'x'.repeat(1000)],
    ['count', { downloadsPerWorkspace: 5 }, 'x'],
  ])('downloads bounded per workspace by %s', (_bound, limits, recordId) => {
    const OTHER = '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f';
    const save = (store: ReturnType<typeof createStore>, workspaceUuid: string) =>
      store.saveDownload({ workspaceUuid, runs: [{ recordId } as never], createdAtMs: 0 });

    it("should never release another workspace's downloads, however many one workspace makes", async () => {
      const store = createStore({ port: createMemoryPort({ now: () => 0 }), seed: 1, now: () => 0, limits });
      const theirs = await save(store, OTHER);
      const mine: string[] = [];
      for (let i = 0; i < 50; i++) mine.push(await save(store, WS));
      expect(await store.getDownload(OTHER, theirs)).toBeDefined();
      expect(await store.getDownload(WS, mine[0])).toBeUndefined();
      expect(await store.getDownload(WS, mine[49])).toBeDefined();
    });

    it("should forget a reset workspace's downloads, its claim index and its bytes, and no other's", async () => {
      const port = createMemoryPort({ now: () => 0 });
      const store = createStore({ port, seed: 1, now: () => 0, limits });
      const theirs = await save(store, OTHER);
      const mine = await save(store, WS);
      await store.reset(WS);
      expect(await store.getDownload(WS, mine)).toBeUndefined();
      expect(store.downloadBytes(WS)).toBe(0);
      expect(await store.getDownload(OTHER, theirs)).toBeDefined();
      // After the reset the workspace has its whole budget again: a new export is kept.
      const again = await save(store, WS);
      expect(await store.getDownload(WS, again)).toBeDefined();
    });

    it('should not find a download under another workspace', async () => {
      const store = createStore({ port: createMemoryPort({ now: () => 0 }), seed: 1, now: () => 0, limits });
      const mine = await save(store, WS);
      expect(await store.getDownload(OTHER, mine)).toBeUndefined();
      expect(await store.downloadAnswer(OTHER, mine)).toBeUndefined();
      expect((await store.downloadAnswer(WS, mine))?.workspaceUuid).toBe(WS);
    });
  });

  it('should keep created MCP servers within the byte budget of the workspace, every seeded one kept', async () => {
    const store = createStore({
      port: createMemoryPort({ now: () => 0 }),
      seed: 1,
      now: () => 0,
      limits: { mcpServerBytesPerWorkspace: 20_000 },
    });
    const seeded = (await store.list(WS, 'mcpServers')).length;
    for (let i = 0; i < 20; i++)
      await store.addMcpServer(WS, { uuid: `s${i}`, name: 'n', description: 'x'.repeat(5000) });
    const kept = await store.list(WS, 'mcpServers');
    expect(kept.length).toBeLessThanOrEqual(seeded + 4);
    expect(kept.map((s) => s.uuid)).toContain('s19');
  });

  it('should put the ledger back exactly when a reserved write does not happen', () => {
    const budget = createByteBudget(100);
    budget.add('a', 'k1', 60);
    budget.add('a', 'k2', 30);
    const reservation = budget.reserve('a', 'k3', 50);
    expect(reservation.released).toEqual(['k1']);
    reservation.cancel();
    expect(budget.bytes('a')).toBe(90);
    // The order is back too: k1 is still the oldest.
    expect(budget.add('a', 'k4', 20)).toEqual(['k1']);
  });

  it('should store a created MCP server and release the oldest over the byte budget in one commit', async () => {
    const failing = createFailingPort(createMemoryPort({ now: () => 0 }));
    const store = createStore({
      port: failing.port,
      seed: 1,
      now: () => 0,
      limits: { mcpServerBytesPerWorkspace: 12_000 },
    });
    await store.list(WS, 'mcpServers');
    const server = (i: number) => ({ uuid: `s${i}`, name: 'n', description: 'x'.repeat(5000) });
    await store.addMcpServer(WS, server(0));
    await store.addMcpServer(WS, server(1));
    const before = await store.snapshot(WS);
    const commits = () => failing.calls.filter((c) => c.method === 'commit').length;
    // The third goes over the budget: s0 is released in the same commit, which fails here.
    const counted = commits();
    failing.failNext((c) => c.method === 'commit');
    await expect(store.addMcpServer(WS, server(2))).rejects.toThrow();
    expect(commits()).toBe(counted + 1);
    expect(await store.snapshot(WS)).toEqual(before);
    // Nothing failed after the write: one commit stores s3 and releases s0.
    await store.addMcpServer(WS, server(3));
    expect(commits()).toBe(counted + 2);
    const kept = (await store.snapshot(WS)).mcpServers;
    expect([kept.has('s0'), kept.has('s1'), kept.has('s2'), kept.has('s3')]).toEqual([false, true, false, true]);
  });

  it('should take back exactly what addRuns added (runs, batch, and the log and span rows they show)', async () => {
    const store = createStore({ port: createMemoryPort({ now: () => 0 }), seed: 1, now: () => 0 });
    const before = await store.snapshot(WS);
    const runs = [0, 1].map((i) =>
      createRunRecord({ uuid: `r${i}`, workspaceUuid: WS, createdAtMs: 0, durationMs: 10, batchUuid: 'b' }),
    );
    const batch = {
      uuid: 'b',
      workspaceUuid: WS,
      workflowUuid: null,
      createdAtMs: 0,
      durationMs: 10,
      runUuids: ['r0', 'r1'],
      tally: tallyOf(runs),
    };
    const added = { runs, batch };
    await store.addRuns(WS, added);
    const shown = await store.snapshot(WS);
    expect(shown.logs.length - before.logs.length).toBe(2);
    expect(shown.spans.map((span) => span.runUuid).slice(-2)).toEqual(['r0', 'r1']);
    await store.removeCreatedRuns(WS, added);
    expect(await store.snapshot(WS)).toEqual(before);
    expect(await store.listCreated([WS])).toEqual([]);
  });
});
