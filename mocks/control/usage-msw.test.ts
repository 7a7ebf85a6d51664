/**
 * The usage report read through the in-process control object of `./msw`: the same counts as the server's, of
 * that handler set's own state, with no port open.
 */
import { setupServer } from 'msw/node';
import { createHandlers } from '../msw';
import { defined } from '../testing/defined';

const BASE = 'http://usage.test/v1';

describe('the usage report in process (./msw)', () => {
  const mock = createHandlers({ baseUrl: BASE, runDurationMs: 0 });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    server.close();
    await mock.close();
  });

  it("should count the handler set's answers and list what they never met", async () => {
    const headers = { authorization: 'Bearer mock-token-a', 'content-type': 'application/json' };
    await fetch(`${BASE}/mailboxManagement/suppressions`, { headers });
    await fetch(`${BASE}/mailboxManagement/suppressions?limit=0`, { headers });
    const created = await fetch(`${BASE}/orchestration/runs`, {
      method: 'POST',
      headers: { ...headers, prefer: 'outcome=cancelled' },
      body: '{}',
    });
    await fetch(defined(created.headers.get('location'), "created.headers.get('location')"), { headers });
    const report = await mock.control.usage();
    expect(report.rows.map(({ operation, status, outcome, count }) => [operation, status, outcome, count])).toEqual([
      ['listSuppressions', 200, '-', 1],
      ['listSuppressions', 400, 'reason:invalid_request', 1],
      ['createRun', 202, 'job:cancelled', 1],
      ['getRun', 200, 'job:cancelled', 1],
    ]);
    expect(report.operations.find((gap) => gap.operation === 'getRun')?.unexercisedOutcomes).toEqual([
      'success',
      'error',
      'skipped',
    ]);
    await mock.control.resetUsage();
    expect((await mock.control.usage()).requests).toBe(0);
  });
});
