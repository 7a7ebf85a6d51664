/**
 * One defect is one failure: occurrences of the same check, rule, operation and cause (the title) are counted
 * on the first one, with a few examples, instead of printing a block per response.
 */
import { toFailure, type Credentials, type Failure, type FailureInput } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import type { Contract } from '../../spec/lib';

/** Examples kept beyond the first occurrence. */
export const MAX_EXAMPLES = 3;

export type Sink = { failures: Failure[]; warnings: Failure[] };

export class FailureGroups {
  private readonly seen = new Map<string, Failure>();

  constructor(
    private readonly contract: Contract,
    private readonly credentials: Credentials,
    private readonly onNew: (failure: Failure) => void = () => {},
  ) {}

  /** The operation an exchange belongs to (its operationId, else method and path without ids or query). */
  operationOf(exchange: Exchange | undefined): string {
    if (!exchange) return '';
    if (exchange.operationId) return exchange.operationId;
    const path = exchange.request.path.split('?')[0];
    return (
      this.contract.findOperation(exchange.request.method, path)?.operationId ?? `${exchange.request.method} ${path}`
    );
  }

  /** Records a failure or warning of a check; returns the failure that stands for its group. */
  record(sink: Sink, checkId: string, ruleId: string, input: FailureInput): Failure {
    const failure = toFailure(input, checkId, ruleId, this.credentials, this.contract.rules);
    // A warning is about a reading of the contract: one per cause is enough, wherever it was seen.
    const where = failure.severity === 'warning' ? '' : this.operationOf(input.exchange);
    const key = [checkId, failure.severity, failure.ruleId, where, failure.title].join('|');
    const earlier = this.seen.get(key);
    if (earlier) {
      earlier.occurrences = (earlier.occurrences ?? 1) + 1;
      const examples = (earlier.examples ??= []);
      if (examples.length < MAX_EXAMPLES && failure.request)
        examples.push({
          request: `${failure.request.method} ${failure.request.url}`,
          status: failure.response?.status,
          reproduce: failure.reproduce,
        });
      return earlier;
    }
    this.seen.set(key, failure);
    (failure.severity === 'failure' ? sink.failures : sink.warnings).push(failure);
    this.onNew(failure);
    return failure;
  }
}
