/** Selection, workers and shards against the mock: what runs, what is sent, and that verdicts do not change. */
import { BROKEN } from '../fixtures';
import { runAgainstFixture } from '../fixtures/run-fixture';
import type { Exchange } from '../lib/http-client';
import type { Reporter, RunEvent, RunSummary } from '../runner';

jest.setTimeout(180_000);

function collector(): Reporter & { exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  return {
    exchanges,
    onEvent: (event: RunEvent) => void (event.type === 'exchange' && exchanges.push(event.exchange)),
  };
}

const verdicts = (summary: RunSummary) => Object.fromEntries(summary.results.map((r) => [r.id, r.status]));

describe('selection', () => {
  it('should skip the provisional operations as a group, and the checks that need them', async () => {
    const seen = collector();
    const summary = await runAgainstFixture(undefined, { runs: 3, skipTags: ['provisional'] }, [seen]);
    expect(summary.exitCode).toBe(0);
    const polling = summary.results.find((r) => r.id === 'async-create-answers-202-with-location')!;
    expect(polling.status).toBe('skipped');
    expect(polling.skippedReason).toMatch(/needs createRun, which is outside the selected operations/);
    expect(
      seen.exchanges.filter(
        (e) =>
          /^\/orchestration\/runs(\/|$|\?)/.test(e.request.path) &&
          !e.request.path.startsWith('/orchestration/runs/download'),
      ),
    ).toEqual([]);
  });

  it('should send generated requests only to the selected operations', async () => {
    const seen = collector();
    await runAgainstFixture(
      undefined,
      {
        runs: 3,
        operations: ['listSuppressions'],
        only: ['valid-requests-are-accepted', 'requests-without-valid-credential-get-401'],
      },
      [seen],
    );
    const paths = new Set(seen.exchanges.map((e) => e.request.path.split('?')[0]));
    expect([...paths]).toEqual(['/mailboxManagement/suppressions']);
  });
});

describe('workers', () => {
  // Against the plain mock the same comparison is `npm run conformance:bench`'s.
  it('should give the sequential verdicts with 4 workers for the same seed against a broken server', async () => {
    const broken = BROKEN.find((f) => f.name === 'rate-limit-shared-across-workspaces')!;
    const [one, four] = [
      await runAgainstFixture(broken, { runs: 3, seed: 11, only: undefined }),
      await runAgainstFixture(broken, { runs: 3, seed: 11, only: undefined, workers: 4 }),
    ];
    expect(verdicts(four)).toEqual(verdicts(one));
    expect(verdicts(four)['requests-are-counted-per-workspace']).toBe('failed');
  });
});

describe('shards', () => {
  it('should split checks and per-operation properties into disjoint parts that cover the run', async () => {
    const only = [
      'valid-requests-are-accepted',
      'overlong-idempotency-key-gets-400',
      'multipart-request-with-idempotency-key-gets-400',
      'workspaces-do-not-see-each-other',
    ];
    const ran: string[][] = [];
    const operations: string[][] = [];
    for (const index of [1, 2, 3]) {
      const seen = collector();
      const summary = await runAgainstFixture(undefined, { runs: 2, only, shard: { index, count: 3 } }, [seen]);
      ran.push(summary.results.filter((r) => !/another shard/.test(r.skippedReason ?? '')).map((r) => r.id));
      operations.push([
        ...new Set(
          seen.exchanges.filter((e) => e.checkId === 'valid-requests-are-accepted').map((e) => e.operationId!),
        ),
      ]);
    }
    // Whole checks in exactly one shard (the fanning-out check runs its share in each).
    for (const id of only.filter((id) => id !== 'valid-requests-are-accepted'))
      expect(ran.filter((ids) => ids.includes(id))).toHaveLength(1);
    const all = operations.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(10);
    for (const part of operations) expect(part.length).toBeGreaterThan(0);
  });
});
