import { randomUUID } from 'node:crypto';
import { createStore, parseCreatedCursor, type CreatedEntry } from '..';
import { createMemoryPort } from '../adapters/memory';
import type { Read } from '../port';
import { createRunRecord } from '../runs';

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
    await store.addRuns(workspaceUuid, { runs });
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

  it('should read only the uuids and records of its page, however long the lists', async () => {
    await addRuns(A, 50);
    const reads: Read[][] = [];
    const read = port.read.bind(port);
    const readNow = port.readNow;
    port.read = ((batch: Read[]) => {
      reads.push(batch);
      return read(batch as never);
    }) as typeof port.read;
    port.readNow = undefined; // every read through the recorded one
    try {
      const first = await store.listCreatedPage([A], { limit: 5 });
      const second = await store.listCreatedPage([A], { limit: 5, cursor: parseCreatedCursor(first.next ?? '') });
      expect([first.created.length, second.created.length, first.count]).toEqual([5, 5, 50]);
      const all = reads.flat();
      expect(Math.max(...reads.map((batch) => batch.filter((r) => r.op === 'hget').length))).toBe(5);
      expect(all.filter((r) => r.op === 'list').every((r) => r.op === 'list' && (r.first ?? Infinity) <= 5)).toBe(true);
    } finally {
      port.read = read;
      port.readNow = readNow;
    }
  });

  it.each([
    ['entries before the cursor went (the cursor stays)', 2],
    ['the cursor itself went with the head', 5],
  ])('should go on without a gap or a repeat when %s', async (_name, dropped) => {
    const capped = createStore({
      port: createMemoryPort({ now: () => clock }),
      seed: 2,
      now: () => clock,
      limits: { runsPerWorkspace: 10 },
    });
    const add = async (count: number) => {
      const runs = Array.from({ length: count }, () =>
        createRunRecord({ uuid: randomUUID(), workspaceUuid: A, createdAtMs: (clock += 1), durationMs: 1000 }),
      );
      await capped.addRuns(A, { runs });
      return runs.map((run) => run.uuid);
    };
    const made = await add(10);
    const first = await capped.listCreatedPage([A], { limit: 3 });
    const later = await add(dropped); // the cap of 10 drops as many of the oldest
    const rest: string[] = [];
    for (let next = first.next; next !== undefined;) {
      const page = await capped.listCreatedPage([A], { limit: 3, cursor: parseCreatedCursor(next) });
      rest.push(...page.created.map((entry) => entry.uuid));
      next = page.next;
    }
    expect([...first.created.map((entry) => entry.uuid), ...rest]).toEqual(
      [...made, ...later].filter((uuid, i) => i < 3 || i >= Math.max(3, dropped)),
    );
  });

  it('should not seed a workspace that was never used', async () => {
    const unused = randomUUID();
    expect(await store.listCreatedPage([unused])).toEqual({ count: 0, created: [] });
    expect(await port.countByPrefix(`ws:${unused}:`)).toBe(0);
  });
});
