/**
 * A create of any create operation (x-rules idempotency-replay, workspace-scoping): with or without a fresh
 * Idempotency-Key, by either tenant, with records beneath it when the operation takes them, and optionally with
 * every reference field naming a record of the other workspace. A record created with one workspace's credential
 * belongs to that workspace, whatever its body references.
 */
import type fc from 'fast-check';
import { describe } from '../../lib/exchange';
import { fail, isSuccess, newName, own, type Real } from '../real';
import { other, type Tenant, type WorldModel } from '../world';
import { createBody, createdOf, outcomeOf, sendCreate } from './shared';

export class CreateCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly create: number,
    readonly tenant: Tenant,
    readonly keyed: boolean,
    readonly children: number,
    readonly foreign: boolean,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 0;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const role = real.roles.creates[this.create % real.roles.creates.length];
    if (!role || !real.facts[this.tenant]) return;
    const label = `c${model.records.length}`;
    const foreign = this.foreign && real.facts[other(this.tenant)] ? other(this.tenant) : undefined;
    const body = createBody(real, role, label, this.children, foreign);
    const key = this.keyed ? newName(real, `key-${label}-${this.tenant}`) : undefined;
    const exchange = await sendCreate(model, real, role, this.tenant, body, key);
    // A reference to another workspace's record may be refused (it names nothing of the caller's); anything else
    // a valid request gets is judged by the request-validation checks.
    if (!isSuccess(exchange)) return;
    const created = createdOf(role, exchange);
    const uuid = created?.uuid;
    if (typeof uuid !== 'string') return;
    const mine = real.facts[this.tenant]?.workspaceUuid;
    const theirs = real.facts[other(this.tenant)]?.workspaceUuid;
    if (typeof created?.workspaceUuid === 'string' && mine && created.workspaceUuid !== mine)
      fail({
        ruleId: 'workspace-scoping',
        title: `A ${role.envelope} created with workspace ${this.tenant.toUpperCase()}'s credential${foreign ? " referencing the other workspace's records" : ''} belongs to another workspace`,
        expected: `workspaceUuid ${mine} (the caller's): All data is scoped to the workspace of the caller`,
        received: `workspaceUuid ${String(created.workspaceUuid)}${created.workspaceUuid === theirs ? ` (workspace ${other(this.tenant).toUpperCase()}'s)` : ''}: ${describe(exchange)}`,
        exchange,
      });
    own(real, this.tenant, uuid);
    model.records.push({
      uuid,
      tenant: this.tenant,
      create: this.create % real.roles.creates.length,
      body,
      key,
      ...outcomeOf(exchange),
      exchange,
    });
  }

  toString(): string {
    return `create(${this.create},${this.tenant}${this.keyed ? ',keyed' : ''}${this.children ? `,children=${this.children}` : ''}${this.foreign ? ',foreign' : ''})`;
  }
}
