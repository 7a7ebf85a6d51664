import type { ApiError } from './errors';
import type { Caller, MockRequest, MockResponse } from './types';
import type { Operation } from '../spec/lib';
import type { RateLimitState } from './stages/rate-limit/limiter';

/** Where the request came from: the node request in the server, a plain object in unit tests. */
export type RequestSource = {
  remoteAddress: string;
  body: AsyncIterable<Buffer | string>;
};

/** Everything the stages learn about one request; each stage reads what earlier stages wrote. */
export type Ctx = {
  req: MockRequest;
  source: RequestSource;
  /** e.g. http://127.0.0.1:4010 — used for Location and download URLs. */
  origin: string;
  route?: RouteMatch;
  /** The request's path lies outside the API's base path (/v1): no operation can match it. */
  outsideBase?: boolean;
  /** A 404/405 found by parse, raised once the caller is known and counted. */
  routeError?: ApiError;
  /** Malformed or over-deep JSON found by parse, raised by validate-request. */
  bodyError?: ApiError;
  /** A body refused by parse (413 over the size limit, 400 when it stalls), raised once the caller is counted. */
  payloadError?: ApiError;
  /** The rest of the request was not read: the server closes the connection after answering. */
  closeConnection?: boolean;
  /** Aborted when the client goes away before its answer (long work such as SQL queries stops then). */
  signal?: AbortSignal;
  caller?: Caller;
  authError?: ApiError;
  rateLimit?: RateLimitState;
  /** The storage port could not be reached while answering (the answer is a 503). */
  storeUnavailable?: boolean;
  /** How to take back each write this request made, should it fail after it (stages/all-or-nothing). */
  undo?: (() => Promise<unknown>)[];
  /** Query and path parameters after validation, coerced to their declared types. */
  input?: { query: Record<string, unknown>; path: Record<string, unknown> };
};

/** The operation a request was routed to, with its path parameters (decoded). */
export type RouteMatch = { operation: Operation; params: Record<string, string> };

export type Next = () => Promise<MockResponse>;
/** A stage answers (returns a response, or throws ApiError) or passes on by calling next. */
export type Stage = (ctx: Ctx, next: Next) => Promise<MockResponse>;

/**
 * Chains stages so the request flows down the list and the response flows back up through it. A stage that
 * calls `next()` twice would run the rest of the pipeline twice (two records, two counts): that is refused.
 */
export function compose(stages: Stage[]): (ctx: Ctx) => Promise<MockResponse> {
  const run = (index: number, ctx: Ctx): Promise<MockResponse> => {
    const stage = stages[index];
    if (!stage) return Promise.reject(new Error('pipeline ended without a response'));
    let called = false;
    return stage(ctx, () => {
      if (called)
        return Promise.reject(new Error(`stage ${index} (${stage.name || 'anonymous'}) called next() more than once`));
      called = true;
      return run(index + 1, ctx);
    });
  };
  return (ctx) => run(0, ctx);
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): MockResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}
