import { startMock, type RunningMock } from './app';
import { WORKSPACE_A, WORKSPACE_B } from './config';
import { createMemoryPort } from './store/adapters/memory';
import { createFailingPort, storesIdempotentAnswer, type PortCall } from './testing/failing-port';
import { defined } from './testing/defined';

/**
 * All or nothing (principle 5): a request that fails after its write (here the store fails on the commit that
 * keeps the idempotent answer, or on a read while a run is awaited) applies nothing, and its Idempotency-Key is
 * free: the retry with the same key does the work once.
 */
// `any`: the answer's JSON is read by its paths (`body.batch.uuid`), whatever the server sent.
type Answer = { status: number; body: any };

let clock = Date.UTC(2026, 7, 1, 9, 0, 0);
let mock: RunningMock;
const failing = createFailingPort(createMemoryPort({ now: () => clock }));

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    now: () => clock,
    // A wait for a run moves the clock instead of sleeping.
    sleep: async (ms) => void (clock += ms),
    runDurationMs: 1000,
    storagePort: failing.port,
    adminToken: 'admin-secret',
  });
});
afterAll(async () => {
  await mock.close();
  await failing.port.close();
});
afterEach(() => failing.disarm());

async function call(method: string, path: string, body: unknown, key?: string): Promise<Answer> {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: {
      authorization: 'Bearer mock-token-a',
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Everything a request could have written: the workspace's state, what it created, and the exports kept. */
async function everything() {
  return {
    state: await mock.store.snapshot(WORKSPACE_A),
    // Statuses move with the clock (a wait moves it): what was created is compared without them.
    created: (await mock.store.listCreated([WORKSPACE_A])).map(({ status: _status, ...entry }) => entry),
    downloads: await failing.port.countByPrefix('download:'),
  };
}

const runUuid = async () => (await call('POST', '/orchestration/runs', {})).body.run.uuid as string;

describe('a write whose request fails afterwards is taken back, and its key freed', () => {
  // The commit that keeps the answer fails before the store applies it, or after (its answer lost on the way).
  type Row = [string, string, () => Promise<string> | string, unknown, number];
  const rows: Row[] = [
    ['createMcpServer', 'POST', () => '/ai/mcpServers', { name: 'once', description: 'd' }, 201],
    ['createRun', 'POST', () => '/orchestration/runs', { recordId: 'r1' }, 202],
    ['createBatch', 'POST', () => '/orchestration/batches', { recordIds: ['a', 'b', 'c'] }, 202],
    ['downloadRuns', 'POST', () => '/orchestration/runs/download', {}, 200],
    ['updateCurrentWorkspace', 'PUT', () => '/workspaceManagement/workspaces/current', { name: 'renamed' }, 200],
    ['cancelRun', 'POST', async () => `/orchestration/runs/${await runUuid()}/cancel`, undefined, 202],
  ];
  it.each(
    rows.flatMap(([operation, ...rest]) =>
      (['before', 'after'] as const).map((when) => [operation, when, ...rest] as const),
    ),
  )('%s, the commit failing %s the store applied it', async (operation, when, method, pathOf, sent, status) => {
    const path = await pathOf();
    const key = `fail-${operation}-${when}`;
    // A body of its own per case (the same rename twice would change nothing the second time).
    const body =
      sent && typeof sent === 'object' && 'name' in sent ? { ...sent, name: `${String(sent.name)}-${when}` } : sent;
    const before = await everything();
    failing.failNext(storesIdempotentAnswer, undefined, when);
    const failed = await call(method, path, body, key);
    expect([failed.status, failed.body.reason]).toEqual([503, 'store_unavailable']);
    expect(failing.failures()).toBeGreaterThan(0);
    expect(await everything()).toEqual(before);

    // The key is free (no 409, no replay of the failure), and the retry applies the write once.
    const retry = await call(method, path, body, key);
    expect(retry.status).toBe(status);
    const replay = await call(method, path, body, key);
    expect([replay.status, replay.body]).toEqual([status, retry.body]);
    expect(await everything()).not.toEqual(before);
  });

  it('should take back a run created with waitUntilFinished when the wait fails', async () => {
    const before = await everything();
    let created = false;
    failing.failNext((c: PortCall) => {
      // The run's write, then the first read of it while waiting.
      if (c.method === 'commit' && JSON.stringify(c.args[0]).includes('runs-created')) created = true;
      return created && c.method === 'read' && JSON.stringify(c.args[0]).includes(':runs"');
    });
    const failed = await call('POST', '/orchestration/runs', { waitUntilFinished: true }, 'wait-1');
    expect([failed.status, failed.body.reason]).toEqual([503, 'store_unavailable']);
    expect(await everything()).toEqual(before);
    const retry = await call('POST', '/orchestration/runs', { waitUntilFinished: true }, 'wait-1');
    expect([retry.status, retry.body.run.status]).toEqual([200, 'success']);
  });

  it('should take back the cancel of a batch member when its batch cannot be updated', async () => {
    const created = await call('POST', '/orchestration/batches', { recordIds: ['x', 'y'] });
    const member = defined(await mock.store.get(WORKSPACE_A, 'batches', created.body.batch.uuid), 'the stored batch')
      .runUuids[0];
    const before = await everything();
    failing.failNext(
      (c: PortCall) =>
        c.method === 'commit' &&
        (c.args[0] as { op: string; key: string }[]).some((w) => w.op === 'hset' && w.key.endsWith(':batches')),
    );
    const failed = await call('POST', `/orchestration/runs/${member}/cancel`, undefined);
    expect([failed.status, failed.body.reason]).toEqual([503, 'store_unavailable']);
    expect(await everything()).toEqual(before);
    expect((await call('POST', `/orchestration/runs/${member}/cancel`, undefined)).status).toBe(202);
    const batch = defined(await mock.store.get(WORKSPACE_A, 'batches', created.body.batch.uuid), 'the stored batch');
    expect(batch.tally).toMatchObject({ runs: 2, cancelled: 1 });
  });

  it('should write a keyed create and its kept answer in one commit', async () => {
    const commits = () => failing.calls.filter((c) => c.method === 'commit').length;
    await call('POST', '/ai/mcpServers', { name: 'warm', description: 'd' }, 'one-commit-0');
    const before = commits();
    const created = await call('POST', '/ai/mcpServers', { name: 'one', description: 'd' }, 'one-commit-1');
    expect(created.status).toBe(201);
    expect(commits() - before).toBe(1);
    const joint = defined(
      failing.calls.filter((c) => c.method === 'commit').at(-1),
      "failing.calls.filter((c) => c.method === 'commit').at(-1)",
    ).args[0] as { op: string; key: string }[];
    expect(joint.map((w) => `${w.op} ${w.key.split(':').at(-1)}`)).toEqual(
      expect.arrayContaining(['set one-commit-1', 'hset mcpServers', 'append mcpServers-created']),
    );
  });

  it('should take back nothing a later change made, and nothing of a request that succeeded', async () => {
    const first = await call('PUT', '/workspaceManagement/workspaces/current', { name: 'first' });
    expect(first.status).toBe(200);
    const created = await call('POST', '/ai/mcpServers', { name: 'kept', description: 'd' }, 'kept-1');
    expect(created.status).toBe(201);
    const after = await everything();
    expect(after.state.workspace.name).toBe('first');
    expect(after.state.mcpServers.has(created.body.mcpServer.uuid)).toBe(true);
  });
});

describe('a fixture set the store fails to write is not half-loaded', () => {
  const fixtureSet = (name: string) => ({
    workspaces: { 'mock-token-a': { workspace: { name } }, 'mock-token-b': { workspace: { name } } },
  });
  const post = (body: unknown) =>
    fetch(`${mock.origin}/__mock/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-admin-token': 'admin-secret' },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: await res.json() }));
  const names = async () => [
    (await mock.store.snapshot(WORKSPACE_A)).workspace.name,
    (await mock.store.snapshot(WORKSPACE_B)).workspace.name,
  ];

  it('should leave both workspaces as they were when the write of the second fails, and load them on retry', async () => {
    const before = [await mock.store.snapshot(WORKSPACE_A), await mock.store.snapshot(WORKSPACE_B)];
    // The commit that writes the second workspace (the first's, were it written apart, went before it).
    failing.failNext(
      (c: PortCall) =>
        c.method === 'commit' && (c.args[0] as { key: string }[]).some((w) => w.key.includes(WORKSPACE_B)),
    );
    const failed = await post(fixtureSet('from fixtures'));
    expect([failed.status, failed.body.reason]).toEqual([503, 'store_unavailable']);
    expect([await mock.store.snapshot(WORKSPACE_A), await mock.store.snapshot(WORKSPACE_B)]).toEqual(before);
    expect((await post(fixtureSet('from fixtures'))).status).toBe(200);
    expect(await names()).toEqual(['from fixtures', 'from fixtures']);
  });
});
