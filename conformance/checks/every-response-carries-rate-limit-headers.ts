/**
 * x-rules: ratelimit-headers-every-response — Every response carries the eight rate-limit headers: integers where
 * stated, `RateLimit` a structured field with the quoted policy name and `r` and `t`, legacy `X-` headers equal to
 * the standard ones, remaining <= limit, reset <= window; `Retry-After` on 429 only (ratelimit-429-retry-after).
 * The window's shape is not shown (fixed, sliding, token bucket), so Remaining may rise as time passes; what no
 * reading allows is a burst of counted requests that never lowers it, which the active part sends.
 * A hook on every response. Proved by fixtures/broken/rate-limit-remaining-does-not-decrease.ts
 * (and unauthorized-without-rate-limit-headers.ts, retry-after-on-accepted.ts).
 */
import { inspectRateLimitHeaders, parseInteger } from '../lib/headers';
import { ruleStated } from '../lib/stated';
import type { Exchange } from '../lib/http-client';
import type { Check } from './registry';

/** Sequential requests of one burst; a window reset may interrupt one step, never all of them. */
export const BURST = 6;

const remainingOf = (exchange: Exchange) =>
  exchange.response && exchange.response.status !== 429
    ? parseInteger(exchange.response.headers['ratelimit-remaining'])
    : undefined;

/** Whether Remaining went down at least once across consecutive readings (undefined when too few to judge). */
export function decreasedAcross(readings: Array<number | undefined>): boolean | undefined {
  const known = readings.filter((value): value is number => value !== undefined);
  if (known.length < 4) return undefined;
  return known.some((value, i) => i > 0 && value < known[i - 1]);
}

export const everyResponseCarriesRateLimitHeaders: Check = {
  id: 'every-response-carries-rate-limit-headers',
  ruleId: 'ratelimit-headers-every-response',
  title:
    'Every response carries consistent rate-limit headers, Retry-After only on 429, and a burst of requests lowers RateLimit-Remaining.',
  fixture: 'rate-limit-remaining-does-not-decrease',
  onExchange(exchange, ctx) {
    const res = exchange.response;
    if (!res) return;
    const { findings } = inspectRateLimitHeaders(res.headers);
    for (const finding of findings) ctx.report({ ...finding, exchange });
    if (res.status !== 429 && res.headers['retry-after'] !== undefined) {
      ctx.report({
        ruleId: 'ratelimit-429-retry-after',
        title: `Retry-After on a ${res.status} response`,
        expected: 'Retry-After on 429 only',
        received: `Retry-After: ${res.headers['retry-after']}`,
        stated: ruleStated(ctx.contract, 'ratelimit-429-retry-after'),
        exchange,
      });
    }
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
        title: 'RateLimit-Remaining did not decrease across a burst of requests',
        expected: `RateLimit-Remaining to go down at least once over ${BURST} back-to-back requests (each is counted)`,
        received: `RateLimit-Remaining ${readings.map((r) => r ?? '?').join(', ')}`,
        exchange: burst[burst.length - 1],
      });
  },
};
