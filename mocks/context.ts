import type { MaybePromise } from './maybe-promise';
import type { Caller, MockRequest, MockResponse } from './types';
import type { Operation } from '../spec/lib';
import type { RateLimitState } from './stages/rate-limit/limiter';
import type { Steering } from './control/settings-types';
import type { PendingCommit } from './store/pending-commit';

/** Where the request came from: the node request in the server, a plain object in unit tests. */
export type RequestSource = {
  remoteAddress: string;
  body: AsyncIterable<Uint8Array | string>;
};

/**
 * What authenticate found: the caller, or why there is none (no header, another scheme, a malformed or unknown
 * token). A finding, not an error: rate-limit counts the request in the bucket it names, a preflight is answered
 * without a credential, and require-credential answers the 401 from it once the request is counted.
 */
export type Identity = { caller: Caller } | { unidentified: string };

/** Query and path parameters after validation, coerced to their declared types. */
export type ValidatedInput = { query: Record<string, unknown>; path: Record<string, unknown> };

/**
 * Everything the stages learn about one request. Each field is the typed result of one stage, read by the stages
 * after it; no stage leaves an error here for a later one to raise.
 */
export type Ctx = {
  req: MockRequest;
  source: RequestSource;
  /** e.g. http://127.0.0.1:4010 — used for Location and download URLs. */
  origin: string;
  /** authenticate's result. */
  identity?: Identity;
  /** load-steering's result: the control plane's settings for this request's workspace (or for none). */
  steering?: Steering;
  /** require-credential's result: the workspace every read and write is scoped to. */
  caller?: Caller;
  rateLimit?: RateLimitState;
  /**
   * rate-limit's count while it is under way (its bucket has room, the request goes on meanwhile): whether the
   * request may go on. Stages about to write wait for it (`mayWrite`); rate-limit itself answers a refusal.
   */
  counting?: Promise<boolean>;
  /** route's result. */
  route?: RouteMatch;
  /** The request's body was read to its end (or it had none): the connection may serve another request. */
  bodyRead?: boolean;
  /** Aborted when the client goes away before its answer (long work such as SQL queries stops then). */
  signal?: AbortSignal;
  /** How to take back each write this request made, should it fail after it (stages/all-or-nothing). */
  undo?: (() => Promise<unknown>)[];
  /**
   * idempotency's result for a request that claimed its key: writes a handler joins to the commit that keeps
   * the key's answer (one commit for both), dropped if the request fails first.
   */
  withAnswer?: PendingCommit;
  /** validate-request's result. */
  input?: ValidatedInput;
};

/** The context a handler receives: the caller, the operation and the validated input are known. */
export type AdmittedCtx = Ctx & { caller: Caller; route: RouteMatch; input: ValidatedInput };

/** The operation a request was routed to, with its path parameters (decoded). */
export type RouteMatch = { operation: Operation; params: Record<string, string> };

/**
 * A stage's answer: the response itself when nothing on the way waited (a store in this process, a body that had
 * arrived), else its promise. An error is always a rejection (or a throw, which `compose` makes one): only a
 * success is ever handed back at once, so a stage that renders errors finds every one in the same place.
 */
export type Answer = MaybePromise<MockResponse>;

export type Next = () => Answer;
/**
 * A stage answers (returns a response, or throws ApiError) or passes on by calling next. A stage with nothing to
 * wait for may be a plain function returning `next()` (or a rejection): no `await` that waits for nothing, and
 * an answer known at once goes back up the stages at once (a stage around `next()` takes it with `whenKnown`,
 * `mocks/maybe-promise.ts`), no turn of the microtask queue per stage.
 */
export type Stage = (ctx: Ctx, next: Next) => Answer;

/**
 * Chains stages so the request flows down the list and the response flows back up through it. A stage that
 * calls `next()` twice would run the rest of the pipeline twice (two records, two counts): that is refused. A
 * plain stage that throws is a rejection like an async one's: no stage ever sees a throw from `next()`.
 */
export function compose(stages: Stage[]): (ctx: Ctx) => Answer {
  const run = (index: number, ctx: Ctx): Answer => {
    const stage = stages[index];
    if (!stage) return Promise.reject(new Error('pipeline ended without a response'));
    let called = false;
    try {
      return stage(ctx, () => {
        if (called)
          return Promise.reject(
            new Error(`stage ${index} (${stage.name || 'anonymous'}) called next() more than once`),
          );
        called = true;
        return run(index + 1, ctx);
      });
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return (ctx) => run(0, ctx);
}

/** The fields a stage may change in a copy of the request (`withRequest`). */
export type RequestChange = Partial<
  Pick<MockRequest, 'path' | 'query' | 'headers' | 'rawBody' | 'body' | 'workspaceUuid' | 'operationId'>
>;

/**
 * A request as the adapters first make it: every field present, in one order, so every request of the server
 * has one shape and the stages reading it stay monomorphic.
 */
export function newRequest(
  method: string,
  headers: Record<string, string>,
  query: URLSearchParams,
  rawBody: Uint8Array,
): MockRequest {
  return {
    method,
    path: '/',
    query,
    headers,
    rawBody,
    body: undefined,
    workspaceUuid: undefined,
    operationId: undefined,
  };
}

/**
 * A copy of the request with some fields changed (the request is never changed in place: a hook may hold it).
 * Written field by field rather than spread: V8 copies a spread object through its slow path and then adds the
 * new field to a new shape, about 0.5 µs a copy, four copies a request (`npm run bench -- --stages`); this is
 * one allocation of the shape every request has.
 */
export function withRequest(req: MockRequest, change: RequestChange): MockRequest {
  return {
    method: req.method,
    path: change.path ?? req.path,
    query: change.query ?? req.query,
    headers: change.headers ?? req.headers,
    rawBody: change.rawBody ?? req.rawBody,
    body: 'body' in change ? change.body : req.body,
    workspaceUuid: change.workspaceUuid ?? req.workspaceUuid,
    operationId: change.operationId ?? req.operationId,
  };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): MockResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}
