/**
 * x-rules idempotency-key-reuse-422 — "Reusing a key with a different request returns 422": a keyed record's key
 * sent with a changed request answers 422 in the error shape and creates nothing (its label never shows in a read);
 * the key keeps its first outcome, which later replays check.
 */
import type fc from 'fast-check';
import { describe, errorShapeProblems } from '../../lib/exchange';
import { countRows } from '../../lib/query';
import { fail, newName, type Real } from '../real';
import { pick, type WorldModel } from '../world';
import { labelField, readBacks, sendCreate } from './shared';

export class ReuseCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(readonly index: number) {}

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
    const field = labelField(role);
    const changed = { ...record.body };
    if (field) changed[field] = newName(real, `reused-${this.index}`);
    else if (role.children) changed[role.children] = [newName(real, `reused-${this.index}`)];
    else return;
    const exchange = await sendCreate(model, real, role, record.tenant, changed, record.key);
    if (exchange.response?.status !== 422 || errorShapeProblems(exchange).length > 0)
      fail({
        ruleId: 'idempotency-key-reuse-422',
        title: `A ${role.op.operationId} key reused with a changed request was not refused with 422`,
        expected: '422 in the error shape',
        received: describe(exchange),
        exchange,
        sequence: [record.exchange],
      });
    if (!field) return;
    const own = readBacks(real, record).find((back) => back.column === field);
    if (!own) return;
    model.allowance--;
    const { count, exchange: read } = await countRows(
      real.ctx,
      own.table,
      own.column,
      String(changed[field]),
      record.tenant,
    );
    if (count !== undefined && count > 0)
      fail({
        ruleId: 'idempotency-key-reuse-422',
        title: `A ${role.op.operationId} key reused with a changed request created a record`,
        expected: `no ${own.table} row with ${own.column} = ${String(changed[field])}`,
        received: `${count} rows`,
        exchange: read,
        sequence: [record.exchange, exchange],
      });
  }

  toString(): string {
    return `reuse(${this.index})`;
  }
}
