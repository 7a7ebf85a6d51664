/**
 * Proof of the suite: it passes against the mock, each broken server makes its intended check fail (citing its
 * rule and saying why), and each correct variant passes (warnings allowed).
 */
import { allChecks } from './checks';
import { BROKEN, CORRECT } from './fixtures';
import { runAgainstFixture } from './fixtures/run-fixture';
import type { RunSummary } from './runner';

jest.setTimeout(120_000);

/** Few generated cases per property keep CI quick; the CLI default is larger. */
const RUNS = 10;

function failuresOf(summary: RunSummary): string {
  return summary.results
    .flatMap((r) => r.failures)
    .map((f) => `${f.checkId} [${f.ruleId}] ${f.title}: expected ${f.expected}, received ${f.received}`)
    .join('\n');
}

describe('conformance suite against the mock', () => {
  it('should pass every check against the default mock', async () => {
    const summary = await runAgainstFixture(undefined, { runs: RUNS });
    expect(failuresOf(summary)).toBe('');
    expect(summary.exitCode).toBe(0);
    // Skipped: the 429 check (the mock's limit lies beyond the budget) and the opt-in --max-response-time.
    expect(summary.results.filter((r) => r.status === 'passed' || r.status === 'warned').length).toBeGreaterThanOrEqual(
      allChecks().length - 2,
    );
  });
});

describe('broken servers', () => {
  it('should have a broken fixture for every check, named in the check file', () => {
    const names = new Set(BROKEN.map((f) => f.name));
    for (const check of allChecks())
      expect({ check: check.id, fixture: names.has(check.fixture) }).toEqual({ check: check.id, fixture: true });
    const proven = new Set<string>(BROKEN.map((f) => f.breaks!.checkId));
    for (const check of allChecks())
      expect({ check: check.id, proven: proven.has(check.id) }).toEqual({ check: check.id, proven: true });
  });

  it('should catch a reused key accepted whatever commands a seed draws (309 drew no reuse before runs ended with one)', async () => {
    const fixture = BROKEN.find((f) => f.name === 'reused-key-accepted')!;
    const summary = await runAgainstFixture(fixture, { runs: RUNS, seed: 309 });
    expect(summary.results.find((r) => r.id === fixture.breaks!.checkId)?.status).toBe('failed');
  });

  it.each(BROKEN.map((f) => [f.name, f] as const))(
    'should fail its intended check against %s',
    async (_name, fixture) => {
      const summary = await runAgainstFixture(fixture, { runs: RUNS });
      const result = summary.results.find((r) => r.id === fixture.breaks!.checkId);
      expect(result?.status).toBe('failed');
      const failure = result!.failures.find(
        (f) => f.ruleId === fixture.breaks!.ruleId && fixture.breaks!.because.test(f.title),
      );
      expect({
        failures: result!.failures.map((f) => `[${f.ruleId}] ${f.title}`),
        found: failure !== undefined,
      }).toMatchObject({ found: true });
      // Says why: what was expected and received, and how to reproduce it.
      expect(failure!.expected.length).toBeGreaterThan(0);
      expect(failure!.received.length).toBeGreaterThan(0);
      if (failure!.request) expect(failure!.reproduce).toMatch(/^curl -i -X [A-Z]+ '/);
      expect(summary.exitCode).toBe(1);
    },
  );
});

describe('correct variants', () => {
  it.each(CORRECT.map((f) => [f.name, f] as const))('should pass against %s', async (_name, fixture) => {
    const summary = await runAgainstFixture(fixture, { runs: fixture.config?.runs ?? RUNS });
    expect(failuresOf(summary)).toBe('');
    expect(summary.exitCode).toBe(0);
    // A reading the contract leaves open is reported as a warning, never silently.
    if (fixture.warns)
      expect(summary.results.flatMap((r) => r.warnings).map((w) => w.title)).toContainEqual(
        expect.stringMatching(fixture.warns),
      );
  });
});
