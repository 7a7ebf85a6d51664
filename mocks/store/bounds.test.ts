import { createMemoryPort } from './adapters/memory';
import { createByteBudget } from './byte-budget';
import { createStore } from '.';

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
      limits: { downloadBytes: 10_000, downloadTtlMs: 1000 },
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
    expect(store.downloadBytes()).toBeLessThanOrEqual(10_000);
    expect(await store.getDownload(ids[0])).toBeUndefined();
    expect(await store.getDownload(ids[29])).toBeDefined();
    now = 1001;
    expect(await store.getDownload(ids[29])).toBeUndefined();
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
});
