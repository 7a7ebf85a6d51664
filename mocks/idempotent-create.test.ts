import { WORKSPACE_A } from './config';
import { createMemoryPort } from './store/adapters/memory';
import type { StoragePort } from './store/port';
import { startCheckedMock, type CallResult } from './testing/client';
import { createGatedPort, keepsAnswerOf } from './testing/gated-port';
import { startRedisServer, type RedisServer } from './testing/redis-server';
import { createStoragePort } from './store/adapters';
import { createMockControl } from './control/client';
import { IN_FLIGHT_LEASE_MS } from './store/repositories/idempotency';
import { loadContract } from '../spec/lib';

/**
 * Every keyed create (an MCP server, a run, a batch under an Idempotency-Key; the list is checked against the
 * contract's operations that take the key) against everything that can happen between its claim and the commit
 * that keeps its answer with what it created: a concurrent request with the key, the claim
 * released by its lease or the workspace's cap, a workspace reset. Whatever happens, the key's rule holds: one
 * server per key, and every answer that says it was created is the key's answer (a retry replays it). On real
 * HTTP on loopback, in memory and on two replicas sharing a real Redis.
 */
type Mock = Awaited<ReturnType<typeof startCheckedMock>>;
const CAP = 3;
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

let clock = Date.UTC(2026, 7, 1, 9, 0, 0);

/**
 * How a keyed create is made and what it created is found: its request with a tag in its body (another tag is
 * another request), the uuid its answer names, the records the tag's requests left in the store.
 */
type KeyedCreate = {
  operationId: string;
  path: string;
  body: (tag: string) => unknown;
  uuidOf: (answer: CallResult) => string;
  /** Its kind in the control plane's created listing (an export is not listed there). */
  kind?: 'mcpServer' | 'run' | 'batch';
  /** Told each answer to a request with its tag (what was created is found from the answers when unlisted). */
  saw?: (tag: string, answer: CallResult) => void;
  /** Set for what a workspace reset does not remove: forgets the tag's records (the key's are gone with it). */
  forget?: (tag: string) => void;
  records: (mock: Mock, tag: string) => Promise<string[]>;
};

/** The export URLs answered to each tag's requests. */
const exportsAnswered = new Map<string, string[]>();

const runsTagged = async (mock: Mock, tag: string) =>
  (await mock.mock.store.list(WORKSPACE_A, 'runs')).filter((run) => run.recordId === tag);

/** Every operation that creates a record under an Idempotency-Key (and each way it creates one). */
const KEYED_CREATES: Record<string, KeyedCreate> = {
  createMcpServer: {
    operationId: 'createMcpServer',
    path: '/ai/mcpServers',
    body: (tag) => ({ name: tag, description: 'd' }),
    uuidOf: (answer) => answer.body.mcpServer.uuid,
    kind: 'mcpServer',
    records: async (mock, tag) =>
      (await mock.mock.store.list(WORKSPACE_A, 'mcpServers'))
        .filter((server) => server.name === tag)
        .map((server) => server.uuid as string),
  },
  createRun: {
    operationId: 'createRun',
    path: '/orchestration/runs',
    body: (tag) => ({ recordId: tag }),
    uuidOf: (answer) => answer.body.run.uuid,
    kind: 'run',
    records: async (mock, tag) => (await runsTagged(mock, tag)).map((run) => run.uuid),
  },
  'createRun waitUntilFinished': {
    operationId: 'createRun',
    path: '/orchestration/runs',
    // Stored when made (it is read back while it runs), its answer kept only while it is stored.
    body: (tag) => ({ recordId: tag, waitUntilFinished: true }),
    uuidOf: (answer) => answer.body.run.uuid,
    kind: 'run',
    records: async (mock, tag) => (await runsTagged(mock, tag)).map((run) => run.uuid),
  },
  createBatch: {
    operationId: 'createBatch',
    path: '/orchestration/batches',
    body: (tag) => ({ recordIds: [tag] }),
    uuidOf: (answer) => answer.body.batch.uuid,
    kind: 'batch',
    records: async (mock, tag) => {
      // A batch and its runs are kept together: each run of the tag names a kept batch, each batch one run.
      const runs = await runsTagged(mock, tag);
      const batches = (await mock.mock.store.list(WORKSPACE_A, 'batches')).filter((batch) =>
        runs.some((run) => run.batchUuid === batch.uuid),
      );
      expect(runs.map((run) => run.batchUuid).sort()).toEqual(batches.map((batch) => batch.uuid).sort());
      return batches.map((batch) => batch.uuid);
    },
  },
  downloadRuns: {
    operationId: 'downloadRuns',
    path: '/orchestration/runs/download',
    body: (tag) => ({ recordId: tag }),
    // The export's path (its origin is the replica that answered first: a replay names it too).
    uuidOf: (answer) => new URL(answer.body.url).pathname,
    saw: (tag, answer) => {
      if (answer.status < 300) exportsAnswered.set(tag, [...(exportsAnswered.get(tag) ?? []), answer.body.url]);
    },
    // The exports any answer named that this mock still serves.
    records: async (mock, tag) => {
      const served: string[] = [];
      for (const path of new Set((exportsAnswered.get(tag) ?? []).map((url) => new URL(url).pathname))) {
        const headers = { authorization: 'Bearer mock-token-a' };
        if ((await fetch(`${mock.mock.origin}${path}`, { headers })).status === 200) served.push(path);
      }
      return served;
    },
    // An export is the mock's, not the workspace's: a reset leaves it to its age, no longer the key's.
    forget: (tag) => exportsAnswered.delete(tag),
  },
};

/** The operations that take an Idempotency-Key and create nothing a retry could make twice. */
const NOT_COVERED: Record<string, string> = {
  updateCurrentWorkspace: 'updates the one workspace in place',
  cancelRun: 'records a cancel by compare-and-set; a second cancel finds it recorded',
  executeQuery: 'reads only',
  downloadRuns: "its export is saved on its own commit, not yet with the key's answer",
};

const keyedOperations = loadContract()
  .operations.filter((operation) =>
    operation.parameters.some((parameter) => parameter.in === 'header' && /^idempotency-key$/i.test(parameter.name)),
  )
  .map((operation) => operation.operationId);

it('should know every operation of the contract that takes an Idempotency-Key', () => {
  expect(keyedOperations).toContain('createMcpServer');
  const covered = Object.values(KEYED_CREATES).map((create) => create.operationId);
  expect(keyedOperations.filter((id) => !covered.includes(id) && !(id in NOT_COVERED))).toEqual([]);
  expect([...covered, ...Object.keys(NOT_COVERED)].filter((id) => !keyedOperations.includes(id))).toEqual([]);
});

async function resetWorkspace(mock: Mock) {
  expect(await createMockControl({ url: mock.mock.origin, token: 'mock-token-a' }).reset()).toEqual({
    reset: WORKSPACE_A,
  });
}

type Setting = {
  held: Mock;
  other: Mock;
  gate: ReturnType<typeof createGatedPort>;
  /** The in-flight lease of a claim on `key` passes, on the clock that ages the store's keys. */
  passLease: (key: string) => Promise<void>;
  close: () => Promise<void>;
};

/** The cases of one keyed create; `key` is both the Idempotency-Key and the tag its request's body carries. */
function cases(id: string, op: KeyedCreate, setting: () => Setting) {
  const keyOf = (name: string) => `${id}-${name}`;
  const create = async (mock: Mock, key: string, tag: string = key) => {
    const answer = await mock.call('POST', op.path, { body: op.body(tag), headers: { 'idempotency-key': key } });
    op.saw?.(tag, answer);
    return answer;
  };

  /**
   * The key's rule after every request with it has answered: one record at most, any success names it, and a
   * retry (a request with the key, once more) replays it; when none was created, the retry creates it, once.
   */
  async function expectOneRecordForKey(key: string, answers: CallResult[]) {
    const { held, other } = setting();
    for (const answer of answers) {
      if (answer.status >= 400) {
        expect(typeof answer.body.errorMessage).toBe('string');
        expect(typeof answer.body.reason).toBe('string');
        for (const header of RATE_HEADERS) expect(answer.headers).toHaveProperty(header);
      }
    }
    const uuids = answers.filter((answer) => answer.status < 300).map(op.uuidOf);
    expect(new Set(uuids).size).toBeLessThanOrEqual(1);
    const retry = await create(other, key);
    expect(retry.status).toBeLessThan(300);
    if (uuids.length > 0) expect(op.uuidOf(retry)).toBe(uuids[0]);
    const again = await create(held, key);
    expect(again.body).toEqual(retry.body);
    expect(await op.records(held, key)).toEqual([op.uuidOf(retry)]);
    // The control plane lists it once, and lists no record the store does not hold (a create taken back).
    if (op.kind === undefined) return;
    const created = await createMockControl({ url: held.mock.origin, token: 'mock-token-a' }).created();
    const listed = created.filter((entry) => entry.kind === op.kind).map((entry) => entry.uuid);
    expect(listed.filter((uuid) => uuid === op.uuidOf(retry))).toHaveLength(1);
    const collection = ({ mcpServer: 'mcpServers', run: 'runs', batch: 'batches' } as const)[op.kind];
    const stored = new Set((await held.mock.store.list(WORKSPACE_A, collection)).map((entry) => entry.uuid));
    expect(listed.filter((uuid) => !stored.has(uuid))).toEqual([]);
  }

  /** The workspace's keyed requests on other keys, enough to release the oldest claims by the workspace's cap. */
  async function fillTheCap(mock: Mock, tag: string) {
    for (let i = 0; i < CAP; i++) expect((await create(mock, `${tag}-filler-${i}`)).status).toBeLessThan(300);
  }

  describe(`${id} (POST ${op.path})`, () => {
    it('should create one record for concurrent requests with one key: the others 409 or replay it', async () => {
      const { held, other } = setting();
      const key = keyOf('concurrent-same');
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i % 2 ? other : held, key)));
      expect(answers.map((answer) => answer.status).filter((status) => status >= 300 && status !== 409)).toEqual([]);
      expect(answers.some((answer) => answer.status < 300)).toBe(true);
      await expectOneRecordForKey(key, answers);
    });

    it('should answer 422 to another request with a key in flight or done, and create nothing for it', async () => {
      const { held, other, gate } = setting();
      const key = keyOf('reused');
      const another = keyOf('another');
      const hold = gate.holdNext(keepsAnswerOf(key));
      const first = create(held, key);
      await hold.reached;
      const inFlight = await create(other, key, another);
      hold.release();
      const done = await create(held, key, another);
      for (const answer of [inFlight, done])
        expect([answer.status, answer.body.reason]).toEqual([422, 'idempotency_key_reused']);
      await expectOneRecordForKey(key, [await first, inFlight, done]);
      expect(await op.records(held, another)).toEqual([]);
    });

    it('should keep one record per key when the workspace cap released the claim while the request ran', async () => {
      const { held, other, gate } = setting();
      const key = keyOf('evicted');
      const hold = gate.holdNext(keepsAnswerOf(key));
      const first = create(held, key);
      await hold.reached;
      await fillTheCap(other, key);
      // The key is free again: a retry claims it and runs.
      const second = await create(other, key);
      hold.release();
      await expectOneRecordForKey(key, [await first, second]);
    });

    it('should answer 409, writing nothing, when its released key is in flight for a retry as it commits', async () => {
      const { held, other, gate } = setting();
      const key = keyOf('evicted-in-flight');
      const holdFirst = gate.holdNext(keepsAnswerOf(key));
      const first = create(held, key);
      await holdFirst.reached;
      await fillTheCap(other, key);
      const holdSecond = gate.holdNext(keepsAnswerOf(key));
      // The retry runs on the replica whose commits the gate holds (the same process in memory).
      const second = create(held, key);
      await holdSecond.reached;
      holdFirst.release();
      const lost = await first;
      expect([lost.status, lost.body.reason]).toEqual([409, 'idempotency_key_in_use']);
      holdSecond.release();
      await expectOneRecordForKey(key, [lost, await second]);
    });

    it('should keep one record per key when the claim outlived its lease while the request ran', async () => {
      const { held, other, gate, passLease } = setting();
      const key = keyOf('leased');
      const hold = gate.holdNext(keepsAnswerOf(key));
      const first = create(held, key);
      await hold.reached;
      await passLease(key);
      const second = await create(other, key);
      hold.release();
      await expectOneRecordForKey(key, [await first, second]);
    });

    it('should leave no record without its answer when the claim was released and nobody took the key', async () => {
      const { held, other, gate } = setting();
      const key = keyOf('released-free');
      const hold = gate.holdNext(keepsAnswerOf(key));
      const first = create(held, key);
      await hold.reached;
      await fillTheCap(other, key);
      hold.release();
      await expectOneRecordForKey(key, [await first]);
    });

    it('should forget the key with the workspace reset: the same key then creates anew, once', async () => {
      const { held, other } = setting();
      const key = keyOf('after-reset');
      const first = await create(held, key);
      expect(first.status).toBeLessThan(300);
      await resetWorkspace(other);
      op.forget?.(key);
      expect(await op.records(held, key)).toEqual([]);
      await expectOneRecordForKey(key, []);
      expect(await op.records(held, key)).not.toEqual([op.uuidOf(first)]);
    });

    it('should leave no half-applied create when the workspace is reset between claim and commit', async () => {
      const { held, other, gate } = setting();
      const key = keyOf('reset-between');
      const hold = gate.holdNext(keepsAnswerOf(key));
      const first = create(held, key);
      await hold.reached;
      await resetWorkspace(other);
      hold.release();
      await expectOneRecordForKey(key, [await first]);
    });
  });
}

function suite(name: string, setUp: () => Promise<Setting>) {
  describe(name, () => {
    let setting: Setting;
    beforeAll(async () => {
      setting = await setUp();
    }, 600_000);
    afterAll(() => setting?.close());
    for (const [id, op] of Object.entries(KEYED_CREATES)) cases(id, op, () => setting);
  });
}

// Runs end as they are made: a run waited for answers at once on the test's frozen clock.
const options = { idempotencyCapPerWorkspace: CAP, now: () => clock, runDurationMs: 0 };

suite('a keyed create in memory', async () => {
  const gate = createGatedPort(createMemoryPort({ now: () => clock }));
  const held = await startCheckedMock({ ...options, storagePort: gate.port });
  // The memory store ages its keys on the test's clock.
  const passLease = async () => void (clock += IN_FLIGHT_LEASE_MS + 1);
  return { held, other: held, gate, passLease, close: () => held.close() };
});

let redis: RedisServer;
/** The two replicas' key prefix in Redis. */
const PREFIX = 'idempotent-create:';
beforeAll(async () => {
  redis = await startRedisServer();
}, 600_000);
afterAll(() => redis?.stop());

suite('a keyed create on two replicas sharing one Redis', async () => {
  const ports: StoragePort[] = [];
  const redisPort = async () => {
    const port = await createStoragePort({ redisUrl: redis.url, redisPrefix: PREFIX });
    ports.push(port);
    return port;
  };
  const gate = createGatedPort(await redisPort());
  const held = await startCheckedMock({ ...options, storagePort: gate.port });
  const other = await startCheckedMock({ ...options, storagePort: await redisPort() });
  // Redis ages its keys on its own clock: the claim's key expires there, as its lease ending would expire it
  // (the replicas' clock moves with it, so what they compute from it agrees).
  const { default: Redis } = await import('ioredis');
  const raw = new Redis(redis.url, { lazyConnect: true });
  await raw.connect();
  const passLease = async (key: string) => {
    const stored = `${PREFIX}idem:${WORKSPACE_A}:${key}`;
    expect(await raw.pexpire(stored, 1)).toBe(1);
    while ((await raw.exists(stored)) === 1) await new Promise((resolve) => setTimeout(resolve, 2));
    clock += IN_FLIGHT_LEASE_MS + 1;
  };
  const close = async () => {
    await held.close();
    await other.close();
    for (const port of ports) await port.close();
    raw.disconnect();
  };
  return { held, other, gate, passLease, close };
});

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
    const server = KEYED_CREATES.createMcpServer;
    const create = (mock: Mock, key: string) =>
      mock.call('POST', server.path, { body: server.body(key), headers: { 'idempotency-key': key } });
    // The first replica counts once (it knows room is left); the second spends the rest of the window.
    expect((await first.call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    for (let i = 1; i < LIMIT; i++)
      expect((await second.call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    // Counted ahead on the first replica (its claim travels with the count): the count refuses it.
    const refused = await create(first, 'refused');
    expect([refused.status, refused.body.reason]).toEqual([429, 'rate_limited']);
    for (const header of [...RATE_HEADERS, 'retry-after']) expect(refused.headers).toHaveProperty(header);
    expect(await server.records(first, 'refused')).toEqual([]);
    clock += 60_000;
    const created = await create(second, 'refused');
    expect(created.status).toBe(201);
    expect(await server.records(first, 'refused')).toEqual([server.uuidOf(created)]);
  });
});
