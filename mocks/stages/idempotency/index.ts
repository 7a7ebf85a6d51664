import { createHash } from 'node:crypto';
import { ApiError } from '../../errors';
import type { Stage } from '../../context';
import type { MockRequest } from '../../types';
import type { IdempotencyStore } from './store';

export const MAX_KEY_LENGTH = 255;
const METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as object)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Method + path + sorted query + canonical body: what "the same request" means for a key. */
export function fingerprintRequest(req: MockRequest): string {
  const query = [...req.query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const body = req.body !== undefined ? canonicalJson(req.body) : req.rawBody.toString('base64');
  return createHash('sha256')
    .update(`${req.method} ${req.path}\n${JSON.stringify(query)}\n${body}`)
    .digest('base64');
}

/**
 * x-rules idempotency-replay, idempotency-key-reuse-422, idempotency-concurrent-409, idempotency-key-expiry,
 * idempotency-key-length, idempotency-no-multipart.
 */
export function idempotency(deps: { store: IdempotencyStore }): Stage {
  return async (ctx, next) => {
    const { req } = ctx;
    const key = req.headers['idempotency-key'];
    if (key === undefined || !METHODS.has(req.method)) return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ApiError(
        400,
        'invalid_idempotency_key',
        `Idempotency-Key: must be 1 to ${MAX_KEY_LENGTH} characters, got ${key.length}.`,
      );
    }
    if ((req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')) {
      throw new ApiError(400, 'idempotency_key_not_allowed', 'Idempotency-Key: is not accepted on multipart requests.');
    }
    const workspaceUuid = ctx.caller!.workspaceUuid;
    const fingerprint = fingerprintRequest(req);
    const found = await deps.store.claim(workspaceUuid, key, fingerprint);
    if (found.kind !== 'new' && !found.sameRequest) {
      throw new ApiError(422, 'idempotency_key_reused', 'Idempotency-Key: was already used with a different request.');
    }
    if (found.kind === 'in-flight') {
      throw new ApiError(
        409,
        'idempotency_key_in_use',
        'Idempotency-Key: a request with this key is still running; retry later.',
      );
    }
    if (found.kind === 'done') return found.response;
    const claim = found.claim!;
    let response;
    try {
      response = await next();
    } catch (error) {
      await deps.store.abandon(workspaceUuid, key, claim).catch(() => undefined);
      throw error;
    }
    // All or nothing: a failed request, or an answer that cannot be kept, leaves the key free for a retry.
    try {
      if (response.status < 400) await deps.store.complete(workspaceUuid, key, claim, response);
      else await deps.store.abandon(workspaceUuid, key, claim);
    } catch (error) {
      await deps.store.abandon(workspaceUuid, key, claim).catch(() => undefined);
      throw error;
    }
    return response;
  };
}
