/**
 * The real side of the model: the check's context, what was learned once about the two tenants (their workspace
 * uuids, the ids of records each owns), and the one door every command sends through, which applies the rules that
 * hold after every request: one workspace's answers never name the other's data (workspace-scoping), and a request
 * sent after every earlier one was answered is never told that an earlier one is still running (409).
 */
import { randomBytes } from 'node:crypto';
import type { CheckContext } from '../checks/registry';
import { describe, envelope, isSuccess } from '../lib/exchange';
import { CheckFailure, type FailureInput } from '../lib/failure';
import type { Exchange, SendOptions } from '../lib/http-client';
import { NAME_PREFIX } from '../lib/operations';
import { runQuery } from '../lib/query';
import { deriveRoles, type Roles } from './derive';
import { other, type Tenant, type WorldModel } from './world';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** What the model knows of a tenant before any command: its workspace and the records it owns. */
export type TenantFacts = {
  workspaceUuid?: string;
  /** Uuids only this tenant's answers may name. */
  needles: Set<string>;
  /** Ids of records it owns, by the field that names them (`workflowUuid`, `runUuid`, …), read from its answers. */
  idsByField: Map<string, string[]>;
};

export type Facts = { a: TenantFacts; b?: TenantFacts; notes: string[] };

export type Real = {
  ctx: CheckContext;
  roles: Roles;
  facts: Facts;
  nonce: string;
  /** Requests of this execution in flight at once (a concurrent retry); 409 is a reading only then. */
  concurrent: boolean;
  /** Stated rules the commands could not judge on this target, and how to judge them (shared by the run). */
  unjudged: Set<string>;
};

export function newName(real: Real, label: string): string {
  return `${NAME_PREFIX}${real.nonce}-${label}`.slice(0, 60);
}

export function newReal(ctx: CheckContext, facts: Facts, unjudged: Set<string>): Real {
  return {
    ctx,
    roles: deriveRoles(ctx.contract),
    facts,
    nonce: randomBytes(5).toString('hex'),
    concurrent: false,
    unjudged,
  };
}

export function fail(input: FailureInput): never {
  throw new CheckFailure(input);
}

export { isSuccess };

function collect(facts: TenantFacts, value: unknown, field = ''): void {
  if (Array.isArray(value)) for (const item of value) collect(facts, item, field);
  else if (value && typeof value === 'object')
    for (const [name, inner] of Object.entries(value as Record<string, unknown>)) collect(facts, inner, name);
  else if (typeof value === 'string' && /Uuid$|^uuid$/.test(field) && value.match(UUID)?.[0] === value) {
    const name = field === 'uuid' ? 'uuid' : field;
    const ids = facts.idsByField.get(name) ?? [];
    if (!ids.includes(value) && ids.length < 50) ids.push(value);
    facts.idsByField.set(name, ids);
  }
}

/**
 * Learns, once per run, each tenant's workspace uuid (from a record it creates) and the uuids of records only it
 * owns (its list items, its SQL rows): the needles the other tenant's answers must never show.
 */
export async function learnFacts(ctx: CheckContext): Promise<Facts> {
  const roles = deriveRoles(ctx.contract);
  const notes: string[] = [];
  const learn = async (tenant: Tenant): Promise<TenantFacts> => {
    const facts: TenantFacts = { needles: new Set(), idsByField: new Map() };
    const create = roles.creates.find((c) => !c.job);
    if (create) {
      const answer = await ctx.send({
        method: create.op.method,
        path: create.op.path,
        body: { name: `${NAME_PREFIX}model-${randomBytes(4).toString('hex')}` },
        auth: tenant,
        operationId: create.op.operationId,
      });
      const workspace = envelope(answer.response?.body, create.envelope)?.workspaceUuid;
      if (typeof workspace === 'string') facts.workspaceUuid = workspace;
    }
    for (const list of roles.lists) {
      const answer = await ctx.send({
        method: 'GET',
        path: list.op.path,
        auth: tenant,
        operationId: list.op.operationId,
      });
      const items = (answer.response?.body as Record<string, unknown> | undefined)?.[list.items];
      // Public items (shared recipes) are everyone's; only a workspace's own are its needles.
      if (Array.isArray(items))
        collect(
          facts,
          items.filter(
            (item) => item && typeof item === 'object' && (item as { isPublic?: unknown }).isPublic !== true,
          ),
        );
    }
    if (roles.query)
      for (const table of ['runs', 'batches']) {
        const { rows } = await runQuery(ctx, `SELECT * FROM ${table} LIMIT 50`, tenant);
        if (rows) collect(facts, rows);
      }
    return facts;
  };
  const a = await learn('a');
  const b = ctx.config.tokenB ? await learn('b') : undefined;
  if (b) {
    // Needles: the uuids of records one tenant owns that the other never showed (a shared value is nobody's secret);
    // references (a workflowUuid) may name what both share, so only the records' own uuids count.
    const ids = (facts: TenantFacts) => new Set(facts.idsByField.get('uuid') ?? []);
    const [idsA, idsB] = [ids(a), ids(b)];
    for (const [mine, theirs, facts] of [
      [idsA, idsB, a],
      [idsB, idsA, b],
    ] as const)
      for (const id of mine) if (!theirs.has(id)) facts.needles.add(id);
    if (a.workspaceUuid && b.workspaceUuid && a.workspaceUuid !== b.workspaceUuid) {
      a.needles.add(a.workspaceUuid);
      b.needles.add(b.workspaceUuid);
    }
    for (const facts of [a, b]) facts.needles.delete('00000000-0000-0000-0000-000000000000');
  } else notes.push('without --token-b, nothing was tried across workspaces');
  return { a, b, notes };
}

/** Strings of the request itself (path, query, body): an answer may echo what it was sent. */
function sentUuids(options: SendOptions): Set<string> {
  const text = `${options.path} ${JSON.stringify(options.query ?? [])} ${JSON.stringify(options.body ?? null)}`;
  return new Set((text.match(UUID) ?? []).map((u) => u.toLowerCase()));
}

/** An answer to `tenant` naming a record of the other tenant it was not sent: the uuid it names. */
export function leakIn(real: Real, tenant: Tenant, text: string, sent: Set<string>): string | undefined {
  const theirs = real.facts[other(tenant)];
  if (!theirs) return undefined;
  for (const found of text.match(UUID) ?? []) {
    const uuid = found.toLowerCase();
    if (!sent.has(uuid) && [...theirs.needles].some((n) => n.toLowerCase() === uuid)) return found;
  }
  return undefined;
}

/**
 * Sends one request of a command, spending the model's allowance, and applies the rules that hold after every
 * request of a tenant: no other workspace's data, and no 409 for a request no other one overlaps.
 */
export async function send(
  model: WorldModel,
  real: Real,
  options: SendOptions,
  sequence: Exchange[] = [],
): Promise<Exchange> {
  model.allowance--;
  const exchange = await real.ctx.send(options);
  const tenant = options.auth === 'a' || options.auth === undefined ? 'a' : options.auth === 'b' ? 'b' : undefined;
  if (!exchange.response || !tenant) return exchange;
  const leaked = leakIn(real, tenant, exchange.response.text, sentUuids(options));
  if (leaked)
    fail({
      // The SQL endpoint states its own scoping rule.
      ruleId: options.operationId === real.roles.query?.operationId ? 'query-read-only-scoped' : 'workspace-scoping',
      title: `${exchange.request.method} ${exchange.request.path.split('?')[0]} shows workspace ${other(tenant).toUpperCase()}'s data to workspace ${tenant.toUpperCase()}`,
      expected: `only workspace ${tenant.toUpperCase()}'s data: All data is scoped to the workspace of the caller`,
      received: `the answer names ${leaked}, a record of workspace ${other(tenant).toUpperCase()}: ${describe(exchange)}`,
      exchange,
      sequence,
    });
  if (exchange.response.status === 409 && !real.concurrent && options.headers?.[IDEMPOTENCY_KEY_HEADER] !== undefined)
    fail({
      ruleId: 'idempotency-concurrent-409',
      title: 'A request with an Idempotency-Key got 409 though no other request was running',
      expected:
        'no 409: it answers "a concurrent retry while the first request is still running", and every earlier request had been answered',
      received: describe(exchange),
      exchange,
      sequence,
    });
  return exchange;
}

/** Adds a created record's uuid to its tenant's needles: from now on the other tenant must never see it. */
export function own(real: Real, tenant: Tenant, uuid: string): void {
  if (real.facts.b) real.facts[tenant]?.needles.add(uuid);
}
