/**
 * The in-process mock in a Vitest file: MSW's setupServer with the package's `./msw` handlers, no port open.
 * `npm test` runs it (`npm run examples`).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from 'workspace-automation-api-contract/msw';
import { runFrontendFlows } from './flows';

const mock = createHandlers({ baseUrl: 'http://api.test/v1', rateLimit: 20, runDurationMs: 100 });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await mock.close();
});

describe('the frontend flows against ./msw under setupServer', () => {
  it('should replay a keyed create, poll runs to their end, force an outcome and meet a 429', async () => {
    const results = await runFrontendFlows('http://api.test/v1', mock.control);
    expect(results.keyedCreate).toEqual({ status: 201, replayStatus: 201, sameServer: true });
    expect(results.polledRun).toMatchObject({ status: 202, final: 'success' });
    expect(results.polledRun.location).toMatch(/^http:\/\/api\.test\/v1\/orchestration\/runs\/[0-9a-f-]{36}$/);
    expect(results.polledRun.seen[0]).toMatch(/pending|running/);
    expect(results.forcedOutcome).toEqual({ final: 'error' });
    expect(results.rateLimited).toMatchObject({ status: 429, reason: 'rate_limited' });
    expect(Number(results.rateLimited.retryAfter)).toBeGreaterThan(0);
    expect(results.rateLimited.bodyRetryAfter).toBe(Number(results.rateLimited.retryAfter));
  });
});
