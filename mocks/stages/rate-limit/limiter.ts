/** What the headers report about one bucket at the moment of a request. */
export type RateLimitState = { limit: number; remaining: number; resetSeconds: number; windowSeconds: number; allowed: boolean };

type Bucket = { windowStart: number; count: number };

/**
 * Fixed windows aligned to the clock, one counter per bucket (a workspace, or a client address for
 * callers without a valid credential). Counting is synchronous, so N parallel requests against a limit
 * L get exactly L successes.
 */
export function createRateLimiter(options: { limit: number; windowSeconds: number; now: () => number }) {
  const windowMs = options.windowSeconds * 1000;
  const buckets = new Map<string, Bucket>();
  let sweptWindow = 0;

  const windowStartAt = (now: number) => Math.floor(now / windowMs) * windowMs;

  const stateOf = (count: number, windowStart: number, now: number, allowed: boolean): RateLimitState => ({
    limit: options.limit,
    remaining: Math.max(0, options.limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    windowSeconds: options.windowSeconds,
    allowed,
  });

  /** Stale buckets are dropped once per window, so per-address buckets cannot pile up. */
  const sweep = (windowStart: number) => {
    if (windowStart === sweptWindow) return;
    sweptWindow = windowStart;
    for (const [key, bucket] of buckets) if (bucket.windowStart !== windowStart) buckets.delete(key);
  };

  return {
    /** Counts one request; over the limit the request is refused and not counted further. */
    consume(key: string): RateLimitState {
      const now = options.now();
      const windowStart = windowStartAt(now);
      sweep(windowStart);
      let bucket = buckets.get(key);
      if (!bucket || bucket.windowStart !== windowStart) {
        bucket = { windowStart, count: 0 };
        buckets.set(key, bucket);
      }
      if (bucket.count >= options.limit) return stateOf(bucket.count, windowStart, now, false);
      bucket.count += 1;
      return stateOf(bucket.count, windowStart, now, true);
    },
    /** The bucket's state without counting: for answers given before the request was counted (e.g. 413). */
    peek(key: string): RateLimitState {
      const now = options.now();
      const windowStart = windowStartAt(now);
      const bucket = buckets.get(key);
      const count = bucket && bucket.windowStart === windowStart ? bucket.count : 0;
      return stateOf(count, windowStart, now, count < options.limit);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** x-rules ratelimit-headers-every-response: the eight headers, in the contract's spelling. */
export function writeRateLimitHeaders(headers: Record<string, string>, state: RateLimitState): void {
  const limit = String(state.limit);
  const remaining = String(state.remaining);
  const reset = String(state.resetSeconds);
  // The contract reads `t` as the window in seconds (RFC drafts: seconds to reset, which RateLimit-Reset carries).
  headers.ratelimit = `"workspace";r=${remaining};t=${state.windowSeconds}`;
  headers['ratelimit-limit'] = limit;
  headers['ratelimit-remaining'] = remaining;
  headers['ratelimit-reset'] = reset;
  headers['ratelimit-policy'] = `${limit};w=${state.windowSeconds}`;
  headers['x-ratelimit-limit'] = limit;
  headers['x-ratelimit-remaining'] = remaining;
  headers['x-ratelimit-reset'] = reset;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {};
  writeRateLimitHeaders(headers, state);
  return headers;
}
