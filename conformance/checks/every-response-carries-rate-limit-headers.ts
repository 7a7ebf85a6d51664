/**
 * x-rules: ratelimit-headers-every-response — Every response carries the eight rate-limit headers: integers where
 * stated, the combined field a structured list with the quoted policy name and `r` and `t`, legacy `X-` headers equal to
 * the standard ones, remaining <= limit, reset <= window; `Retry-After` on 429 only, in seconds, never beyond the
 * window (ratelimit-429-retry-after).
 * The window's shape is not shown (fixed, sliding, token bucket), so what is judged strictly holds under each:
 * a counted request leaves at most Limit - 1 remaining, and a reading of `r` remaining admits `r` more requests
 * (a 429 after it, with fewer requests in between, contradicts it). A burst that does not lower Remaining only
 * warns: in a sliding window, requests of a minute ago leave as fast as new ones enter.
 * A hook on every response. Proved by fixtures/broken/rate-limit-remaining-does-not-decrease.ts
 * (and unauthorized-without-rate-limit-headers.ts, retry-after-on-accepted.ts, rate-limit-remaining-off-by-one.ts,
 * retry-after-in-milliseconds.ts).
 */
import { inspectRateLimitHeaders, parseInteger } from '../lib/headers';
import { quotaContradictions, remainingOf } from '../lib/quota';
import { ruleAssumption, ruleStated } from '../lib/stated';
import type { Exchange } from '../lib/http-client';
import { RATE_LIMIT_HEADERS } from './inputs';
import { defineCheck, type CheckContext } from './registry';

/** Sequential requests of one burst; a window reset may interrupt one step, never all of them. */
export const BURST = 6;

/** Whether Remaining went down at least once across consecutive readings (undefined when too few to judge). */
export function decreasedAcross(readings: Array<number | undefined>): boolean | undefined {
  const known = readings.filter((value): value is number => value !== undefined);
  if (known.length < 4) return undefined;
  return known.some((value, i) => i > 0 && value < known[i - 1]);
}

/** A request of the suite's own valid credential that the server accepted: it was counted. */
const counted = (exchange: Exchange): exchange is Exchange & { response: NonNullable<Exchange['response']> } =>
  (exchange.tokenLabel === 'a' || exchange.tokenLabel === 'b') &&
  exchange.response !== undefined &&
  exchange.response.status >= 200 &&
  exchange.response.status < 300;

/**
 * Remaining's arithmetic shows only at a window's edges: an off-by-one Remaining reads Limit at the first request of a
 * window and admits one request too many at the last. A run that reached neither says so, and what would reach them.
 */
function sayWhatWentUnjudged(ctx: CheckContext): void {
  const readings = ctx.client.exchanges.filter(counted).map((exchange) => ({
    exchange,
    ...inspectRateLimitHeaders(exchange.response.headers).reading,
  }));
  const limit = readings.find((r) => r.limit !== undefined)?.limit;
  if (readings.length === 0 || limit === undefined) return;
  const window = readings.find((r) => r.window !== undefined)?.window;
  if (!readings.some((r) => r.remaining !== undefined && r.remaining >= limit - 1))
    ctx.unjudged?.(
      'RateLimit-Remaining counts the request it answers, at the first request of a window (Remaining = Limit - 1): every reading came mid-window',
      `start the run on a workspace that sent nothing for a whole window${window !== undefined ? ` (${window} s)` : ''}`,
    );
  const limited = ctx.client.exchanges.some(
    (e) => e.response?.status === 429 && (e.tokenLabel === 'a' || e.tokenLabel === 'b'),
  );
  if (!limited)
    ctx.unjudged?.(
      `no 429 follows a RateLimit-Remaining that left room (an off-by-one Remaining shows only at the limit): the limit of ${limit} was never reached`,
      `a server configured with a smaller rate limit, below the request budget (--max-requests ${ctx.config.maxRequests}), or --max-requests above ${limit} for one window`,
    );
}

export const everyResponseCarriesRateLimitHeaders = defineCheck({
  id: 'every-response-carries-rate-limit-headers',
  ruleId: 'ratelimit-headers-every-response',
  title:
    'Every response carries consistent rate-limit headers, Remaining counts the request and keeps its promise, Retry-After only on 429 and within the window.',
  fixture: 'rate-limit-remaining-does-not-decrease',
  covers: [
    'ratelimit-headers-every-response: *',
    'ratelimit-429-retry-after: Retry-After within the window',
    'ratelimit-429-retry-after: Retry-After on 429 only',
  ],
  inputs: { operations: 'all', reads: { parts: ['operation'], headers: RATE_LIMIT_HEADERS } },
  onExchange(exchange, ctx) {
    const res = exchange.response;
    if (!res) return;
    const { reading, findings } = inspectRateLimitHeaders(res.headers);
    for (const finding of findings) ctx.report({ ...finding, exchange });
    if (counted(exchange) && reading.limit !== undefined && reading.remaining !== undefined)
      if (reading.remaining >= reading.limit)
        ctx.report({
          title: 'RateLimit-Remaining does not count the request it answers',
          expected: `at most ${reading.limit - 1} (RateLimit-Limit ${reading.limit} less this request, which is counted)`,
          received: `RateLimit-Remaining ${reading.remaining}`,
          stated: ruleStated(ctx.contract, 'ratelimit-headers-every-response'),
          exchange,
        });
    const retryAfter = res.headers['retry-after'];
    if (res.status !== 429 && retryAfter !== undefined) {
      ctx.report({
        ruleId: 'ratelimit-429-retry-after',
        title: `Retry-After on a ${res.status} response`,
        expected: 'Retry-After on 429 only',
        received: `Retry-After: ${retryAfter}`,
        stated: ruleStated(ctx.contract, 'ratelimit-429-retry-after'),
        exchange,
      });
    }
    const seconds = parseInteger(retryAfter);
    // Whatever the window's shape, waiting one whole window frees the quota: a longer wait is not seconds.
    if (res.status === 429 && seconds !== undefined && reading.window !== undefined && seconds > reading.window + 1)
      ctx.report({
        ruleId: 'ratelimit-429-retry-after',
        title: 'Retry-After is longer than the rate-limit window (not seconds?)',
        expected: `integer seconds, at most the ${reading.window} s window of RateLimit-Policy`,
        received: `Retry-After: ${retryAfter}`,
        stated: ruleStated(ctx.contract, 'ratelimit-429-retry-after'),
        exchange,
      });
  },
  async run(ctx) {
    const probe = ctx.contract.operations.find((op) => op.method === 'GET' && !op.path.includes('{'));
    if (!probe) return;
    const burst: Exchange[] = [];
    for (let i = 0; i < BURST; i++)
      burst.push(await ctx.send({ method: 'GET', path: probe.path, operationId: probe.operationId }));
    const readings = burst.map(remainingOf);
    const decreased = decreasedAcross(readings);
    if (decreased === undefined)
      ctx.note(`a burst of ${BURST} requests gave too few RateLimit-Remaining readings to judge`);
    else if (!decreased)
      ctx.report({
        severity: 'warning',
        title: 'RateLimit-Remaining did not decrease across a burst of requests',
        expected: `RateLimit-Remaining to go down at least once over ${BURST} back-to-back requests under a fixed window`,
        received: `RateLimit-Remaining ${readings.map((r) => r ?? '?').join(', ')}`,
        assumption: ruleAssumption(ctx.contract, 'ratelimit-headers-every-response'),
        exchange: burst[burst.length - 1],
      });
  },
  finish(ctx) {
    sayWhatWentUnjudged(ctx);
    for (const { limited, reading, remaining, between } of quotaContradictions(ctx.client.exchanges))
      ctx.report({
        title: 'A 429 contradicts the RateLimit-Remaining read just before it',
        expected: `at least ${remaining - between} more request(s) admitted (RateLimit-Remaining ${remaining}, ${between} request(s) in between)`,
        received: `429 on the next request`,
        stated: ruleStated(ctx.contract, 'ratelimit-headers-every-response'),
        sequence: [reading],
        exchange: limited,
      });
  },
});
