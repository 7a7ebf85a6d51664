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
  findOperation: (_method: string, path: string) => ({
    operationId: path.startsWith('/orchestration/runs/') ? 'getRun' : 'other',
  }),
} as unknown as Contract;

describe('FailureGroups', () => {
  it('should count one defect once per check, operation and cause, with a few examples', () => {
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
    expect(sink.failures).toHaveLength(2);
    const [first] = sink.failures as Array<{ occurrences?: number; examples?: unknown[] }>;
    expect(first.occurrences).toBe(50);
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
