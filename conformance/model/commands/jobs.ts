/**
 * Jobs after their status moved on (x-rules async-poll-terminal, workspace-scoping): a poll of a job by its owner
 * shows it (its uuid), and once a poll showed a terminal status every later poll and cancel shows that status (a
 * terminal status is final); the other workspace's poll or cancel of it is refused, in whatever status the job is.
 */
import type fc from 'fast-check';
import { describe, envelope } from '../../lib/exchange';
import { TERMINAL_STATUSES } from '../../lib/operations';
import type { Operation } from '../../../spec/lib';
import type { CreateRole } from '../derive';
import { fail, isSuccess, send, type Real } from '../real';
import { other, pick, type RecordModel, type Tenant, type WorldModel } from '../world';

/** A record of a job with the operations that reach it. */
type Job = { record: RecordModel; role: CreateRole; reader: Operation; cancel?: Operation };

/** The records of jobs (with a reader; `cancellable`: and a cancel), in the model's order. */
function jobs(model: Readonly<WorldModel>, real: Real, cancellable: boolean): Job[] {
  return model.records.flatMap((record) => {
    const role = real.roles.creates[record.create];
    const { reader, cancel } = role;
    return reader && (!cancellable || cancel) ? [{ record, role, reader, cancel }] : [];
  });
}

function judgeStatus(record: RecordModel, real: Real, exchange: Awaited<ReturnType<typeof send>>, what: string): void {
  const role = real.roles.creates[record.create];
  const job = envelope(exchange.response?.body, role.envelope);
  if (!job) return;
  if (job.uuid !== undefined && job.uuid !== record.uuid)
    fail({
      ruleId: 'async-poll-terminal',
      title: `${what} of a ${role.envelope} answered another ${role.envelope}`,
      expected: `the ${role.envelope} ${record.uuid}`,
      received: describe(exchange),
      exchange,
      sequence: [record.exchange],
    });
  const status = typeof job.status === 'string' ? job.status : undefined;
  if (record.terminal !== undefined && status !== undefined && status !== record.terminal)
    fail({
      ruleId: 'async-poll-terminal',
      title: `A ${role.envelope} left its terminal status ${record.terminal} (${what})`,
      expected: `status ${record.terminal}: a terminal status is final`,
      received: `status ${status}: ${describe(exchange)}`,
      exchange,
      sequence: [record.exchange],
    });
  if (status !== undefined && (TERMINAL_STATUSES as readonly string[]).includes(status)) record.terminal ??= status;
}

function refusedToOther(
  record: RecordModel,
  real: Real,
  exchange: Awaited<ReturnType<typeof send>>,
  what: string,
): void {
  if (!isSuccess(exchange)) return;
  const role = real.roles.creates[record.create];
  fail({
    ruleId: 'workspace-scoping',
    title: `Workspace ${other(record.tenant).toUpperCase()} can ${what} workspace ${record.tenant.toUpperCase()}'s ${role.envelope}${record.terminal ? ` once it is ${record.terminal}` : ''}`,
    expected: `a refusal (404): the ${role.envelope} belongs to workspace ${record.tenant.toUpperCase()}`,
    received: describe(exchange),
    exchange,
    sequence: [record.exchange],
  });
}

export class PollCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly index: number,
    readonly alsoOther: boolean,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 1 && model.records.length > 0;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const job = pick(jobs(model, real, false), this.index);
    if (!job) return;
    const { record, role, reader } = job;
    // The Location is a URI reference, resolved against the create's URL (RFC 3986), as the client polls it.
    const path = record.location
      ? new URL(record.location, record.exchange.request.url).toString()
      : reader.path.replace(/\{[^}]+\}/, record.uuid);
    const exchange = await send(model, real, {
      method: 'GET',
      path,
      auth: record.tenant,
      operationId: reader.operationId,
    });
    if (exchange.response?.status !== 200)
      fail({
        ruleId: 'async-poll-terminal',
        title: `A poll of its own ${role.envelope} did not answer it`,
        expected: `200 with the ${role.envelope} (the client polls the Location until a terminal status)`,
        received: describe(exchange),
        exchange,
        sequence: [record.exchange],
      });
    judgeStatus(record, real, exchange, 'a poll');
    const stranger = other(record.tenant);
    if (!this.alsoOther || !real.facts[stranger]) return;
    const theirs = await send(model, real, {
      method: 'GET',
      path: reader.path.replace(/\{[^}]+\}/, record.uuid),
      auth: stranger,
      operationId: reader.operationId,
    });
    refusedToOther(record, real, theirs, 'read');
  }

  toString(): string {
    return `poll(${this.index}${this.alsoOther ? ',alsoOther' : ''})`;
  }
}

export class CancelCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly index: number,
    readonly owner: boolean,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 1 && model.records.length > 0;
  }

  /** The other workspace tries first (in whatever status the job is now), then, if drawn, the owner cancels it. */
  async run(model: WorldModel, real: Real): Promise<void> {
    const job = pick(jobs(model, real, true), this.index);
    if (!job?.cancel) return;
    const { record, cancel: op } = job;
    const path = op.path.replace(/\{[^}]+\}/, record.uuid);
    const cancel = (tenant: Tenant) =>
      send(model, real, { method: op.method, path, auth: tenant, operationId: op.operationId });
    const stranger = other(record.tenant);
    if (real.facts[stranger]) refusedToOther(record, real, await cancel(stranger), 'cancel');
    if (!this.owner) return;
    const exchange = await cancel(record.tenant);
    if (isSuccess(exchange)) judgeStatus(record, real, exchange, 'a cancel');
  }

  toString(): string {
    return `cancel(${this.index}${this.owner ? ',owner' : ''})`;
  }
}
