import { WORKSPACE_A } from './config';
import { createMemoryPort } from './store/adapters/memory';
import type { StoragePort } from './store/port';
import { startCheckedMock, type CallResult } from './testing/client';
import { createGatedPort, keepsAnswerOf } from './testing/gated-port';
import { startRedisServer, type RedisServer } from './testing/redis-server';
import { createStoragePort } from './store/adapters';
import { createMockControl } from './control/client';

/**
 * A keyed create (`POST /ai/mcpServers` under an Idempotency-Key) against everything that can happen between its
 * claim and the commit that keeps its answer with the server: a concurrent request with the key, the claim
 * released by its lease or the workspace's cap, a workspace reset. Whatever happens, the key's rule holds: one
 * server per key, and every answer that says it was created is the key's answer (a retry replays it). On real
 * HTTP on loopback, in memory and on two replicas sharing a real Redis.
 */
type Mock = Awaited<ReturnType<typeof startCheckedMock>>;
const CAP = 3;
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

let clock = Date.UTC(2026, 7, 1, 9, 0, 0);

const create = (mock: Mock, key: string, body: unknown = { name: key, description: 'd' }) =>
  mock.call('POST', '/ai/mcpServers', { body, headers: { 'idempotency-key': key } });

/** The servers of workspace A named `name` (every server a key's requests created). */
async function serversNamed(mock: Mock, name: string): Promise<string[]> {
  const servers = await mock.mock.store.list(WORKSPACE_A, 'mcpServers');
  return servers.filter((server) => server.name === name).map((server) => server.uuid as string);
}

/**
 * The key's rule after every request with it has answered: one server at most, any 201 names it, and a retry
 * (a request with the key, once more) replays it; when none was created, the retry creates it, once.
 */
async function expectOneServerForKey(mocks: Mock[], key: string, answers: CallResult[]) {
  for (const answer of answers) {
    if (answer.status >= 400) {
      expect(typeof answer.body.errorMessage).toBe('string');
      expect(typeof answer.body.reason).toBe('string');
      for (const header of RATE_HEADERS) expect(answer.headers).toHaveProperty(header);
    }
  }
  const uuids = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.mcpServer.uuid);
  expect(new Set(uuids).size).toBeLessThanOrEqual(1);
  const retry = await create(mocks[mocks.length - 1], key);
  expect(retry.status).toBe(201);
  if (uuids.length > 0) expect(retry.body.mcpServer.uuid).toBe(uuids[0]);
  const again = await create(mocks[0], key);
  expect(again.body).toEqual(retry.body);
  expect(await serversNamed(mocks[0], key)).toEqual([retry.body.mcpServer.uuid]);
  // The control plane lists it once, and lists no server the store does not hold (a create taken back).
  const created = await createMockControl({ url: mocks[0].mock.origin, token: 'mock-token-a' }).created();
  const servers = new Set((await mocks[0].mock.store.list(WORKSPACE_A, 'mcpServers')).map((server) => server.uuid));
  const listed = created.filter((entry) => entry.kind === 'mcpServer').map((entry) => entry.uuid);
  expect(listed.filter((uuid) => uuid === retry.body.mcpServer.uuid)).toHaveLength(1);
  expect(listed.filter((uuid) => !servers.has(uuid))).toEqual([]);
}

async function resetWorkspace(mock: Mock) {
  expect(await createMockControl({ url: mock.mock.origin, token: 'mock-token-a' }).reset()).toEqual({
    reset: WORKSPACE_A,
  });
}

/** The workspace's keyed requests on other keys, enough to release the oldest claims by the workspace's cap. */
async function fillTheCap(mock: Mock, tag: string) {
  for (let i = 0; i < CAP; i++) expect((await create(mock, `${tag}-filler-${i}`)).status).toBe(201);
}

type Setting = { held: Mock; other: Mock; gate: ReturnType<typeof createGatedPort>; close: () => Promise<void> };

/** `clockRulesTheStore`: the store's ages follow the test's clock (memory; Redis keeps its own). */
function suite(name: string, setUp: () => Promise<Setting>, clockRulesTheStore: boolean) {
  describe(name, () => {
    let held: Mock;
    let other: Mock;
    let gate: ReturnType<typeof createGatedPort>;
    let close: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      ({ held, other, gate, close } = await setUp());
    }, 600_000);
    afterAll(() => close());

    it('should create one server for concurrent requests with one key: the others 409 or replay it', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => create(i % 2 ? other : held, 'concurrent-same')),
      );
      expect(answers.map((answer) => answer.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
      expect(answers.some((answer) => answer.status === 201)).toBe(true);
      await expectOneServerForKey([held, other], 'concurrent-same', answers);
    });

    it('should answer 422 to another request with a key in flight or done, and create nothing for it', async () => {
      const hold = gate.holdNext(keepsAnswerOf('reused'));
      const first = create(held, 'reused');
      await hold.reached;
      const inFlight = await create(other, 'reused', { name: 'another', description: 'd' });
      hold.release();
      const done = await create(held, 'reused', { name: 'another', description: 'd' });
      for (const answer of [inFlight, done])
        expect([answer.status, answer.body.reason]).toEqual([422, 'idempotency_key_reused']);
      await expectOneServerForKey([held, other], 'reused', [await first, inFlight, done]);
      expect(await serversNamed(held, 'another')).toEqual([]);
    });

    it('should keep one server per key when the workspace cap released the claim while the request ran', async () => {
      const hold = gate.holdNext(keepsAnswerOf('evicted'));
      const first = create(held, 'evicted');
      await hold.reached;
      await fillTheCap(other, 'evicted');
      // The key is free again: a retry claims it and runs.
      const second = await create(other, 'evicted');
      hold.release();
      await expectOneServerForKey([held, other], 'evicted', [await first, second]);
    });

    it('should answer 409, writing nothing, when its released key is in flight for a retry as it commits', async () => {
      const holdFirst = gate.holdNext(keepsAnswerOf('evicted-in-flight'));
      const first = create(held, 'evicted-in-flight');
      await holdFirst.reached;
      await fillTheCap(other, 'evicted-in-flight');
      const holdSecond = gate.holdNext(keepsAnswerOf('evicted-in-flight'));
      // The retry runs on the replica whose commits the gate holds (the same process in memory).
      const second = create(held, 'evicted-in-flight');
      await holdSecond.reached;
      holdFirst.release();
      const lost = await first;
      expect([lost.status, lost.body.reason]).toEqual([409, 'idempotency_key_in_use']);
      holdSecond.release();
      await expectOneServerForKey([held, other], 'evicted-in-flight', [lost, await second]);
    });

    // Redis ages its keys on its own clock: the lease is moved only where the test's clock rules the store.
    if (clockRulesTheStore)
      it('should keep one server per key when the claim outlived its lease while the request ran', async () => {
        const hold = gate.holdNext(keepsAnswerOf('leased'));
        const first = create(held, 'leased');
        await hold.reached;
        clock += 10 * 60_000 + 1;
        const second = await create(other, 'leased');
        hold.release();
        await expectOneServerForKey([held, other], 'leased', [await first, second]);
      });

    it('should leave no server without its answer when the claim was released and nobody took the key', async () => {
      const hold = gate.holdNext(keepsAnswerOf('released-free'));
      const first = create(held, 'released-free');
      await hold.reached;
      await fillTheCap(other, 'released-free');
      hold.release();
      await expectOneServerForKey([held, other], 'released-free', [await first]);
    });

    it('should forget the key with the workspace reset: the same key then creates anew, once', async () => {
      const first = await create(held, 'after-reset');
      expect(first.status).toBe(201);
      await resetWorkspace(other);
      expect(await serversNamed(held, 'after-reset')).toEqual([]);
      await expectOneServerForKey([held, other], 'after-reset', []);
      expect(await serversNamed(held, 'after-reset')).not.toEqual([first.body.mcpServer.uuid]);
    });

    it('should leave no half-applied create when the workspace is reset between claim and commit', async () => {
      const hold = gate.holdNext(keepsAnswerOf('reset-between'));
      const first = create(held, 'reset-between');
      await hold.reached;
      await resetWorkspace(other);
      hold.release();
      await expectOneServerForKey([held, other], 'reset-between', [await first]);
    });
  });
}

const options = { idempotencyCapPerWorkspace: CAP, now: () => clock };

suite(
  'a keyed create in memory',
  async () => {
    const gate = createGatedPort(createMemoryPort({ now: () => clock }));
    const held = await startCheckedMock({ ...options, storagePort: gate.port });
    return { held, other: held, gate, close: () => held.close() };
  },
  true,
);

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 600_000);
afterAll(() => redis?.stop());

suite(
  'a keyed create on two replicas sharing one Redis',
  async () => {
    const ports: StoragePort[] = [];
    const redisPort = async () => {
      const port = await createStoragePort({ redisUrl: redis.url, redisPrefix: 'idempotent-create:' });
      ports.push(port);
      return port;
    };
    const gate = createGatedPort(await redisPort());
    const held = await startCheckedMock({ ...options, storagePort: gate.port });
    const other = await startCheckedMock({ ...options, storagePort: await redisPort() });
    const close = async () => {
      await held.close();
      await other.close();
      for (const port of ports) await port.close();
    };
    return { held, other, gate, close };
  },
  false,
);

describe('a keyed create refused by the rate limit counted ahead, on two replicas sharing one Redis', () => {
  const LIMIT = 3;
  let mocks: Mock[];
  beforeAll(async () => {
    const limited = { ...options, rateLimit: LIMIT, redisUrl: redis.url, redisPrefix: 'idempotent-create-429:' };
    mocks = [await startCheckedMock(limited), await startCheckedMock(limited)];
  });
  afterAll(async () => {
    for (const mock of mocks ?? []) await mock.close();
  });

  it('should answer 429 with its headers, create nothing, and leave the key free for the next window', async () => {
    const [first, second] = mocks;
    // The first replica counts once (it knows room is left); the second spends the rest of the window.
    expect((await first.call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    for (let i = 1; i < LIMIT; i++)
      expect((await second.call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    // Counted ahead on the first replica (its claim travels with the count): the count refuses it.
    const refused = await create(first, 'refused');
    expect([refused.status, refused.body.reason]).toEqual([429, 'rate_limited']);
    for (const header of [...RATE_HEADERS, 'retry-after']) expect(refused.headers).toHaveProperty(header);
    expect(await serversNamed(first, 'refused')).toEqual([]);
    clock += 60_000;
    const created = await create(second, 'refused');
    expect(created.status).toBe(201);
    expect(await serversNamed(first, 'refused')).toEqual([created.body.mcpServer.uuid]);
  });
});
