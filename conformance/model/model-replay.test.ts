/**
 * A failure of the model phase shrinks to a sequence of commands and replays: the printed command line (seed, and
 * `--path model:<path>[@<commands>]`) run against a fresh copy of the broken server fails with the same title.
 */
import { parseConfig, type RunConfig } from '../config';
import { BROKEN } from '../fixtures';
import { runAgainstFixture } from '../fixtures/run-fixture';

jest.setTimeout(120_000);

/** The words of a printed command line: single-quoted words and bare ones (all the replay line uses). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

describe('the model phase', () => {
  it('should print a replay that reproduces its shrunk failure', async () => {
    const fixture = BROKEN.find((f) => f.name === 'page-two-overlaps-page-one')!;
    const first = await runAgainstFixture(fixture, { runs: 3, seed: 11 });
    const failure = first.results.flatMap((r) => r.failures).find((f) => f.path?.startsWith('model:'));
    // The coverage sequence (fast-check's example) replays by its path alone; a drawn one adds its commands.
    expect(failure?.replay).toMatch(/--path '?model:\d[^' ]*/);
    const args = words(failure!.replay!.replace(/^npm run conformance -- /, '')).map((word, i, all) =>
      all[i - 1] === '--target' ? 'http://127.0.0.1:1/v1' : word,
    );
    const { target: _target, ...settings } = parseConfig(args, {}) as RunConfig;
    const again = await runAgainstFixture(fixture, settings);
    expect(again.results.flatMap((r) => r.failures).map((f) => f.title)).toContain(failure!.title);
    // The sequence that fails is in the failure, each request reproducible as a curl line.
    expect(failure!.reproduce?.split('\n').length).toBeGreaterThan(1);
  });
});
