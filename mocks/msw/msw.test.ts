/**
 * The in-process engine under MSW's `setupServer`: the same core as the server answers `fetch` with no port
 * open, each handler set with its own state, the control object steering it.
 */
import { setupServer } from 'msw/node';
import { createHandlers } from '.';

const BASE = 'http://api.test/v1';
const auth = { authorization: 'Bearer mock-token-a' };

describe('./msw under setupServer', () => {
  const violations: string[] = [];
  const mock = createHandlers({
    baseUrl: BASE,
    rateLimit: 3,
    runDurationMs: 50,
    onContractViolation: (found) => violations.push(...found),
  });
  const other = createHandlers({ baseUrl: 'http://other.test/v1' });
  const server = setupServer(...mock.handlers, ...other.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mock.control.reset());
  afterAll(async () => {
    server.close();
    await mock.close();
    await other.close();
  });

  it('should answer the API with state and replay a keyed create', async () => {
    const create = () =>
      fetch(`${BASE}/ai/mcpServers`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'k-1' },
        body: JSON.stringify({ name: 'docs', description: 'the docs server', url: 'https://mcp.example.com' }),
      });
    const first = await create();
    const again = await create();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(await again.json()).toEqual(await first.json());
    expect(first.headers.get('ratelimit-limit') ?? first.headers.get('x-ratelimit-limit')).toBe('3');
  });

  it('should answer 429 with Retry-After past the limit', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${BASE}/mailboxManagement/suppressions`, { headers: auth });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('should keep each handler set its own state', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${BASE}/mailboxManagement/suppressions`, { headers: auth });
    const elsewhere = await fetch('http://other.test/v1/mailboxManagement/suppressions', { headers: auth });
    expect(elsewhere.status).toBe(200);
  });

  it('should run SQL in the calling thread', async () => {
    const response = await fetch(`${BASE}/orchestration/query`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT count(*) AS n FROM runs' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { rows?: { n: number }[] };
    expect(JSON.stringify(body)).toMatch(/"n":\d+/);
  });

  it("should answer Prefer from the contract's examples, and say what only the server has", async () => {
    const example = await fetch(`${BASE}/mailboxManagement/suppressions`, {
      headers: { ...auth, prefer: 'example=default' },
    });
    expect(example.status).toBe(200);
    expect(await example.json()).toMatchObject({ count: 1, suppressions: [expect.any(Object)] });
    const unknown = await fetch(`${BASE}/mailboxManagement/suppressions`, {
      headers: { ...auth, prefer: 'example=__proto__' },
    });
    expect([unknown.status, ((await unknown.json()) as { reason: string }).reason]).toEqual([
      400,
      'mock_preference_unsatisfiable',
    ]);
    const dynamic = await fetch(`${BASE}/mailboxManagement/suppressions`, {
      headers: { ...auth, prefer: 'dynamic=true' },
    });
    expect(dynamic.status).toBe(400);
    expect(await dynamic.json()).toMatchObject({
      reason: 'mock_preference_unsatisfiable',
      errorMessage: expect.stringMatching(/Prism.*in-process engine/),
    });
    const oauth = await fetch('http://api.test/auth/authorize');
    expect(oauth.status).toBe(404);
    expect(((await oauth.json()) as { errorMessage: string }).errorMessage).toMatch(/OAuth server.*in-process/);
  });

  it('should have answered only what the contract states, every answer above checked against it', () => {
    expect(violations).toEqual([]);
  });
});
