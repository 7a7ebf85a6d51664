import { ApiError } from '../../errors';
import type { Ctx, Stage } from '../../context';
import type { RateLimitState, RateLimiter } from './limiter';

/** Workspaces share one bucket however many tokens they have; callers without a credential count per address. */
export function rateLimitKey(ctx: Ctx): string {
  const caller = ctx.identity && 'caller' in ctx.identity ? ctx.identity.caller : undefined;
  return caller ? `workspace:${caller.workspaceUuid}` : `address:${ctx.source.remoteAddress}`;
}

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
}): Stage {
  const bucketOf = deps.bucket ?? rateLimitKey;
  const limitOf = deps.limit ?? apiRateLimit;
  return async (ctx, next) => {
    const state = await deps.limiter.consume(bucketOf(ctx), limitOf(ctx));
    ctx.rateLimit = state;
    // A caller with a credential that is not valid is counted (its headers show its quota) but always gets the
    // 401 the contract states, so a client with an expired token is sent to log in again rather than to back off.
    if (!state.allowed && !(ctx.identity && 'refusal' in ctx.identity)) throw tooManyRequests(state);
    return next();
  };
}

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
