import { randomUUID } from 'node:crypto';
import { createStore, parseCreatedCursor, type CreatedEntry } from '..';
import { createMemoryPort } from '../adapters/memory';
import { createdRowsOf, createRunRecord } from '../runs';

const A = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const B = '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f';

describe('the created listing, a page at a time', () => {
  let clock = Date.parse('2026-03-01T00:00:00Z');
  const port = createMemoryPort({ now: () => clock });
  const store = createStore({ port, seed: 2, now: () => clock });
  const addRuns = async (workspaceUuid: string, count: number) => {
    const runs = Array.from({ length: count }, () =>
      createRunRecord({ uuid: randomUUID(), workspaceUuid, createdAtMs: (clock += 1), durationMs: 1000 }),
    );
    await store.addRuns(workspaceUuid, { runs, ...createdRowsOf(runs, randomUUID) });
    return runs.map((run) => run.uuid);
  };
  const pages = async (workspaceUuids: string[], limit: number, between?: () => Promise<unknown>) => {
    const seen: CreatedEntry[] = [];
    let next: string | undefined = '';
    while (next !== undefined) {
      const page = await store.listCreatedPage(workspaceUuids, { limit, cursor: parseCreatedCursor(next) });
      seen.push(...page.created);
      next = page.next;
      await between?.();
    }
    return seen.map((entry) => entry.uuid);
  };

  beforeEach(() => store.reset());

  it('should list every entry of every workspace once, in creation order per kind, whatever the page size', async () => {
    const a = await addRuns(A, 7);
    const b = await addRuns(B, 3);
    for (const limit of [1, 2, 3, 10, 100])
      expect({ limit, uuids: await pages([A, B], limit) }).toEqual({ limit, uuids: [...a, ...b] });
    expect((await store.listCreatedPage([A, B], { limit: 4 })).count).toBe(10);
  });

  it('should list an entry created between two pages once, and lose none listed before', async () => {
    const a = await addRuns(A, 6);
    const added: string[] = [];
    const seen = await pages([A], 2, async () => added.push(...(await addRuns(A, 1))));
    expect(seen.slice(0, 6)).toEqual(a);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(6)).toEqual(added.slice(0, seen.length - 6));
  });

  it('should read only the records of its page', async () => {
    await addRuns(A, 50);
    const reads: number[] = [];
    const read = port.read.bind(port);
    port.read = ((batch: { op: string }[]) => {
      reads.push(batch.filter((r) => r.op === 'hget').length);
      return read(batch as never);
    }) as typeof port.read;
    try {
      const page = await store.listCreatedPage([A], { limit: 5 });
      expect(page.created).toHaveLength(5);
      expect(Math.max(...reads)).toBe(5);
    } finally {
      port.read = read;
    }
  });

  it('should not seed a workspace that was never used', async () => {
    const unused = randomUUID();
    expect(await store.listCreatedPage([unused])).toEqual({ count: 0, created: [] });
    expect(await port.countByPrefix(`ws:${unused}:`)).toBe(0);
  });
});
