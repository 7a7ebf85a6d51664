import { codePointLength } from '../../../spec/lib/json';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_FIELD, IDEMPOTENT_WRITE_METHODS } from '../../../spec/lib/constants';
import { ApiError } from '../../errors';
import { withRequest, type Ctx, type Next, type Stage } from '../../context';
import type { MockRequest, MockResponse } from '../../types';
import type { Claim, HeldKey, IdempotencyStore } from '../../store/repositories/idempotency';
import { PendingCommit } from '../../store/pending-commit';
import { rollBack } from '../all-or-nothing';
import { mayWrite, uncounted } from '../rate-limit';
import { latin1Encode, sha256Base64, toBase64, utf8Decode, utf8Length } from '../../web/bytes';
import { safeDict } from '../../safety/dict';

const METHODS = new Set(IDEMPOTENT_WRITE_METHODS);
/** The header as the request's headers hold it (lower case). */
const KEY_HEADER = IDEMPOTENCY_KEY_FIELD;
/** Methods whose requests only read: they go on while their count is under way. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The key's bounds, read from the contract's IdempotencyKey parameter schema (`contract.constants`). */
export type KeyLength = { min?: number; max?: number };

/**
 * The header's text. Node hands header values over byte by byte (latin1); a key sent as UTF-8 is read back as
 * the characters it spells, so its length is counted as the contract's `maxLength` counts (code points), and
 * the request validation that follows sees the same text. Bytes that are not UTF-8 stay one character each.
 */
export function readIdempotencyKey(value: string): string {
  if (!/[^\x00-\x7f]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  const bytes = latin1Encode(value);
  const text = utf8Decode(bytes);
  return utf8Length(text) === bytes.length && !text.includes('\ufffd') ? text : value;
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // Built by appending (no array of entries, pairs or parts per object: it runs on every keyed request's body).
  let text = '';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `[${text}]`;
  }
  const record = value as Record<string, unknown>;
  // Code-unit order, as `<` compares (the default sort's order for strings).
  const keys = Object.keys(record).sort();
  for (let i = 0; i < keys.length; i++)
    // dictionary-lookup: the keys are the object's own, as listed above
    text += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${canonicalJson(record[keys[i]])}`;
  return `{${text}}`;
}

/** Method + path + sorted query + canonical body: what "the same request" means for a key. */
export function fingerprintRequest(req: MockRequest): string {
  const query =
    req.query.size === 0
      ? '[]'
      : JSON.stringify([...req.query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const body = req.body !== undefined ? canonicalJson(req.body) : toBase64(req.rawBody);
  // Node's adapter installs its one-shot native hash (installSha256); the digest is the same either way.
  return sha256Base64(`${req.method} ${req.path}\n${query}\n${body}`);
}

/** The answer to a request whose key another request holds: 422 for another request, 409 in flight, else the replay. */
function answerOf(found: HeldKey): MockResponse {
  if (!found.sameRequest) {
    throw new ApiError(
      422,
      'idempotency_key_reused',
      `${IDEMPOTENCY_KEY_HEADER}: was already used with a different request.`,
    );
  }
  if (found.kind === 'in-flight') {
    throw new ApiError(
      409,
      'idempotency_key_in_use',
      `${IDEMPOTENCY_KEY_HEADER}: a request with this key is still running; retry later.`,
    );
  }
  return found.response;
}

/**
 * All or nothing: a failed request, or an answer that cannot be kept, takes back its writes, then leaves the key
 * free for a retry (in that order, so a retry never sees them half applied).
 */
async function release(
  ctx: Ctx,
  store: IdempotencyStore,
  workspaceUuid: string,
  key: string,
  claim: Claim,
): Promise<void> {
  ctx.withAnswer?.drop();
  await rollBack(ctx);
  await store.abandon(workspaceUuid, key, claim).catch(() => undefined);
}

/**
 * x-rules idempotency-replay, idempotency-key-reuse-422, idempotency-concurrent-409, idempotency-key-expiry,
 * idempotency-key-length, idempotency-no-multipart.
 */
export function idempotency(deps: { store: IdempotencyStore; keyLength: KeyLength }): Stage {
  const min = deps.keyLength.min ?? 0;
  const max = deps.keyLength.max ?? Infinity;
  const bounds = deps.keyLength.max === undefined ? `at least ${min}` : `${min} to ${max}`;
  const keyed = async (ctx: Ctx, next: Next, sent: string): Promise<MockResponse> => {
    const key = readIdempotencyKey(sent);
    // The request as the key was meant (its UTF-8 read back): validation and hooks see the same text.
    if (key !== sent)
      ctx.req = withRequest(ctx.req, {
        headers: Object.assign(safeDict<string>(), ctx.req.headers, { [KEY_HEADER]: key }),
      });
    const { req } = ctx;
    const length = codePointLength(key);
    if (length < min || length > max) {
      throw new ApiError(
        400,
        'invalid_idempotency_key',
        `${IDEMPOTENCY_KEY_HEADER}: must be ${bounds} characters, got ${length}.`,
        length > max ? { maxLength: max } : {},
      );
    }
    if ((req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')) {
      throw new ApiError(
        400,
        'idempotency_key_not_allowed',
        `${IDEMPOTENCY_KEY_HEADER}: is not accepted on multipart requests.`,
      );
    }
    if (!ctx.caller) throw new Error('idempotency runs after require-credential');
    const workspaceUuid = ctx.caller.workspaceUuid;
    const fingerprint = fingerprintRequest(req);
    // The claim travels with the request's count when that is still under way (one round trip for both); a
    // refused request takes its claim back before the rate-limit stage answers it (the count never rejects: a
    // failed count is a refusal).
    const found = await deps.store.claim(workspaceUuid, key, fingerprint);
    const may = ctx.counting === undefined || (await ctx.counting);
    if (!may) {
      if (found.kind === 'new') await deps.store.abandon(workspaceUuid, key, found.claim).catch(() => undefined);
      return uncounted();
    }
    if (found.kind !== 'new') return answerOf(found);
    const claim = found.claim;
    // What the handler creates goes into the store with the answer, in one commit.
    const withAnswer = (ctx.withAnswer = new PendingCommit());
    let response;
    try {
      response = await next();
    } catch (error) {
      await release(ctx, deps.store, workspaceUuid, key, claim);
      throw error;
    }
    let holder;
    try {
      if (response.status < 400) holder = await deps.store.complete(workspaceUuid, key, claim, response, withAnswer);
      else await release(ctx, deps.store, workspaceUuid, key, claim);
    } catch (error) {
      await release(ctx, deps.store, workspaceUuid, key, claim);
      throw error;
    }
    if (holder === undefined) return response;
    // The claim was released meanwhile (its lease, the workspace's cap) and the key is another request's now:
    // this one applied nothing of what it kept for the answer's commit, takes back any other write, and answers
    // as a request with the key arriving now (409 while the other runs, its replay, or 422).
    await rollBack(ctx);
    return answerOf(holder);
  };
  // The first stage that may write: a request whose count is still under way waits for it (reads go on).
  const counted = async (ctx: Ctx, next: Next): Promise<MockResponse> => ((await mayWrite(ctx)) ? next() : uncounted());
  return (ctx, next) => {
    // dictionary-lookup: the contract's header name, a constant, never taken from the request
    const sent = ctx.req.headers[KEY_HEADER];
    if (sent !== undefined && METHODS.has(ctx.req.method)) return keyed(ctx, next, sent);
    return ctx.counting === undefined || SAFE_METHODS.has(ctx.req.method) ? next() : counted(ctx, next);
  };
}
