import { startMock, type RunningMock } from '../app';
import { WORKSPACE_A } from '../config';

/**
 * A `waitUntilFinished` request whose client goes away stops waiting at once (principle 5: abandoned work is
 * bounded): no more polls of its run, the run taken back like any failed request's write, its key freed.
 * Waits are shortened (each sleep lasts at most 5 ms) so the loop's polls are counted in a test that takes
 * well under a second.
 */
let mock: RunningMock;
let sleeps = 0;
/** Each wait the mock asked for, in ms (before the test shortens it). */
const asked: number[] = [];
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    sleep: (ms) => {
      sleeps += 1;
      asked.push(ms);
      return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5)));
    },
  });
});
afterAll(() => mock.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const create = (key: string, prefer: string, signal?: AbortSignal) =>
  fetch(`${mock.url}/orchestration/runs`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer mock-token-a',
      'content-type': 'application/json',
      'idempotency-key': key,
      prefer,
    },
    body: JSON.stringify({ waitUntilFinished: true }),
    signal,
  });

describe('a waitUntilFinished request abandoned by its client', () => {
  it('should stop polling its run once the client is gone, take the run back and free its key', async () => {
    const before = (await mock.store.listCreated([WORKSPACE_A])).length;
    const client = new AbortController();
    const abandoned = create('abandoned-1', 'duration=86400000', client.signal).catch((error: unknown) => error);
    // Polling every (shortened) second while the client waits.
    for (let i = 0; i < 200 && sleeps < 5; i++) await pause(5);
    expect(sleeps).toBeGreaterThanOrEqual(5);
    client.abort();
    expect(await abandoned).toMatchObject({ name: 'AbortError' });

    await pause(50);
    const after = sleeps;
    await pause(100);
    expect(sleeps).toBe(after);
    expect((await mock.store.listCreated([WORKSPACE_A])).length).toBe(before);

    // The key is free: the same request runs afresh (a short run this time) instead of answering 409.
    const retry = await create('abandoned-1', 'duration=1');
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as { run: { status: string } }).run.status).toBe('success');
  });
});

describe('a waitUntilFinished request whose run a fixture holds at running', () => {
  it('should read the run again each second, never in a loop of 1 ms waits', async () => {
    const client = new AbortController();
    const start = asked.length;
    const waiting = create('held-1', 'duration=600000', client.signal).catch((error: unknown) => error);
    for (let i = 0; i < 200 && asked.length === start; i++) await pause(5);
    const [created] = (await mock.store.listCreated([WORKSPACE_A])).filter(
      (entry) => entry.kind === 'run' && (entry.status === 'pending' || entry.status === 'running'),
    );
    // The same run, its status held at running, created long ago: its finish is in the past.
    const held = await fetch(`${mock.origin}/__mock/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer mock-token-a' },
      body: JSON.stringify({
        workspaces: {
          'mock-token-a': { runs: [{ uuid: created.uuid, status: 'running', createdAt: '2000-01-01T00:00:00.000Z' }] },
        },
      }),
    });
    expect(held.status).toBe(200);
    const from = asked.length;
    await pause(100);
    client.abort();
    await waiting;
    const since = asked.slice(from);
    expect(since.length).toBeGreaterThan(0);
    expect(since.every((ms) => ms >= 1000)).toBe(true);
  });
});
