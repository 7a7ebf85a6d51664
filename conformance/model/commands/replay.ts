/**
 * x-rules idempotency-replay — "A retry with the same key and the same request returns the original response and
 * creates no second record": a keyed record's request sent again (two or three times, after whatever came before)
 * answers the original status, body and Location, and what the contract lets a client read back (the record's own
 * rows, the records beneath a job: a batch's runs) has no more rows after the replays than before.
 */
import type fc from 'fast-check';
import { deepEqual, describe } from '../../lib/exchange';
import { fail, type Real } from '../real';
import { pick, type WorldModel } from '../world';
import { countBacks, createdOf, sendCreate } from './shared';

export class ReplayCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly index: number,
    readonly times: number,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 0 && model.records.some((r) => r.key !== undefined);
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const record = pick(
      model.records.filter((r) => r.key !== undefined),
      this.index,
    );
    if (!record) return;
    const role = real.roles.creates[record.create];
    // Counted once per record (each SQL query costs the server a scan), then carried from replay to replay.
    const before = record.counts ?? (await countBacks(model, real, record)).map((back) => back.count);
    for (let i = 0; i < this.times; i++) {
      const exchange = await sendCreate(model, real, role, record.tenant, record.body, record.key);
      const status = exchange.response?.status;
      const location = (text: string | undefined, base: string) =>
        text === undefined ? undefined : new URL(text, base).toString();
      const sameLocation =
        location(exchange.response?.headers.location, exchange.request.url) ===
        location(record.location, record.exchange.request.url);
      if (status === record.status && deepEqual(exchange.response?.body, record.response) && sameLocation) continue;
      const now = createdOf(role, exchange)?.uuid;
      fail({
        ruleId: 'idempotency-replay',
        title:
          now !== undefined && now !== record.uuid
            ? `Replay ${i + 1} of a ${role.op.operationId} created a second record`
            : `Replay ${i + 1} of a ${role.op.operationId} did not return the original response`,
        expected: `${record.status} with the original body${record.location ? ` and Location ${record.location}` : ''}`,
        received: describe(exchange),
        exchange,
        sequence: [record.exchange],
      });
    }
    const afters = await countBacks(model, real, record);
    record.counts = afters.map((back) => back.count);
    for (const [i, after] of afters.entries()) {
      const was = before[i];
      if (after.count === undefined || was === undefined) continue;
      const expected = after.expected ?? was;
      if (after.count > expected)
        fail({
          ruleId: 'idempotency-replay',
          title: `A replayed ${role.op.operationId} added ${after.what}`,
          expected: `${expected} rows of ${after.table} with ${after.column} = ${after.value} (as before the replay): a retry creates no second record`,
          received: `${after.count} rows`,
          exchange: after.exchange,
          sequence: [record.exchange],
        });
    }
  }

  toString(): string {
    return `replay(${this.index},x${this.times})`;
  }
}
