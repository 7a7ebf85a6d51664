import { startMock, type RunningMock } from '../app';
import { hostileQueries } from './hostile-queries';
import { workspaceB } from './test-tables';

/**
 * The hostile-query corpus through HTTP on the running mock, as workspace A over the seeded data of A and B: every
 * answer is a 200 with rows or a 400 in the contract's error shape (x-rules: error-shape), carries the rate-limit
 * headers (x-rules: ratelimit-headers-every-response) and holds nothing of workspace B (x-rules: workspace-scoping).
 */
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());

describe('hostile queries over HTTP (POST /orchestration/query)', () => {
  // One at a time: a workspace's queries queue behind each other and the queue counts in the 2 s budget.
  it.each(hostileQueries)('should answer %s in the contract shape', async (_name, sql, expectation) => {
    const res = await fetch(`${mock.url}/orchestration/query`, {
      method: 'POST',
      headers: { Authorization: 'Bearer mock-token-a', 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: sql }),
    });
    const text = await res.text();
    expect(text).not.toContain(workspaceB);
    expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    const body = JSON.parse(text) as Record<string, unknown>;
    if (res.status === 200) {
      expect(Array.isArray(body.rows)).toBe(true);
      expect(typeof expectation === 'object' ? expectation.refused : 'rows').toBe('rows');
      return;
    }
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ errorMessage: expect.any(String), reason: expect.any(String) });
    expect(expectation).not.toBe('rows');
    // The length limit may be caught first by the request validation stage, with its own reason.
    if (typeof expectation === 'object' && expectation.refused !== 'query_too_long')
      expect([expectation.refused, expectation.orUnderLoad ?? expectation.refused]).toContain(body.reason);
  });

  it('should leave the store unchanged', async () => {
    const count = async (token: string) => {
      const res = await fetch(`${mock.url}/orchestration/query`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          query: 'SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM logs) AS logs',
        }),
      });
      return ((await res.json()) as { rows: object[] }).rows;
    };
    expect(await count('mock-token-a')).toEqual(await count('mock-token-b'));
    expect(await count('mock-token-a')).toEqual([
      {
        runs: (await mock.store.readQueryTables(mock.config.tokens['mock-token-a'])).runs.length,
        logs: expect.any(Number),
      },
    ]);
  });
});
