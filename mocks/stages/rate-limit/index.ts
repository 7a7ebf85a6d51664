import { ApiError } from '../../errors';
import type { Ctx, Stage } from '../../context';
import type { RateLimitState, RateLimiter } from './limiter';

/** Workspaces share one bucket however many tokens they have; callers without a credential count per address. */
export function rateLimitKey(ctx: Ctx): string {
  return ctx.caller ? `workspace:${ctx.caller.workspaceUuid}` : `address:${ctx.source.remoteAddress}`;
}

/** x-rules ratelimit-429-retry-after: over the limit → 429 with Retry-After and retryAfter in the body. */
export function rateLimit(deps: { limiter: RateLimiter }): Stage {
  return async (ctx, next) => {
    const state = await deps.limiter.consume(rateLimitKey(ctx));
    ctx.rateLimit = state;
    // A caller without a valid credential is counted (its headers show its quota) but always gets the 401 the
    // contract states, so a client with an expired token is sent to log in again rather than to back off.
    if (!state.allowed && ctx.caller) throw tooManyRequests(state);
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
