/**
 * After a failed request: a create breaking a stated rule is sent with a fresh Idempotency-Key (it fails: nothing was
 * created), then the same key with a valid request once the failure has been answered. Nothing is running, so the
 * answer is never 409 (x-rules idempotency-concurrent-409); it creates the record (the failure kept nothing) or is
 * 422 (the key names the failed request: "reusing a key with a different request returns 422"). The failed request
 * sent again after that is never accepted.
 */
import type fc from 'fast-check';
import { describe } from '../../lib/exchange';
import { invalidRequestsOf, shapeRequest } from '../../lib/requests';
import { statedAt } from '../../lib/stated';
import type { CreateRole } from '../derive';
import { fail, isSuccess, newName, own, type Real } from '../real';
import type { Tenant, WorldModel } from '../world';
import { createBody, createdOf, outcomeOf, sendCreate } from './shared';

/** A body of the create breaking a stated rule (a bound, a pattern), else one of the wrong type. */
function failingBody(role: CreateRole): unknown {
  const invalid = invalidRequestsOf(role.op).find(
    (candidate) => candidate.location === 'body' && statedAt(role.op, 'body', candidate.path) !== undefined,
  );
  return invalid ? shapeRequest(role.op, invalid.request, false, false).body : [];
}

export class FailedThenRetryCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly create: number,
    readonly tenant: Tenant,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 3;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const index = this.create % real.roles.creates.length;
    const role = real.roles.creates[index];
    if (!role || !real.facts[this.tenant]) return;
    const label = `f${model.records.length}`;
    const key = newName(real, `key-${label}-${this.tenant}`);
    const bad = failingBody(role);
    const failed = await sendCreate(model, real, role, this.tenant, bad, key);
    const status = failed.response?.status ?? 0;
    // Accepted or not refused as a bad request: the request-validation checks judge it; nothing to follow here.
    if (status < 400 || status >= 500 || status === 401 || status === 429) return;
    const body = createBody(real, role, label, 1);
    const retry = await sendCreate(model, real, role, this.tenant, body, key);
    if (!isSuccess(retry) && retry.response?.status !== 422)
      fail({
        ruleId: 'idempotency-replay',
        title: `After a failed ${role.op.operationId}, a valid request with the same Idempotency-Key was neither accepted nor refused with 422`,
        expected:
          'a new request (2xx: the failure created nothing) or 422 (the key names the failed request); never the failure again',
        received: describe(retry),
        exchange: retry,
        sequence: [failed],
      });
    const uuid = isSuccess(retry) ? createdOf(role, retry)?.uuid : undefined;
    if (typeof uuid === 'string') {
      own(real, this.tenant, uuid);
      model.records.push({
        uuid,
        tenant: this.tenant,
        create: index,
        body,
        key,
        ...outcomeOf(retry),
        exchange: retry,
      });
    }
    const again = await sendCreate(model, real, role, this.tenant, bad, key);
    if (isSuccess(again))
      fail({
        ruleId: 'idempotency-key-reuse-422',
        title: `A failed ${role.op.operationId} sent again with its Idempotency-Key was accepted`,
        expected: isSuccess(retry) ? '422: the key now names the valid request' : 'the failure again (4xx)',
        received: describe(again),
        exchange: again,
        sequence: [failed, retry],
      });
  }

  toString(): string {
    return `failedThenRetry(${this.create},${this.tenant})`;
  }
}
