/**
 * x-rules: ratelimit-headers-every-response — Every response carries the eight rate-limit headers: integers where
 * stated, `RateLimit` a structured field with the quoted policy name and `r` and `t`, legacy `X-` headers equal to
 * the standard ones, remaining <= limit, reset <= window, and remaining never rising inside a window.
 * A hook on every response. Proved by fixtures/broken/rate-limit-remaining-rises.ts (and unauthorized-without-rate-limit-headers.ts).
 */
import { inspectRateLimitHeaders } from '../lib/headers';
import type { Exchange } from '../lib/http-client';
import type { Check } from './registry';

type Reading = { exchange: Exchange; remaining: number; reset: number };

const readings = new WeakMap<object, Map<string, Reading[]>>();

export const everyResponseCarriesRateLimitHeaders: Check = {
  id: 'every-response-carries-rate-limit-headers',
  ruleId: 'ratelimit-headers-every-response',
  title: 'Every response carries consistent rate-limit headers whose remaining count never rises inside a window.',
  fixture: 'rate-limit-remaining-rises',
  onExchange(exchange, ctx) {
    const res = exchange.response;
    if (!res) return;
    const { reading, findings } = inspectRateLimitHeaders(res.headers);
    for (const finding of findings) ctx.report({ ...finding, exchange });
    // The contract sends Retry-After on 429 only; as a polling hint elsewhere it is harmless, so it only warns.
    if (res.status !== 429 && res.headers['retry-after'] !== undefined) {
      ctx.report({
        severity: 'warning',
        title: `Retry-After on a ${res.status} response`,
        expected: 'Retry-After on 429 only (x-rules ratelimit-429-retry-after)',
        received: `Retry-After: ${res.headers['retry-after']}`,
        exchange,
      });
    }
    // Only the suite's own tokens name a known bucket; unknown credentials may be counted anywhere.
    if ((exchange.tokenLabel === 'a' || exchange.tokenLabel === 'b') && reading.remaining !== undefined && reading.reset !== undefined) {
      let byToken = readings.get(ctx.client);
      if (!byToken) readings.set(ctx.client, (byToken = new Map()));
      const list = byToken.get(exchange.tokenLabel) ?? [];
      list.push({ exchange, remaining: reading.remaining, reset: reading.reset });
      byToken.set(exchange.tokenLabel, list);
    }
  },
  finish(ctx) {
    for (const list of readings.get(ctx.client)?.values() ?? []) {
      const violation = findRise(list);
      if (violation) {
        const [before, after] = violation;
        ctx.report({
          title: 'RateLimit-Remaining rose inside a window',
          expected: `remaining <= ${before.remaining} until the window of the earlier response resets (${before.reset} s after it)`,
          received: `remaining ${after.remaining}, ${after.exchange.sentAt - before.exchange.receivedAt} ms later`,
          exchange: after.exchange,
        });
      }
    }
  },
};

/**
 * A pair where a request sent after an earlier response completed saw more remaining requests, although the
 * earlier response's window could not yet have reset. The earlier request was counted no sooner than it was sent,
 * and RateLimit-Reset may be rounded up by a second, so that window ends no sooner than sentAt + (reset - 1) s;
 * the later request was counted no later than its answer arrived.
 */
export function findRise(list: Reading[]): [Reading, Reading] | undefined {
  const sorted = [...list].sort((a, b) => a.exchange.receivedTick - b.exchange.receivedTick);
  for (let i = 0; i < sorted.length; i++) {
    const before = sorted[i];
    const windowEnds = before.exchange.sentAt + (before.reset - 1) * 1000;
    for (let j = i + 1; j < sorted.length; j++) {
      const after = sorted[j];
      if (after.exchange.sentTick < before.exchange.receivedTick) continue;
      if (after.exchange.receivedAt >= windowEnds) continue;
      if (after.remaining > before.remaining) return [before, after];
    }
  }
  return undefined;
}
