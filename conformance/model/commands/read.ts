/**
 * x-rules workspace-scoping — every GET by id the contract declares, sent with an id of a record the caller owns or
 * of one the other workspace owns (ids learned from each workspace's own answers and the model's records). What
 * the answer may not show is judged at the door (no other workspace's data); an id of the other workspace's own
 * records is refused.
 */
import type fc from 'fast-check';
import { describe } from '../../lib/exchange';
import { fieldOfKind } from '../derive';
import { fail, isSuccess, send, type Real } from '../real';
import { other, pick, type Tenant, type WorldModel } from '../world';

export class ReadCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly read: number,
    readonly tenant: Tenant,
    readonly fromOther: boolean,
    readonly index: number,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 0;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const role = pick(real.roles.reads, this.read);
    const owner: Tenant = this.fromOther ? other(this.tenant) : this.tenant;
    const mine = real.facts[this.tenant];
    const theirs = real.facts[owner];
    if (!role || !mine || !theirs) return;
    const created = model.records
      .filter((r) => r.tenant === owner && real.roles.creates[r.create].reader?.operationId === role.op.operationId)
      .map((r) => r.uuid);
    const field = fieldOfKind(role.kind);
    const mineToo = new Set(mine.idsByField.get(field) ?? []);
    const learned = (theirs.idsByField.get(field) ?? []).filter((id) => !this.fromOther || !mineToo.has(id));
    const ids = [...created, ...learned];
    const id = pick(ids, this.index);
    if (!id) return;
    const exchange = await send(model, real, {
      method: 'GET',
      path: role.op.path.replace(/\{[^}]+\}/, id),
      auth: this.tenant,
      operationId: role.op.operationId,
    });
    // Records the model saw the other workspace create are certainly its own: reading one is a leak.
    if (this.fromOther && created.includes(id) && isSuccess(exchange))
      fail({
        ruleId: 'workspace-scoping',
        title: `Workspace ${this.tenant.toUpperCase()} can read a record workspace ${owner.toUpperCase()} created (${role.op.operationId})`,
        expected: `a refusal (404): the record belongs to workspace ${owner.toUpperCase()}`,
        received: describe(exchange),
        exchange,
      });
  }

  toString(): string {
    return `read(${this.read},${this.tenant}${this.fromOther ? ',other' : ''},${this.index})`;
  }
}
