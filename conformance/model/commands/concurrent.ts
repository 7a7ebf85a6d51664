/**
 * x-rules idempotency-concurrent-409, idempotency-replay — copies of one keyed create sent at once: each answer is
 * the first request's outcome (the same record) or 409 in the error shape (a retry while the first still runs), at
 * least one creates the record, and exactly one record exists afterwards. The key's outcome is what later replays
 * must return, so a server that loses the key on a conflict is caught by the next replay.
 */
import type fc from 'fast-check';
import { deepEqual, describe, errorShapeProblems } from '../../lib/exchange';
import { fail, isSuccess, newName, own, type Real } from '../real';
import type { Tenant, WorldModel } from '../world';
import { countBacks, createBody, createdOf, outcomeOf, sendCreate } from './shared';

export class ConcurrentRetryCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly create: number,
    readonly tenant: Tenant,
    readonly copies: number,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > this.copies;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const index = this.create % real.roles.creates.length;
    const role = real.roles.creates[index];
    if (!role || !real.facts[this.tenant]) return;
    const label = `cc${model.records.length}`;
    const body = createBody(real, role, label, 1);
    const key = newName(real, `key-${label}-${this.tenant}`);
    real.concurrent = true;
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: this.copies }, () => sendCreate(model, real, role, this.tenant, body, key)),
      );
    } finally {
      real.concurrent = false;
    }
    const created = answers.filter(isSuccess);
    const first = created[0];
    for (const exchange of answers) {
      if (isSuccess(exchange) && deepEqual(exchange.response.body, first.response.body)) continue;
      if (exchange.response?.status === 409 && errorShapeProblems(exchange).length === 0) continue;
      fail({
        ruleId: isSuccess(exchange) ? 'idempotency-replay' : 'idempotency-concurrent-409',
        title: isSuccess(exchange)
          ? `Concurrent retries of a ${role.op.operationId} created two records`
          : `A concurrent retry of a ${role.op.operationId} got neither the original response nor 409`,
        expected: "the first request's response (the same record) or 409 in the error shape",
        received: describe(exchange),
        exchange,
        sequence: answers.filter((a) => a !== exchange),
      });
    }
    if (!first) {
      // Every copy answered 409: then nothing was running, and the retry after them must go through.
      const again = await sendCreate(model, real, role, this.tenant, body, key);
      if (!isSuccess(again))
        fail({
          ruleId: 'idempotency-concurrent-409',
          title: `Every concurrent copy of a ${role.op.operationId} got 409 and a later retry did not go through`,
          expected: 'one request of those sent to create the record (409 answers a retry while the first still runs)',
          received: describe(again),
          exchange: again,
          sequence: answers,
        });
      answers.push(again);
    }
    const winner = first ?? answers[answers.length - 1];
    const uuid = createdOf(role, winner)?.uuid;
    if (typeof uuid !== 'string') return;
    own(real, this.tenant, uuid);
    const record = {
      uuid,
      tenant: this.tenant,
      create: index,
      body,
      key,
      ...outcomeOf(winner),
      exchange: winner,
    };
    model.records.push(record);
    for (const back of await countBacks(model, real, record))
      if (back.expected !== undefined && back.count !== undefined && back.count > back.expected)
        fail({
          ruleId: 'idempotency-replay',
          title: `Concurrent retries of a ${role.op.operationId} created ${back.count} ${back.what}`,
          expected: `${back.expected} row of ${back.table} with ${back.column} = ${back.value}`,
          received: `${back.count} rows`,
          exchange: back.exchange,
          sequence: answers,
        });
  }

  toString(): string {
    return `concurrentRetry(${this.create},${this.tenant},x${this.copies})`;
  }
}
