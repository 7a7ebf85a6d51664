/**
 * Polling a 202's `Location`, typed: with openapi-fetch (the path and parameters of the typed GET read from the
 * Location) and with the client's own `pollRun`, `pollBatch` and `pollLocation`, until a terminal status.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../generators/generated/openapi';
import { startCheckedMock } from '../testing/client';
import {
  PollError,
  pollBatch,
  pollLocation,
  pollRun,
  readBatchLocation,
  readRunLocation,
  TERMINAL_JOB_STATUSES,
  type Batch,
  type Run,
} from './client';
import { loadContract } from '../../spec/lib';
import { SPEC_PATH } from '../testing/client';
import { defined } from '../testing/defined';

type RunStatus = components['schemas']['RunStatus'];
type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

describe('polling a Location, typed', () => {
  let m: Checked;
  const auth = { authorization: 'Bearer mock-token-a' };
  beforeAll(async () => {
    m = await startCheckedMock({ runDurationMs: 200, rateLimit: 100_000 });
  });
  afterAll(() => m.close());

  it('should list the contract terminal statuses', () => {
    expect([...TERMINAL_JOB_STATUSES]).toEqual(loadContract(SPEC_PATH).constants.terminalStatuses);
  });

  it("should read a created run's Location as the typed GET of openapi-fetch", async () => {
    const api = createClient<paths>({ baseUrl: m.mock.url, headers: auth });
    const created = await api.POST('/orchestration/runs', {
      body: {},
      headers: { Prefer: 'outcome=error, duration=60000' },
    });
    expect(created.response.status).toBe(202);
    const location = readRunLocation(created.response.headers.get('location'));
    expect(location.path).toBe('/orchestration/runs/{uuid}');
    const { data } = await api.GET(location.path, { params: location.params });
    const status: RunStatus | undefined = data?.run.status;
    expect(status).toMatch(/^(pending|running)$/);
    expect(data?.run.uuid).toBe(created.data?.run.uuid);
  });

  it('should poll a run to its terminal status, and a batch to its own', async () => {
    const run = await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer: 'outcome=error' } });
    const polled: Run = await pollRun(run.headers.location, { token: 'mock-token-a', intervalMs: 50 });
    expect([polled.uuid, polled.status]).toEqual([run.body.run.uuid, 'error']);

    const batch = await m.call('POST', '/orchestration/batches', {
      body: { recordIds: ['r1'] },
      headers: { prefer: 'outcome=skipped' },
    });
    const done: Batch = await pollBatch(batch.headers.location, { token: 'mock-token-a', intervalMs: 50 });
    expect(done.status).toBe('skipped');
    const either = await pollLocation(batch.headers.location, { token: 'mock-token-a' });
    expect(either.kind === 'batch' && either.batch.uuid).toBe(batch.body.batch.uuid);
  });

  it('should stop early when asked, and give up after timeoutMs naming the last status', async () => {
    const run = await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer: 'duration=8000' } });
    const running = await pollRun(run.headers.location, {
      token: 'mock-token-a',
      intervalMs: 20,
      until: (job) => job.status !== 'pending',
    });
    expect(running.status).toBe('running');
    await expect(pollRun(run.headers.location, { token: 'mock-token-a', timeoutMs: 100 })).rejects.toThrow(
      /not terminal after 100 ms \(last status running\)/,
    );
  });

  it('should refuse a Location of the other kind or of no job, and throw the error body of a failed poll', async () => {
    const run = await m.call('POST', '/orchestration/runs', { body: {} });
    expect(() => readBatchLocation(run.headers.location)).toThrow(/names a run, not a batch/);
    expect(() => readRunLocation('/v1/mailboxManagement/suppressions', m.mock.origin)).toThrow(/neither/);
    expect(() => readRunLocation(null)).toThrow(/has none/);
    expect(() => readRunLocation('/orchestration/runs/x')).toThrow(/not a URL/);
    const gone = run.headers.location.replace(/[0-9a-f]{12}$/, '000000000000');
    const failed = await pollRun(gone, { token: 'mock-token-a' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(PollError);
    expect((failed as PollError).status).toBe(404);
    const unauthenticated = await pollRun(run.headers.location).catch((error: unknown) => error);
    expect((unauthenticated as PollError).status).toBe(401);
  });

  it('should wait Retry-After on a 429 before polling again', async () => {
    const answers = [
      new Response(JSON.stringify({ errorMessage: 'slow down', retryAfter: 0 }), {
        status: 429,
        headers: { 'retry-after': '0' },
      }),
      new Response(JSON.stringify({ run: { uuid: 'u', status: 'success' } }), { status: 200 }),
    ];
    const seen: string[] = [];
    const run = await pollRun('http://mock.test/v1/orchestration/runs/u', {
      intervalMs: 60_000,
      fetch: async (url) => {
        seen.push(String(url));
        return defined(answers.shift(), 'answers.shift()');
      },
    });
    expect(run.status).toBe('success');
    expect(seen).toEqual(['http://mock.test/v1/orchestration/runs/u', 'http://mock.test/v1/orchestration/runs/u']);
  });
});

// Type tests (`npm run typecheck`): each @ts-expect-error fails the compile if its line ever compiles.
export const typed = {
  // @ts-expect-error a run's Location reads as the run's path, not the batch's
  path: (): '/orchestration/batches/{uuid}' => readRunLocation('').path,
  // @ts-expect-error pollRun resolves with a run, whose status is a run status
  status: async (): Promise<number> => (await pollRun('')).status,
  // @ts-expect-error pollLocation's answer is a union: the run is there only once the kind says so
  either: async () => (await pollLocation('')).run,
};
