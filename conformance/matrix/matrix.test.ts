/** The coverage matrix: derived from the contract, every stated cell judged by a check or not judged for a stated reason. */
import { allChecks } from '../checks';
import { loadContract } from '../../spec/lib';
import { coverageFigures, coverageMatrix, CREDENTIAL_CHANNELS, formatMatrix, patternMatches } from './matrix';
import { queryTables, SQL_FORMS } from '../lib/query';

const contract = loadContract();
const cells = coverageMatrix(contract, allChecks());
const ids = new Set(cells.map((cell) => cell.id));

describe('the coverage matrix', () => {
  it('should give every stated cell a check that judges it or the reason none can', () => {
    expect(cells.filter((cell) => cell.stated && cell.judgedBy.length === 0 && !cell.reason).map((c) => c.id)).toEqual(
      [],
    );
    expect(coverageFigures(cells).unjudged).toEqual([]);
  });

  it('should derive its cells from the document: each operation, table x form, channel, job transition', () => {
    for (const op of contract.operations) expect(ids).toContain(`auth-required-401: ${op.operationId}`);
    expect(queryTables(contract)).toEqual(expect.arrayContaining(['logs', 'runs', 'batches', 'records', 'spans']));
    for (const table of queryTables(contract))
      for (const form of Object.keys(SQL_FORMS)) expect(ids).toContain(`query-read-only-scoped: ${table} ${form}`);
    for (const channel of CREDENTIAL_CHANNELS) expect(ids).toContain(`auth-required-401: ${channel}`);
    for (const id of [
      'async-poll-terminal: run cancel after terminal',
      'async-202-location: run waitUntilFinished false',
      'async-poll-terminal: batch terminal status in the terminal set',
      'workspace-scoping: run via export filter uuids (downloadRuns)',
      'workspace-scoping: suppression via list filter reasons (listSuppressions)',
      'idempotency-replay: createRun',
      'idempotency-key-length: createMcpServer header:Idempotency-Key:maxLength',
      'response-conformance: listSuppressions 400',
      'ratelimit-headers-every-response: RateLimit-Remaining counts the request it answers',
    ])
      expect(ids).toContain(id);
  });

  it('should keep the stated/assumed split of the contract', () => {
    const cell = (id: string) => cells.find((c) => c.id === id)!;
    expect(cell('request-validation: listSuppressions query:limit:maximum').stated).toBe(true);
    expect(cell('workspace-scoping: allocation via list filter capacityUuid (listAllocations)').stated).toBe(false);
    expect(cell('unknown-fields-ignored: the rule as a whole').reason).toMatch(/clients/);
  });

  it('should have no covers pattern of a check that matches no cell', () => {
    for (const check of allChecks())
      for (const pattern of check.covers ?? [])
        expect({ check: check.id, pattern, matches: [...ids].some((id) => patternMatches(pattern, id)) }).toEqual({
          check: check.id,
          pattern,
          matches: true,
        });
  });

  it('should say which cells a filter or a skipped check leaves out', () => {
    const filtered = coverageMatrix(contract, allChecks(), { operations: ['listSuppressions'], ran: [] });
    expect(filtered.find((c) => c.id === 'auth-required-401: getRun')!.reason).toMatch(/filtered out: getRun/);
    expect(filtered.find((c) => c.id === 'auth-required-401: listSuppressions')!.reason).toMatch(/not run/);
    expect(coverageFigures(filtered).percent).toBeLessThan(coverageFigures(cells).percent);
    expect(formatMatrix(cells)).toMatch(/stated cells judged: \d+ of \d+/);
  });
});
