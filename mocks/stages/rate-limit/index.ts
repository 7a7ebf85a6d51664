import { ApiError } from '../../errors';
import type { Ctx, Next, Stage } from '../../context';
import type { MockResponse } from '../../types';
import type { RateLimitState, RateLimiter } from './limiter';
import { perWorkspace } from '../../store/keys';

/** Workspaces share one bucket however many tokens they have; callers without a credential count per address. */
export function rateLimitKey(ctx: Ctx): string {
  const caller = ctx.identity && 'caller' in ctx.identity ? ctx.identity.caller : undefined;
  return caller ? workspaceBucket(caller.workspaceUuid) : `address:${ctx.source.remoteAddress}`;
}

/** A workspace's bucket name, made once: every request of the workspace is counted under it. */
const workspaceBucket = perWorkspace((workspaceUuid) => `workspace:${workspaceUuid}`);

/** The API's limit for this request: its workspace's own (control plane), else the defaults' (the limiter's). */
export const apiRateLimit = (ctx: Ctx): number | undefined => ctx.steering?.rateLimit;
/** The OAuth endpoints' limit per client address (the defaults', control plane). */
export const authRateLimit = (ctx: Ctx): number | undefined => ctx.steering?.authRateLimit;

/**
 * x-rules ratelimit-429-retry-after: over the limit → 429 with Retry-After and retryAfter in the body. `bucket`
 * names where a mount counts (default: the caller's workspace, else the client address), `limit` its limit.
 */
export function rateLimit(deps: {
  limiter: RateLimiter;
  bucket?: (ctx: Ctx) => string;
  limit?: (ctx: Ctx) => number | undefined;
  /**
   * Go on with the request while it is counted, when its bucket has room (`limiter.consumeAhead`): a stage
   * about to write waits for the count first (`mayWrite`), reads go on. For mounts whose reads change nothing
   * a refused request would leave behind (the API: a read may only seed a workspace or expire its old runs).
   */
  countAhead?: boolean;
}): Stage {
  const bucketOf = deps.bucket ?? rateLimitKey;
  const limitOf = deps.limit ?? apiRateLimit;
  // A caller with a credential that is not valid is counted (its headers show its quota) but always gets the
  // 401 the contract states, so a client with an expired token is sent to log in again rather than to back off.
  const refused = (ctx: Ctx, state: RateLimitState) =>
    !state.allowed && !(ctx.identity && 'unidentified' in ctx.identity);
  const countFirst = async (ctx: Ctx, next: Next): Promise<MockResponse> => {
    const state = await deps.limiter.consume(bucketOf(ctx), limitOf(ctx));
    ctx.rateLimit = state;
    if (refused(ctx, state)) throw tooManyRequests(state);
    return next();
  };
  return (ctx, next) => {
    // A store in this process counts at once: nothing to wait for, nothing to count ahead of.
    const counted = deps.limiter.consumeNow(bucketOf(ctx), limitOf(ctx));
    if (counted !== undefined) {
      ctx.rateLimit = counted;
      return refused(ctx, counted) ? Promise.reject(tooManyRequests(counted)) : next();
    }
    const counting = deps.countAhead ? deps.limiter.consumeAhead(bucketOf(ctx), limitOf(ctx)) : undefined;
    if (counting === undefined) return countFirst(ctx, next);
    // Counted while the request goes on (the count and the request's first reads share a round trip). A refusal
    // is answered as soon as it is known (429, or the 503 of a count that failed), without waiting for the rest
    // of the request (a latency, a hang): what the request still does is dropped, and it writes nothing.
    const mayGoOn = counting.then(
      (state) => ((ctx.rateLimit = state), !refused(ctx, state)),
      () => false,
    );
    ctx.counting = mayGoOn;
    // Whichever comes first: a refusal answers at once; an answer waits for its count. One promise settled by
    // both, rather than a race of derived ones (this runs on every request).
    return new Promise<MockResponse>((resolve, reject) => {
      const answer = new CountedAhead(counting, resolve, reject);
      mayGoOn.then((verdict) => answer.verdict(verdict));
      Promise.resolve(next()).then(
        (response) => answer.answered(response),
        (error: unknown) => answer.failed(error),
      );
    });
  };
}

/**
 * The answer of a request that went on while it was counted: its refusal as soon as the count refuses it (429,
 * or the count's own error), else its answer once both are known. A class, not closures: one per request.
 */
class CountedAhead {
  #may: boolean | undefined;
  #answered = false;
  #response: MockResponse | undefined;
  #error: unknown;
  #failed = false;

  constructor(
    private readonly counting: Promise<RateLimitState>,
    private readonly resolve: (response: MockResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  verdict(may: boolean): void {
    this.#may = may;
    this.#settle();
  }

  answered(response: MockResponse): void {
    this.#answered = true;
    this.#response = response;
    this.#settle();
  }

  failed(error: unknown): void {
    this.#answered = this.#failed = true;
    this.#error = error;
    this.#settle();
  }

  #settle(): void {
    if (this.#may === false) {
      this.#may = undefined; // answered once
      const { reject } = this;
      this.counting.then((state) => reject(tooManyRequests(state)), reject); // a failed count rejects with its own error
    } else if (this.#may === true && this.#answered) {
      if (this.#failed) this.reject(this.#error);
      else this.resolve(this.#response as MockResponse);
    }
  }
}

/**
 * For a stage about to write: waits for the request's count when it is still under way (`countAhead`), and
 * tells whether the request may go on. When it may not, the stage returns `uncounted()` at once, writing nothing:
 * the rate-limit stage answers in its place (429, or 503).
 */
export async function mayWrite(ctx: Ctx): Promise<boolean> {
  return ctx.counting === undefined ? true : ctx.counting;
}

/** What a stage returns for a request that may not write (see `mayWrite`): never sent, the 429 takes its place. */
export const uncounted = (): MockResponse => ({ status: 429, headers: {}, body: undefined });

/** The 429 of a spent bucket: Retry-After (seconds) and `retryAfter` in the error body (the API and OAuth alike). */
export function tooManyRequests(state: RateLimitState): ApiError {
  const retryAfter = state.resetSeconds;
  return new ApiError(
    429,
    'rate_limited',
    `Too many requests: ${state.limit} per ${state.windowSeconds} s; retry after ${retryAfter} s.`,
    { retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}
