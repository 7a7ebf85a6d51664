/** What the headers report about one bucket at the moment of a request. */
export type RateLimitState = {
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
  allowed: boolean;
};

import { RATE_LIMIT_HEADER_KEY as H } from '../../../spec/lib/constants';
import type { StoragePort } from '../../store/port';
import { OldestFirst } from '../../store/oldest-first';

/** What this process last counted of a bucket in its window, and how many of its counts are under way. */
type KnownBucket = {
  windowStart: number;
  remaining: number;
  underWay: number;
  /** The key of its counter in that window (made once per window, not per request). */
  key: string;
};

/** Buckets whose last count this process remembers (for `consumeAhead`), at most. */
const KNOWN_BUCKETS = 4096;

/**
 * Fixed windows aligned to the clock, one counter per bucket (a workspace, or a client address for callers
 * without a valid credential), kept in the storage port: the counter's key names its window, and the port
 * counts atomically (in Redis, one script), so N parallel requests against a limit L get exactly L successes
 * however many replicas share the store. Each counter expires with its window.
 */
export function createRateLimiter(options: {
  port: StoragePort;
  limit: number;
  windowSeconds: number;
  now: () => number;
}) {
  const windowMs = options.windowSeconds * 1000;
  const windowStartAt = (now: number) => Math.floor(now / windowMs) * windowMs;
  const keyOf = (bucket: string, windowStart: number) => `rl:${bucket}:${windowStart}`;
  // Per bucket, what this process last counted in its window and how many of its counts are under way.
  const known = new OldestFirst<KnownBucket>();
  const remember = (bucket: string, windowStart: number, remaining: number, key: string) => {
    const entry = known.get(bucket);
    if (entry === undefined) {
      if (known.size >= KNOWN_BUCKETS) known.dropOldest();
      known.set(bucket, { windowStart, remaining, underWay: 0, key });
    } else if (windowStart >= entry.windowStart) {
      entry.windowStart = windowStart;
      entry.remaining = remaining;
      entry.key = key;
    }
  };

  const stateOf = (
    count: number,
    windowStart: number,
    now: number,
    allowed: boolean,
    limit: number,
  ): RateLimitState => ({
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    windowSeconds: options.windowSeconds,
    allowed,
  });

  /**
   * Counts one request; over the limit the request is refused and not counted further. `limit` is the
   * bucket's own (a workspace's, control plane), else the limiter's. `ahead`: the bucket whose count under way
   * this is (`consumeAhead`), told when it is done.
   */
  const consume = async (bucket: string, limit = options.limit, ahead?: KnownBucket): Promise<RateLimitState> => {
    const now = options.now();
    const windowStart = windowStartAt(now);
    try {
      // The counter outlives its window by a second, so a replica whose clock lags a little still finds it.
      const key = ahead?.windowStart === windowStart ? ahead.key : keyOf(bucket, windowStart);
      const { count, allowed } = await options.port.hit(key, limit, windowStart + windowMs - now + 1_000);
      const state = stateOf(count, windowStart, now, allowed, limit);
      remember(bucket, windowStart, state.remaining, key);
      return state;
    } finally {
      if (ahead) ahead.underWay -= 1;
    }
  };

  const hitNow = options.port.hitNow;
  return {
    consume: (bucket: string, limit = options.limit): Promise<RateLimitState> => consume(bucket, limit),
    /**
     * `consume` answered at once, when the port counts without waiting (memory: `hitNow`); undefined when the
     * count is a round trip (then `consumeAhead` or `consume`).
     */
    consumeNow(bucket: string, limit = options.limit): RateLimitState | undefined {
      if (hitNow === undefined) return undefined;
      const now = options.now();
      const windowStart = windowStartAt(now);
      // The counter's key as last made for this bucket's window (made once per window, not per request).
      const last = known.get(bucket);
      const key = last?.windowStart === windowStart ? last.key : keyOf(bucket, windowStart);
      const { count, allowed } = hitNow(key, limit, windowStart + windowMs - now + 1_000);
      const state = stateOf(count, windowStart, now, allowed, limit);
      remember(bucket, windowStart, state.remaining, key);
      return state;
    },
    /**
     * `consume`, begun only when the bucket, as this process last counted it in this window, has room for one
     * more request beyond those being counted meanwhile: the caller may then go on with the request while it is
     * counted (its answer is almost surely "allowed"). Undefined otherwise (the bucket not counted here yet in
     * this window, near its limit or spent): the caller waits for `consume` before anything else.
     */
    consumeAhead(bucket: string, limit = options.limit): Promise<RateLimitState> | undefined {
      const entry = known.get(bucket);
      if (entry === undefined || entry.windowStart !== windowStartAt(options.now())) return undefined;
      if (entry.remaining - entry.underWay <= 0) return undefined;
      entry.underWay += 1;
      return consume(bucket, limit, entry);
    },
    /** Starts every bucket afresh, or one (the control plane's reset). */
    async clear(bucket?: string): Promise<void> {
      if (bucket === undefined) known.clear();
      else known.delete(bucket);
      await options.port.deleteByPrefix(bucket === undefined ? 'rl:' : `rl:${bucket}:`);
    },
    /** The bucket's state without counting: for answers given before the request was counted (e.g. 413). */
    async peek(bucket: string, limit = options.limit): Promise<RateLimitState> {
      const now = options.now();
      const windowStart = windowStartAt(now);
      const [count] = await options.port.read([{ op: 'get', key: keyOf(bucket, windowStart) }]);
      const used = Number(count ?? 0);
      return stateOf(used, windowStart, now, used < limit, limit);
    },
    /** What is known without the store (limit, window, reset): for answers given while the store is unreachable. */
    withoutStore(limit = options.limit): Omit<RateLimitState, 'remaining' | 'allowed'> {
      const now = options.now();
      const { remaining: _r, allowed: _a, ...known } = stateOf(0, windowStartAt(now), now, true, limit);
      return known;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * The headers that need no count, for an answer given while the store is unreachable: RateLimit and the two
 * Remaining headers are left out rather than guessed.
 */
export function writeKnownRateLimitHeaders(
  headers: Record<string, string>,
  known: Omit<RateLimitState, 'remaining' | 'allowed'>,
): void {
  headers[H.limit] = String(known.limit);
  headers[H.reset] = String(known.resetSeconds);
  headers[H.policy] = `${known.limit};w=${known.windowSeconds}`;
  headers[H.legacyLimit] = String(known.limit);
  headers[H.legacyReset] = String(known.resetSeconds);
}

/** The texts of one limit and window, the same for every answer of a bucket: made once per limit, not per answer. */
type LimitTexts = { limit: number; windowSeconds: number; limitText: string; policy: string; suffix: string };
let lastLimit: LimitTexts = { limit: NaN, windowSeconds: NaN, limitText: '', policy: '', suffix: '' };

function limitTexts(limit: number, windowSeconds: number): LimitTexts {
  if (lastLimit.limit !== limit || lastLimit.windowSeconds !== windowSeconds)
    lastLimit = {
      limit,
      windowSeconds,
      limitText: String(limit),
      policy: `${limit};w=${windowSeconds}`,
      // The contract reads `t` as the window in seconds (RFC drafts: seconds to reset, which RateLimit-Reset carries).
      suffix: `;t=${windowSeconds}`,
    };
  return lastLimit;
}

/** x-rules ratelimit-headers-every-response: the eight headers, in the contract's spelling. */
export function writeRateLimitHeaders(headers: Record<string, string>, state: RateLimitState): void {
  const { limitText, policy, suffix } = limitTexts(state.limit, state.windowSeconds);
  const remaining = String(state.remaining);
  const reset = String(state.resetSeconds);
  headers[H.rateLimit] = `"workspace";r=${remaining}${suffix}`;
  headers[H.limit] = limitText;
  headers[H.remaining] = remaining;
  headers[H.reset] = reset;
  headers[H.policy] = policy;
  headers[H.legacyLimit] = limitText;
  headers[H.legacyRemaining] = remaining;
  headers[H.legacyReset] = reset;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {};
  writeRateLimitHeaders(headers, state);
  return headers;
}
