import { randomUUID } from 'node:crypto';
import { createStore, type Store, type WorkspaceFixture } from '..';
import { createMemoryPort } from '../adapters/memory';
import { createRedisPort } from '../adapters/redis';
import { UnstorableFixtureError } from './fixtures';
import type { StoragePort } from '../port';
import { createFailingPort } from '../../testing/failing-port';
import { startRedisServer, type RedisServer } from '../../testing/redis-server';

/**
 * A fixture set is applied all or nothing (principle 5, README "nothing loads unless all are valid"): whatever
 * fails on the way — a workspace whose data cannot be stored, the store breaking on the commit — every workspace
 * of the set keeps what it held.
 */
const FIRST = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const SECOND = '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f';

const deep = (depth: number) => {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 0; i < depth; i++) at = at.next = {};
  return root;
};
const server = (name: string, extra: Record<string, unknown> = {}) => ({
  uuid: randomUUID(),
  workspaceUuid: FIRST,
  name,
  ...extra,
});
const fixtureOf = (...servers: Record<string, unknown>[]): WorkspaceFixture => ({
  workspace: { name: 'from a fixture' },
  mcpServers: new Map(servers.map((s) => [s.uuid as string, s])),
});

let redis: RedisServer | undefined;
afterAll(async () => {
  await redis?.stop();
});

describe.each<[string, () => Promise<StoragePort>]>([
  ['memory', async () => createMemoryPort()],
  [
    'redis',
    async () => {
      redis ??= await startRedisServer();
      return createRedisPort({ url: redis.url, prefix: `test:${randomUUID()}:` });
    },
  ],
])('fixtures on the %s port', (_name, makePort) => {
  let failing: ReturnType<typeof createFailingPort>;
  let store: Store;
  beforeEach(async () => {
    failing = createFailingPort(await makePort());
    store = createStore({ port: failing.port, seed: 5, now: Date.now });
  }, 600_000);
  afterEach(() => failing.port.close());

  const both = async () => [await store.snapshot(FIRST), await store.snapshot(SECOND)];

  it('should apply every workspace of a set in one commit', async () => {
    await both();
    const commits = failing.calls.filter((call) => call.method === 'commit').length;
    await store.applyFixtures(
      new Map([
        [FIRST, fixtureOf(server('a'))],
        [SECOND, fixtureOf(server('b'))],
      ]),
    );
    expect(failing.calls.filter((call) => call.method === 'commit').length).toBe(commits + 1);
    const [first, second] = await both();
    expect([...first.mcpServers.values()].map((s) => s.name)).toEqual(['a']);
    expect([...second.mcpServers.values()].map((s) => s.name)).toEqual(['b']);
  });

  it('should leave every workspace as it was when the second cannot be stored', async () => {
    const before = await both();
    // Deeper than JSON.stringify can go: found while building the writes, before anything is written.
    const set = new Map([
      [FIRST, fixtureOf(server('a'))],
      [SECOND, fixtureOf(server('b', { deep: deep(50_000) }))],
    ]);
    await expect(store.applyFixtures(set)).rejects.toThrow(UnstorableFixtureError);
    expect(await both()).toEqual(before);
  });

  it('should leave every workspace as it was when the store fails on the writes of the second workspace', async () => {
    const before = await both();
    // The commit that writes the second workspace's data fails (the first's, if written apart, went before).
    failing.failNext(
      (call) =>
        call.method === 'commit' && (call.args[0] as { key: string }[]).some((write) => write.key.includes(SECOND)),
    );
    const set = new Map([
      [FIRST, fixtureOf(server('a'))],
      [SECOND, fixtureOf(server('b'))],
    ]);
    await expect(store.applyFixtures(set)).rejects.toThrow('injected');
    expect(await both()).toEqual(before);
    // Nothing is wedged: the same set applies once the store is back.
    await store.applyFixtures(set);
    expect((await store.snapshot(SECOND)).workspace.name).toBe('from a fixture');
  });

  it('should seed a workspace first seen in a set, then apply it with the others', async () => {
    const fresh = randomUUID();
    await store.applyFixtures(new Map([[fresh, fixtureOf(server('c'))]]));
    const state = await store.snapshot(fresh);
    expect([...state.mcpServers.values()].map((s) => s.name)).toEqual(['c']);
    expect(state.runs.size).toBeGreaterThan(0);
  });
});
