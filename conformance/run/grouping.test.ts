import type { Exchange } from '../lib/http-client';
import type { Contract } from '../../spec/lib';
import { FailureGroups, MAX_EXAMPLES } from './grouping';

function exchange(id: number, path: string, status: number): Exchange {
  return {
    id,
    checkId: 'c',
    tokenLabel: 'a',
    request: {
      method: 'GET',
      url: `http://127.0.0.1:4010/v1${path}`,
      path,
      headers: { Authorization: 'Bearer secret' },
    },
    response: { status, headers: {}, text: '' },
    sentAt: 0,
    receivedAt: 0,
    sentTick: id,
    receivedTick: id,
  };
}

const contract = {
  operations: [
    { operationId: 'getRun' },
    { operationId: 'createMcpServer' },
    { operationId: 'updateCurrentWorkspace' },
  ],
  findOperation: (_method: string, path: string) => ({
    operationId: path.startsWith('/orchestration/runs/') ? 'getRun' : 'other',
  }),
} as unknown as Contract;

describe('FailureGroups', () => {
  it('should count one defect once per check and cause across operations, with a few examples', () => {
    const groups = new FailureGroups(contract, { a: '$CONFORMANCE_TOKEN', b: '$CONFORMANCE_TOKEN_B' });
    const sink = { failures: [], warnings: [] };
    for (let i = 1; i <= 50; i++)
      groups.record(sink, 'rate-limit', 'rule', {
        title: 'RateLimit-Policy is missing',
        expected: 'e',
        received: 'r',
        exchange: exchange(i, `/orchestration/runs/${i}`, 200),
      });
    groups.record(sink, 'rate-limit', 'rule', {
      title: 'RateLimit-Policy is missing',
      expected: 'e',
      received: 'r',
      exchange: exchange(51, '/ai/mcpServers', 200),
    });
    expect(sink.failures).toHaveLength(1);
    const [first] = sink.failures as Array<{ occurrences?: number; examples?: unknown[]; operations?: string[] }>;
    expect(first.occurrences).toBe(51);
    expect(first.operations).toEqual(['getRun', 'other']);
    expect(first.examples).toHaveLength(MAX_EXAMPLES);
    expect(first.examples![0]).toMatchObject({
      request: 'GET http://127.0.0.1:4010/v1/orchestration/runs/2',
      status: 200,
      reproduce: expect.stringContaining('$CONFORMANCE_TOKEN'),
    });
  });

  it('should keep one warning per cause wherever it was seen', () => {
    const groups = new FailureGroups(contract, { a: 'literal', b: 'other' });
    const sink = { failures: [], warnings: [] };
    groups.record(sink, 'c', 'r', {
      severity: 'warning',
      title: 'W',
      expected: 'e',
      received: 'r',
      exchange: exchange(1, '/a', 200),
    });
    groups.record(sink, 'c', 'r', {
      severity: 'warning',
      title: 'W',
      expected: 'e',
      received: 'r',
      exchange: exchange(2, '/orchestration/runs/x', 200),
    });
    expect(sink.warnings).toHaveLength(1);
  });
});

describe('one defect, one failure; one exchange, one verdict', () => {
  const input = (title: string, id: number, path = '/a') => ({
    title,
    expected: 'e',
    received: 'r',
    exchange: exchange(id, path, 415),
  });

  it('should fold the operation and ids a title names into one cause', () => {
    const groups = new FailureGroups(contract, { a: 'a', b: 'b' });
    const sink = { failures: [], warnings: [] };
    groups.record(sink, 'c', 'r', input('Undeclared status (createMcpServer 415)', 1));
    groups.record(sink, 'c', 'r', input('Undeclared status (updateCurrentWorkspace 415)', 2));
    groups.record(sink, 'c', 'r', input('run 0190a5e2-7c1d-7a2b-8c3d-4e5f6a7b8c9d left success', 3));
    groups.record(sink, 'c', 'r', input('run 0190a5e2-7c1d-7a2b-8c3d-000000000000 left success', 4));
    groups.record(sink, 'c', 'r', input('Undeclared status (createMcpServer 500)', 5));
    expect(sink.failures.map((f: { title: string; occurrences?: number }) => [f.title, f.occurrences])).toEqual([
      ['Undeclared status (createMcpServer 415)', 2],
      ['run 0190a5e2-7c1d-7a2b-8c3d-4e5f6a7b8c9d left success', 2],
      ['Undeclared status (createMcpServer 500)', undefined],
    ]);
  });

  it("should give an exchange one verdict per rule: another check's report of that rule on it is folded in", () => {
    const groups = new FailureGroups(contract, { a: 'a', b: 'b' });
    const hook = { failures: [], warnings: [] };
    const other = { failures: [], warnings: [] };
    groups.record(hook, 'error-responses-use-the-error-shape', 'error-shape', input('415 not in the error shape', 7));
    const folded = groups.record(other, 'malformed-or-oversized-bodies-get-4xx', 'request-validation', {
      ...input('415 not in the error shape for a form body', 7),
      ruleId: 'error-shape',
    });
    expect(other.failures).toHaveLength(0);
    expect(hook.failures).toHaveLength(1);
    expect(folded.alsoBy).toEqual(['malformed-or-oversized-bodies-get-4xx']);
    // A check's own rule is always its own verdict.
    groups.record(
      other,
      'malformed-or-oversized-bodies-get-4xx',
      'request-validation',
      input('Accepted a form body', 7),
    );
    expect(other.failures).toHaveLength(1);
  });
});
