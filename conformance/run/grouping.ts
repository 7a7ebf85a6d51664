/**
 * One defect is one failure: occurrences of the same check, rule and cause (the title, with the operation and ids it
 * names folded) are counted on the first one, with the operations they were seen on and a few examples, instead of a
 * block per response or per operation (a framework default answering every route the same way is one cause). A check
 * reporting another check's rule on an exchange that check already judged the same way adds no second verdict.
 */
import { toFailure, type Credentials, type Failure, type FailureInput } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import type { Contract } from '../../spec/lib';

/** Examples kept beyond the first occurrence. */
export const MAX_EXAMPLES = 3;

export type Sink = { failures: Failure[]; warnings: Failure[] };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export class FailureGroups {
  private readonly seen = new Map<string, Failure>();
  /** Verdicts by exchange, rule and severity: one exchange gets one verdict per rule. */
  private readonly verdicts = new Map<string, Failure>();
  private operationIds?: RegExp;

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

  /** A title's cause: the operation ids and uuids it names folded, so the same defect elsewhere reads the same. */
  causeOf(title: string): string {
    this.operationIds ??= new RegExp(
      `\\b(?:${(this.contract.operations ?? []).map((op) => op.operationId).join('|') || '(?!)'})\\b`,
      'g',
    );
    return title.replace(this.operationIds, '{operation}').replace(UUID, '{id}');
  }

  /** Records a failure or warning of a check; returns the failure that stands for its group. */
  record(sink: Sink, checkId: string, ruleId: string, input: FailureInput): Failure {
    const failure = toFailure(input, checkId, ruleId, this.credentials, this.contract.rules);
    const verdict = input.exchange && [input.exchange.id, failure.ruleId, failure.severity].join('|');
    const judged = verdict === undefined ? undefined : this.verdicts.get(verdict);
    // Another check's rule, already judged on this very exchange by a check of that rule: the same verdict again.
    if (judged && judged.checkId !== checkId && failure.ruleId !== ruleId) {
      if (!(judged.alsoBy ??= []).includes(checkId)) judged.alsoBy.push(checkId);
      return judged;
    }
    const operation = this.operationOf(input.exchange);
    const key = [checkId, failure.severity, failure.ruleId, this.causeOf(failure.cause ?? failure.title)].join('|');
    const earlier = this.seen.get(key);
    if (earlier) {
      earlier.occurrences = (earlier.occurrences ?? 1) + 1;
      if (operation && !(earlier.operations ??= []).includes(operation)) earlier.operations.push(operation);
      const examples = (earlier.examples ??= []);
      if (examples.length < MAX_EXAMPLES && failure.request)
        examples.push({
          request: `${failure.request.method} ${failure.request.url}`,
          status: failure.response?.status,
          reproduce: failure.reproduce,
          ...(failure.title !== earlier.title ? { title: failure.title } : {}),
        });
      return earlier;
    }
    this.seen.set(key, failure);
    if (verdict !== undefined) this.verdicts.set(verdict, failure);
    if (operation) failure.operations = [operation];
    (failure.severity === 'failure' ? sink.failures : sink.warnings).push(failure);
    this.onNew(failure);
    return failure;
  }
}
