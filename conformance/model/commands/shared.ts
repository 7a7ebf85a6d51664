/** What several commands share: the body of a create, sending it, and reading back what a write said it made. */
import { envelope, responseOf } from '../../lib/exchange';
import type { Exchange } from '../../lib/http-client';
import { requestBodySchema } from '../../lib/operations';
import { childTableOf, countRows, queryTables, tableColumns } from '../../lib/query';
import type { CreateRole } from '../derive';
import { newName, send, type Real } from '../real';
import type { RecordModel, Tenant, WorldModel } from '../world';
import { IDEMPOTENCY_KEY_HEADER } from '../../../spec/lib';

/** A string field of the create's body the suite fills with a name of its own (unique per record), if any. */
export function labelField(role: CreateRole): string | undefined {
  const properties: Record<string, { type?: unknown; maxLength?: number }> =
    requestBodySchema(role.op)?.properties ?? {};
  return ['name', 'recordTitle', 'title', 'recordId'].find((name) => properties[name]?.type === 'string');
}

/**
 * A valid body for a create: a label of the suite's own, `children` records beneath a job that takes them, and
 * (with `foreign`) every reference field set to a record of the other workspace.
 */
export function createBody(
  real: Real,
  role: CreateRole,
  label: string,
  children: number,
  foreign?: Tenant,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const field = labelField(role);
  if (field) body[field] = newName(real, label);
  if (role.children) body[role.children] = Array.from({ length: children }, (_, i) => newName(real, `${label}-${i}`));
  if (foreign)
    for (const reference of role.references) {
      const ids = real.facts[foreign]?.idsByField.get(reference);
      if (ids && ids.length > 0) body[reference] = ids[0];
    }
  return body;
}

/** What a record keeps of the answer that created it: what its key must replay. */
export function outcomeOf(exchange: Exchange): Pick<RecordModel, 'status' | 'response' | 'location'> {
  const response = responseOf(exchange);
  return { status: response.status, response: response.body, location: response.headers.location };
}

export function createdOf(role: CreateRole, exchange: Exchange): Record<string, unknown> | undefined {
  return envelope(exchange.response?.body, role.envelope);
}

export async function sendCreate(
  model: WorldModel,
  real: Real,
  role: CreateRole,
  tenant: Tenant,
  body: unknown,
  key?: string,
): Promise<Exchange> {
  return send(model, real, {
    method: role.op.method,
    path: role.op.path,
    body,
    auth: tenant,
    headers: key === undefined ? undefined : { [IDEMPOTENCY_KEY_HEADER]: key },
    operationId: role.op.operationId,
  });
}

/** Where a record's effects can be read back: its own rows (by its label) and the rows beneath it (by its uuid). */
export type ReadBack = { table: string; column: string; value: string; expected?: number; what: string };

export function readBacks(real: Real, record: RecordModel): ReadBack[] {
  if (!real.roles.query) return [];
  const role = real.roles.creates[record.create];
  const out: ReadBack[] = [];
  const tables = queryTables(real.ctx.contract);
  const own = `${role.envelope}s`;
  const field = labelField(role);
  if (field && tables.includes(own) && tableColumns(real.ctx.contract, own).includes(field))
    out.push({
      table: own,
      column: field,
      value: String(record.body[field]),
      expected: 1,
      what: `${role.envelope} records`,
    });
  const child = role.children ? childTableOf(real.ctx.contract, role.envelope) : undefined;
  if (child)
    out.push({
      table: child.table,
      column: child.column,
      value: record.uuid,
      what: `${child.table} beneath the ${role.envelope}`,
    });
  return out;
}

/** Counts each read-back of a record; undefined where the server refused the query (its columns are not shown). */
export async function countBacks(
  model: WorldModel,
  real: Real,
  record: RecordModel,
): Promise<Array<ReadBack & { count?: number; exchange: Exchange }>> {
  const out: Array<ReadBack & { count?: number; exchange: Exchange }> = [];
  for (const back of readBacks(real, record)) {
    model.allowance--;
    const { count, exchange } = await countRows(real.ctx, back.table, back.column, back.value, record.tenant);
    out.push({ ...back, count, exchange });
  }
  return out;
}
