/**
 * Every write the contract declares (POST, PUT, PATCH) as a request the suite may send twice with one
 * Idempotency-Key, and a second, different request of the same operation: the idempotency rules hold on each write,
 * not only on the one the model-based checks exercise. Writes to existing state (the workspace) wait for
 * --allow-writes; a cancel targets a run the suite created itself.
 */
import type { CheckContext } from '../checks/registry';
import { envelope } from './exchange';
import type { Exchange } from './http-client';
import { IDEMPOTENCY_OPERATION } from './idempotency-model';
import {
  acceptsIdempotencyKey,
  changesExistingState,
  conformanceName,
  hasPathParameters,
  minimalBody,
  requestBodySchema,
} from './operations';
import type { Operation } from '../../spec/lib';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';

export type WriteTarget = { op: Operation; path: string; body: unknown; other: { path: string; body: unknown } };

/** The same valid body with one field changed (a string field named anew, or the query selecting another value). */
function otherBody(op: Operation, body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const record = { ...(body as Record<string, unknown>) };
  if (typeof record.query === 'string') return { ...record, query: 'SELECT 2' };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body schema's properties, JSON Schema walked by key
  const properties: Record<string, any> = requestBodySchema(op)?.properties ?? {};
  const text = Object.keys(properties).find((name) => properties[name]?.type === 'string' && !/uuid/i.test(name));
  if (text) return { ...record, [text]: conformanceName() };
  return { ...record, recordIds: [conformanceName()] };
}

async function ownRunUuid(ctx: CheckContext): Promise<string | undefined> {
  const created = await ctx.send({
    method: 'POST',
    path: ctx.config.createRunPath,
    body: { ...(ctx.config.createRunBody as object), recordTitle: conformanceName() },
  });
  const uuid = envelope(created.response?.body, 'run')?.uuid;
  return typeof uuid === 'string' ? uuid : undefined;
}

/** The writes to judge beyond the idempotency model's own operation; `skipped` says which cannot be and why. */
export async function writeTargets(ctx: CheckContext): Promise<{ targets: WriteTarget[]; skipped: string[] }> {
  const targets: WriteTarget[] = [];
  const skipped: string[] = [];
  for (const op of ctx.contract.operations.filter(acceptsIdempotencyKey)) {
    if (op.operationId === IDEMPOTENCY_OPERATION) continue;
    if (hasPathParameters(op)) {
      // A cancel (or another write by id) of runs the suite created itself: two runs, so a reused key has another target.
      const [first, second] = [await ownRunUuid(ctx), await ownRunUuid(ctx)];
      if (!first || !second || !op.path.includes('/runs/')) {
        skipped.push(`${op.operationId} (no resource of the suite's own to send it to)`);
        continue;
      }
      const at = (uuid: string) => op.path.replace(/\{[^}]+\}/, uuid);
      targets.push({ op, path: at(first), body: undefined, other: { path: at(second), body: undefined } });
      continue;
    }
    if (changesExistingState(op) && !ctx.config.allowWrites) {
      skipped.push(`${op.operationId} (needs writes: --allow-writes)`);
      continue;
    }
    const body = minimalBody(op) ?? {};
    targets.push({ op, path: op.path, body, other: { path: op.path, body: otherBody(op, body) } });
  }
  return { targets, skipped };
}

export function sendWithKey(
  ctx: CheckContext,
  target: WriteTarget,
  key: string,
  request: { path: string; body: unknown } = target,
): Promise<Exchange> {
  return ctx.send({
    method: target.op.method,
    path: request.path,
    body: request.body,
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
    operationId: target.op.operationId,
  });
}
