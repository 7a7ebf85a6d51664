/**
 * The suite against a server it did not grow up with: the independent Express implementation, which takes the other
 * legitimate reading at every open point, must pass (warnings allowed) at default settings and with --allow-writes.
 */
import type { RunSummary } from '../runner';
import { runAgainstIndependent } from './run-independent';

// Minutes of real HTTP on two cores; the limit is generous so a busy CI machine slows the run rather than failing it.
jest.setTimeout(900_000);

function failuresOf(summary: RunSummary): string {
  return summary.results
    .flatMap((r) => r.failures)
    .map((f) => `${f.checkId} [${f.ruleId}] ${f.title}: expected ${f.expected}, received ${f.received}`)
    .join('\n');
}

describe('the independent server', () => {
  test.each([
    ['default settings', { seed: 11, allowWrites: false }],
    ['--allow-writes', { seed: 12, allowWrites: true }],
  ])('should pass every check at %s', async (_name, overrides) => {
    // A limit beyond the budget keeps this run quick; the harness proves the 429 behaviour with a small one.
    const summary = await runAgainstIndependent({ rateLimit: 5000, runDurationMs: 300 }, { ...overrides, runs: 5 });
    expect(failuresOf(summary)).toBe('');
    expect(summary.exitCode).toBe(0);
    // Its other readings are reported, never silently: 404 for malformed ids, name required, no retryAfter.
    const warnings = summary.results.flatMap((r) => r.warnings);
    expect(warnings.map((w) => w.title)).toContainEqual(
      expect.stringMatching(/refused an invalid request with 404, not 400/),
    );
    for (const warning of warnings.filter((w) => /with 404, not 400|requires body fields/.test(w.title)))
      expect(warning.assumption).toBeTruthy();
  });
});
