/** Network faults over real HTTP: what a client sees when the answer is lost, cut, garbled or never comes. */
import { request } from 'node:http';
import { startCheckedMock } from '../testing/client';
import { createMockControl } from '../control/client';
import { defined } from '../testing/defined';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;
type Seen = { status?: number; body?: string; error?: string };

/** A raw request, so every fault shows as the client library would see it (status, body, or the socket error). */
function send(url: string, headers: Record<string, string> = {}, timeoutMs = 5_000): Promise<Seen> {
  return new Promise((resolve) => {
    const req = request(url, { headers: { authorization: 'Bearer mock-token-a', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ status: res.statusCode, body, error: error.code ?? error.message }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('network faults', () => {
  let m: Checked;
  const list = () => `${m.mock.url}/mailboxManagement/suppressions`;
  beforeAll(async () => {
    m = await startCheckedMock({ rateLimit: 100_000 });
  });
  afterEach(() => createMockControl({ url: m.mock.origin, token: 'mock-token-a' }).reset());
  afterAll(() => m.close());

  it('should answer normally without a fault', async () => {
    const seen = await send(list());
    expect(seen.status).toBe(200);
    expect(JSON.parse(defined(seen.body, 'seen.body')).count).toBe(30);
  });

  it.each([
    ['reset', (s: Seen) => expect(s.error).toBe('ECONNRESET')],
    ['empty', (s: Seen) => expect(s).toEqual({ error: 'ECONNRESET' })],
    ['truncated', (s: Seen) => expect(s).toMatchObject({ status: 200, error: 'ECONNRESET' })],
    [
      'malformed-json',
      (s: Seen) => {
        expect(s.status).toBe(200);
        expect(() => JSON.parse(defined(s.body, 's.body'))).toThrow();
      },
    ],
  ])('should break the connection for Prefer: fault=%s', async (fault, expectSeen) => {
    expectSeen(await send(list(), { prefer: `fault=${fault}` }));
  });

  it('should hang for the bounded time set by the control plane, then drop the connection', async () => {
    await createMockControl({ url: m.mock.origin, token: 'mock-token-a' }).updateSettings({ hangMs: 300 });
    const started = Date.now();
    const seen = await send(list(), { prefer: 'fault=hang' });
    expect(seen.error).toBe('ECONNRESET');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const client = await send(list(), { prefer: 'fault=hang' }, 100);
    expect(client.error).toBe('client timeout');
  });

  it('should process the request whose answer is lost (a retry with the same key replays it)', async () => {
    const created = await new Promise<Seen>((resolve) => {
      const req = request(`${m.mock.url}/orchestration/runs`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer mock-token-a',
          'content-type': 'application/json',
          'idempotency-key': 'lost-1',
          prefer: 'fault=reset',
        },
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
      req.on('response', (res) => resolve({ status: res.statusCode }));
      req.end('{}');
    });
    expect(created.error).toBe('ECONNRESET');
    const control = createMockControl({ url: m.mock.origin, token: 'mock-token-a' });
    const [run] = await control.created();
    const retry = await m.call('POST', '/orchestration/runs', { body: {}, headers: { 'idempotency-key': 'lost-1' } });
    expect(retry.body.run.uuid).toBe(run.uuid);
  });

  it('should apply a control-plane rule to the share of requests of one operation only', async () => {
    const control = createMockControl({ url: m.mock.origin, token: 'mock-token-a' });
    await control.setFaults([{ operation: 'listSuppressions', fault: 'reset', share: 1, workspace: 'mock-token-a' }]);
    expect((await send(list())).error).toBe('ECONNRESET');
    expect((await send(list(), { authorization: 'Bearer mock-token-b' })).status).toBe(200);
    expect((await send(`${m.mock.url}/expression/recipes/list`)).status).toBe(200);
    await control.setFaults([{ operation: 'listSuppressions', fault: 'reset', share: 0 }]);
    expect((await send(list())).status).toBe(200);
  });

  it('should draw a partial share per request', async () => {
    await createMockControl({ url: m.mock.origin, token: 'mock-token-a' }).setFaults([
      { operation: 'listSuppressions', fault: 'empty', share: 0.5 },
    ]);
    const seen = await Promise.all(Array.from({ length: 40 }, () => send(list())));
    const failed = seen.filter((s) => s.error).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
  });
});
