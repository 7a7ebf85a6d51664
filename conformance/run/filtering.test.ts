/**
 * Filtering never turns a correct server red: against one in-process mock, every single operation, every tag,
 * the tags left out one at a time where that is quick, and every shard pass; a check whose operations a filter
 * removes is skipped and says which.
 */
import { startMock, type RunningMock } from '../../mocks/app';
import { allChecks } from '../checks';
import { parseConfig, type RunConfig } from '../config';
import { loadContract } from '../../spec/lib';
import { runConformance, type RunSummary } from '../runner';

jest.setTimeout(120_000);

const contract = loadContract();
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1' });
});
afterAll(() => mock.close());

function run(args: string[], overrides: Partial<RunConfig> = {}): Promise<RunSummary> {
  const base = ['--target', mock.url, '--token', 'mock-token-a', '--token-b', 'mock-token-b', '--runs', '2'];
  return runConformance({ ...parseConfig([...base, ...args], {}), ...overrides }, { checks: allChecks(), contract });
}

function failed(summary: RunSummary): string[] {
  return summary.results
    .filter((r) => r.status === 'failed')
    .flatMap((r) => r.failures.map((f) => `${r.id}: ${f.title} (${f.received.slice(0, 120)})`));
}

describe('filters against a correct server', () => {
  it.each(contract.operations.map((op) => [op.operationId]))('should pass with --operations %s', async (id) => {
    expect(failed(await run(['--operations', id]))).toEqual([]);
  });

  const tags = [...new Set(contract.operations.flatMap((op) => op.tags))];
  it.each(tags.map((tag) => [tag]))('should pass with --tags %s', async (tag) => {
    expect(failed(await run(['--tags', tag]))).toEqual([]);
  });

  // Leaving out one of the small tags runs nearly the whole suite; the two that remove most stand for them.
  it.each([['orchestration'], ['provisional']])('should pass with --skip-tags %s', async (tag) => {
    expect(failed(await run(['--skip-tags', tag]))).toEqual([]);
  });

  it.each([['1/3'], ['2/3'], ['3/3']])('should pass with --shard %s', async (shard) => {
    expect(failed(await run(['--shard', shard]))).toEqual([]);
  });
});

describe('checks whose operations are filtered out', () => {
  const needing = allChecks().filter((check) => check.needs?.length);

  it('should declare what the operation-bound checks need', () => {
    expect(needing.map((check) => check.id).length).toBeGreaterThanOrEqual(7);
  });

  it.each(needing.map((check) => [check.id, check] as const))(
    'should skip %s with the reason when a filter removes what it needs',
    async (_id, check) => {
      const other = contract.operations.find((op) => !check.needs!.includes(op.operationId))!;
      const summary = await run(['--operations', other.operationId], { only: [check.id] });
      const result = summary.results.find((r) => r.id === check.id)!;
      expect(result.status).toBe('skipped');
      expect(result.skippedReason).toMatch(
        new RegExp(`needs ${check.needs![0]}, which is outside the selected operations \\(--operations`),
      );
    },
  );
});
