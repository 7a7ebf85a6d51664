/**
 * A fast sample of the mutation harness (the whole run is `npm run conformance:mutants`): generated and
 * hand-written mutants of the independent server are each caught, and a correct variant raises no false alarm.
 */
import { loadContract } from '../../spec/lib';
import { cellMutants, correctVariants, generatedMutants, HAND_WRITTEN } from './catalogue';
import { runHarness, runMutant, scoreCells } from './harness';
import { coverageMatrix } from '../matrix/matrix';
import { allChecks } from '../checks';

// Minutes of real HTTP on two cores; the limit is generous so a busy CI machine slows the run rather than failing it.
jest.setTimeout(900_000);

describe('the mutation harness', () => {
  it('should generate a mutant from every stated request rule, rate-limit header and stated status', async () => {
    const { mutants } = generatedMutants(await loadContract());
    const ids = mutants.map((m) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'listSuppressions query:limit:maximum',
        'createMcpServer body:name:maxLength',
        'executeQuery body:query:maxLength',
        'updateCurrentWorkspace body:name:pattern',
        'drop-header RateLimit-Policy',
        'status 401',
      ]),
    );
    // Assumed facts are no defect when broken: the allocation filters' names are not shown.
    expect(ids.some((id) => id.startsWith('listAllocations query:capacityUuid'))).toBe(false);
  });

  it('should cover every cross-cutting rule a check verifies with a hand-written mutant', () => {
    const broken = new Set(HAND_WRITTEN.map((m) => m.breaks.split(' ')[0]));
    for (const rule of [
      'workspace-scoping',
      'auth-required-401',
      'idempotency-replay',
      'idempotency-concurrent-409',
      'idempotency-key-reuse-422',
      'ratelimit-429-retry-after',
      'error-shape',
      'query-read-only-scoped',
      'list-filters-and-count',
    ])
      expect({ rule, covered: broken.has(rule) }).toEqual({ rule, covered: true });
  });

  it('should break every judged stated cell of the coverage matrix with at least one mutant', async () => {
    const contract = await loadContract();
    const generated = generatedMutants(contract);
    const all = [...generated.mutants, ...cellMutants(contract), ...HAND_WRITTEN];
    const score = scoreCells(
      contract,
      all.map((mutant) => ({ mutant, killed: true, by: [], ms: 0 })),
      generated.equivalent,
    );
    expect(score.withoutMutant).toEqual([]);
    expect(score.cells).toBeGreaterThan(250);
  });

  it('should break every read-by-id isolation cell on the mock, derived from the contract, and be caught', async () => {
    const contract = await loadContract();
    const reads = coverageMatrix(contract, allChecks())
      .filter((cell) => cell.rule === 'workspace-scoping' && / via get \(/.test(cell.subject))
      .map((cell) => cell.operationId);
    const onMock = cellMutants(contract).filter((m) => m.mock);
    expect(onMock.map((m) => m.id).sort()).toEqual(reads.map((id) => `read-unscoped ${id}`).sort());
    const workflow = onMock.find((m) => m.id === 'read-unscoped getWorkflow');
    expect(workflow).toBeDefined();
    if (!workflow) return;
    const result = await runMutant(workflow);
    expect({ killed: result.killed, by: result.by }).toEqual({
      killed: true,
      by: ["workspaces-do-not-see-each-other: Workspace A can reach workspace B's workflow (getWorkflow)"],
    });
  });

  it('should generate a correct variant from every open point the independent server reads otherwise', () => {
    expect(correctVariants().length).toBeGreaterThanOrEqual(8);
  });

  it('should catch every mutant of a spread sample and raise no false alarm', async () => {
    const report = await runHarness({ sample: 6 });
    expect(report.mutants.filter((r) => !r.killed).map((r) => r.mutant.id)).toEqual([]);
    expect(report.variants.filter((v) => !v.passed).map((v) => `${v.variant.id}: ${v.failures.join('; ')}`)).toEqual(
      [],
    );
  });
});
