/**
 * One engine, proven equal: the conformance suite, exactly as `conformance/conformance.test.ts` runs it against
 * the server, passes against the in-process engine (`./msw` under MSW's setupServer: the suite's own HTTP
 * client is intercepted, no port is open) with the same checks and no failure.
 */
import { setupServer } from 'msw/node';
import { allChecks } from '../../conformance/checks';
import { parseConfig, type RunConfig } from '../../conformance/config';
import { runConformance, type RunSummary } from '../../conformance/runner';
import { DEFAULT_SPEC_PATH } from '../../spec/lib';
import { createHandlers } from '.';

jest.setTimeout(180_000);

/** As conformance.test.ts runs it against the server. */
const RUNS = 10;
const TARGET = 'http://mock.test/v1';

function failuresOf(summary: RunSummary): string {
  return summary.results
    .flatMap((r) => r.failures)
    .map((f) => `${f.checkId} [${f.ruleId}] ${f.title}: expected ${f.expected}, received ${f.received}`)
    .join('\n');
}

describe('conformance suite against the in-process engine', () => {
  const mock = createHandlers({ baseUrl: TARGET });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    server.close();
    await mock.close();
  });

  it('should pass every check the server passes, with no failure', async () => {
    const config: RunConfig = {
      ...parseConfig(
        ['--target', TARGET, '--token', 'mock-token-a', '--token-b', 'mock-token-b', '--allow-writes'],
        {},
      ),
      specPath: DEFAULT_SPEC_PATH,
      runs: RUNS,
    };
    const summary = await runConformance(config, { checks: allChecks(), reporters: [] });
    expect(failuresOf(summary)).toBe('');
    expect(summary.exitCode).toBe(0);
    // Skipped, as against the server: the 429 check (the limit lies beyond the budget) and --max-response-time.
    expect(summary.results.filter((r) => r.status === 'passed' || r.status === 'warned').length).toBeGreaterThanOrEqual(
      allChecks().length - 2,
    );
  });
});
