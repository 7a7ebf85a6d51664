/**
 * What RateLimit-Remaining promises, judged over the run's exchanges whatever the window's shape: a reading of
 * `r` remaining means at least `r` more requests are admitted. Fixed windows reset upwards, sliding windows and
 * token buckets only give back with time, so a 429 is a contradiction when the last reading of the same credential
 * before it was sent left more requests than the ones that could have spent them in between.
 */
import { parseInteger, RATE_LIMIT } from './headers';
import type { Exchange } from './http-client';

export type QuotaContradiction = {
  /** The 429. */
  limited: Exchange;
  /** The last answer of the same credential received before the 429 was sent. */
  reading: Exchange;
  remaining: number;
  /** Requests (any credential, conservatively) that may have been counted between the reading and the 429. */
  between: number;
};

/** The suite's own valid credentials: the quota a reading speaks of is theirs. */
const credentialOf = (exchange: Exchange) =>
  exchange.tokenLabel === 'a' || exchange.tokenLabel === 'b' ? exchange.tokenLabel : undefined;

export function remainingOf(exchange: Exchange): number | undefined {
  const response = exchange.response;
  if (!response || response.status === 429) return undefined;
  return parseInteger(response.headers[RATE_LIMIT.remaining]);
}

/** Every 429 whose credential's last reading promised room for it. */
export function quotaContradictions(exchanges: readonly Exchange[]): QuotaContradiction[] {
  const found: QuotaContradiction[] = [];
  for (const limited of exchanges) {
    if (limited.response?.status !== 429 || credentialOf(limited) === undefined) continue;
    let reading: Exchange | undefined;
    for (const other of exchanges)
      if (
        other !== limited &&
        credentialOf(other) === credentialOf(limited) &&
        other.response &&
        other.receivedTick < limited.sentTick &&
        (!reading || other.receivedTick > reading.receivedTick)
      )
        reading = other;
    if (!reading) continue;
    const since = reading;
    const remaining = remainingOf(since);
    if (remaining === undefined) continue;
    // Anything in flight at any moment between the reading's request and the 429's answer may have been counted.
    const between = exchanges.filter(
      (other) =>
        other !== limited &&
        other !== since &&
        other.sentTick < limited.receivedTick &&
        (other.receivedTick === 0 || other.receivedTick > since.sentTick),
    ).length;
    if (remaining > between) found.push({ limited, reading, remaining, between });
  }
  return found;
}
