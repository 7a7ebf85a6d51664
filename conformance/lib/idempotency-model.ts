/**
 * Model-based idempotency (fast-check commands): a plain model of the keys the suite has used and the
 * response each one produced, commands that act on the server, and the postconditions the contract states.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { CheckContext } from '../checks/registry';
import { CheckFailure, CheckSkipped } from './failure';
import { deepEqual, describe, errorShapeProblems, envelope, isSuccess } from './exchange';
import type { Exchange } from './http-client';
import { NAME_PREFIX, requestBodySchema } from './operations';
import type { Operation } from '../../spec/lib';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';

export type KeyRecord = { key: string; body: Record<string, unknown>; status: number; response: unknown };
export type IdempotencyModel = { keys: KeyRecord[] };
export type IdempotencyReal = { ctx: CheckContext; op: Operation; nonce: string };

/**
 * The operation idempotency is exercised on: it creates a record whose uuid identifies it, from a body of a name
 * and a description (the checks' `needs`, so a filter that leaves it out skips them).
 */
export const IDEMPOTENCY_OPERATION = 'createMcpServer';

export function idempotencyOperation(ctx: CheckContext): Operation {
  const op = ctx.contract.operation(IDEMPOTENCY_OPERATION);
  if (!op) throw new CheckSkipped(`needs ${IDEMPOTENCY_OPERATION}, which the selected contract does not have`);
  return op;
}

/** A per-run nonce keeps keys fresh across runs while fast-check paths still replay the same shapes. */
export function newReal(ctx: CheckContext): IdempotencyReal {
  return { ctx, op: idempotencyOperation(ctx), nonce: randomBytes(6).toString('hex') };
}

export function keyFor(real: IdempotencyReal, suffix: string): string {
  return `${NAME_PREFIX}${real.nonce}-${suffix}`;
}

/** `text` cut to the `maxLength` the contract states for `field` of the operation's request body (whole without one). */
export function fitField(real: IdempotencyReal, field: string, text: string): string {
  const max = requestBodySchema(real.op)?.properties?.[field]?.maxLength;
  return typeof max === 'number' ? text.slice(0, max) : text;
}

export function bodyFor(real: IdempotencyReal, label: string, description: string): Record<string, unknown> {
  return { name: fitField(real, 'name', `${NAME_PREFIX}${real.nonce}-${label}`), description };
}

export async function post(
  real: IdempotencyReal,
  key: string,
  body: unknown,
  auth: 'a' | 'b' = 'a',
): Promise<Exchange> {
  return real.ctx.send({
    method: real.op.method,
    path: real.op.path,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    body,
    auth,
    operationId: real.op.operationId,
  });
}

export function createdUuid(exchange: Exchange): unknown {
  const body = exchange.response?.body;
  if (!body || typeof body !== 'object') return undefined;
  for (const value of Object.values(body as Record<string, unknown>)) {
    const inner = value && typeof value === 'object' ? (value as Record<string, unknown>).uuid : undefined;
    if (inner !== undefined) return inner;
  }
  return envelope(body, 'mcpServer')?.uuid;
}

export { isSuccess };

function fail(ruleId: string, title: string, expected: string, exchange: Exchange): never {
  throw new CheckFailure({ ruleId, title, expected, received: describe(exchange), exchange });
}

/** Sends a new request with a fresh key; it must succeed. */
export class CreateCommand implements fc.AsyncCommand<IdempotencyModel, IdempotencyReal> {
  constructor(
    readonly suffix: string,
    readonly description: string,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: IdempotencyModel, real: IdempotencyReal): Promise<void> {
    const key = keyFor(real, this.suffix);
    if (model.keys.some((k) => k.key === key)) return;
    const body = bodyFor(real, this.suffix, this.description);
    const exchange = await post(real, key, body);
    if (!isSuccess(exchange))
      fail(
        'idempotency-replay',
        'A fresh Idempotency-Key was not accepted',
        '2xx for a new request with a fresh key',
        exchange,
      );
    model.keys.push({ key, body, status: exchange.response.status, response: exchange.response.body });
  }
  toString(): string {
    return `create(${this.suffix})`;
  }
}

/** Replays a used key with the same request: identical status and body, so no second record. */
export class ReplayCommand implements fc.AsyncCommand<IdempotencyModel, IdempotencyReal> {
  constructor(readonly index: number) {}
  check(model: Readonly<IdempotencyModel>): boolean {
    return model.keys.length > 0;
  }
  async run(model: IdempotencyModel, real: IdempotencyReal): Promise<void> {
    const record = model.keys[this.index % model.keys.length];
    const exchange = await post(real, record.key, record.body);
    if (exchange.response?.status !== record.status || !deepEqual(exchange.response.body, record.response)) {
      const before = createdUuid({ response: { body: record.response } } as Exchange);
      const now = createdUuid(exchange);
      throw new CheckFailure({
        ruleId: 'idempotency-replay',
        title:
          before !== undefined && now !== undefined && before !== now
            ? 'A replay created a second record'
            : 'A replay did not return the original response',
        expected: `${record.status} ${JSON.stringify(record.response).slice(0, 300)}`,
        received: describe(exchange),
        exchange,
      });
    }
  }
  toString(): string {
    return `replay(${this.index})`;
  }
}

/** Reuses a key with a changed request: 422 in the error shape. */
export class ReuseChangedCommand implements fc.AsyncCommand<IdempotencyModel, IdempotencyReal> {
  constructor(
    readonly index: number,
    readonly change: string,
  ) {}
  check(model: Readonly<IdempotencyModel>): boolean {
    return model.keys.length > 0;
  }
  async run(model: IdempotencyModel, real: IdempotencyReal): Promise<void> {
    const record = model.keys[this.index % model.keys.length];
    const description = fitField(real, 'description', `${String(record.body.description)} ${this.change}`);
    const changed = { ...record.body, description };
    const exchange = await post(real, record.key, changed);
    if (exchange.response?.status !== 422)
      fail(
        'idempotency-key-reuse-422',
        'A reused key with a changed request was not refused with 422',
        '422 in the error shape',
        exchange,
      );
    const problems = errorShapeProblems(exchange);
    if (problems.length > 0)
      fail('error-shape', '422 not in the error shape', `{ errorMessage: string } (${problems.join('; ')})`, exchange);
  }
  toString(): string {
    return `reuseChanged(${this.index})`;
  }
}

/** Another workspace sends the same key with another request: its keys are its own, so it is a new request. */
export class OtherWorkspaceCommand implements fc.AsyncCommand<IdempotencyModel, IdempotencyReal> {
  constructor(readonly index: number) {}
  check(model: Readonly<IdempotencyModel>): boolean {
    return model.keys.length > 0;
  }
  async run(model: IdempotencyModel, real: IdempotencyReal): Promise<void> {
    const record = model.keys[this.index % model.keys.length];
    const description = fitField(real, 'description', `${String(record.body.description)} (workspace B)`);
    const body = { ...record.body, description };
    const exchange = await post(real, record.key, body, 'b');
    if (!isSuccess(exchange))
      fail(
        'workspace-scoping',
        "Workspace A's Idempotency-Key affected workspace B",
        '2xx: keys are scoped to the workspace',
        exchange,
      );
    const theirs = createdUuid(exchange);
    if (theirs !== undefined && theirs === createdUuid({ response: { body: record.response } } as Exchange))
      fail(
        'workspace-scoping',
        "Workspace B got workspace A's replayed record",
        'a new record for workspace B',
        exchange,
      );
  }
  toString(): string {
    return `otherWorkspace(${this.index})`;
  }
}

const suffix = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')),
  minLength: 4,
  maxLength: 12,
});
const description = fc.string({ minLength: 1, maxLength: 40 }).map((s) => s.replace(/[<>]/g, '') || 'd');

export const commandArbitraries = {
  create: suffix.chain((s) => description.map((d) => new CreateCommand(s, d))),
  replay: fc.nat(20).map((i) => new ReplayCommand(i)),
  reuseChanged: fc
    .tuple(fc.nat(20), fc.string({ minLength: 1, maxLength: 10 }))
    .map(([i, c]) => new ReuseChangedCommand(i, `changed ${c}`)),
  otherWorkspace: fc.nat(20).map((i) => new OtherWorkspaceCommand(i)),
};

export type CommandName = keyof typeof commandArbitraries;

type Setup = { model: IdempotencyModel; real: IdempotencyReal };

/** The check's own command, made the same way every time (on the first record). */
const ON_FIRST_RECORD = {
  replay: () => new ReplayCommand(0),
  reuseChanged: () => new ReuseChangedCommand(0, 'changed on every run'),
};

/**
 * Runs the model with the named commands as one property of the check. Every execution ends with `always` on
 * the first record: whatever commands were drawn (a short run may draw none of the rule's own), each run
 * exercises the rule the check is about, so a server that breaks it fails every run, not most of them.
 */
export async function runIdempotencyModel(
  ctx: CheckContext,
  name: string,
  commands: CommandName[],
  always: keyof typeof ON_FIRST_RECORD,
): Promise<void> {
  const arbitraries = commands.map((c) => commandArbitraries[c]) as Array<
    fc.Arbitrary<fc.AsyncCommand<IdempotencyModel, IdempotencyReal>>
  >;
  await ctx.property(
    name,
    fc.commands(arbitraries, { maxCommands: 6, replayPath: ctx.commandsReplayPath(name) }),
    async (cmds) => {
      let setup: Setup | undefined;
      // A fresh nonce per execution: shrinking re-runs commands, and reused keys must not leak between runs.
      await fc.asyncModelRun(async () => {
        const real = newReal(ctx);
        const model: IdempotencyModel = { keys: [] };
        // Every execution starts from one created record, so replay and reuse commands always have a key to act on.
        await new CreateCommand('first', 'first record').run(model, real);
        return (setup = { model, real });
      }, cmds);
      if (setup) await ON_FIRST_RECORD[always]().run(setup.model, setup.real);
    },
    { numRuns: Math.max(3, Math.min(ctx.config.runs, 8)) },
  );
}
