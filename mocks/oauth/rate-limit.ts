import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, renderError } from '../stages/finish';
import { tooManyRequests } from '../stages/rate-limit';
import { rateLimitHeaders, writeKnownRateLimitHeaders, type RateLimiter } from '../stages/rate-limit/limiter';
import { serialise } from '../stages/serialise';
import { corsHeaders, noStoreHeaders } from './http';

/**
 * The bucket of a request to the OAuth endpoints: its client address, apart from the API's buckets. Not the
 * `client_id`: a public client's id is public (anyone could spend the quota of every user of the app) and an
 * unregistered one changes at will; the metadata, keys and userinfo endpoints carry none.
 */
export const authRateLimitBucket = (remoteAddress: string | undefined) => `auth-address:${remoteAddress ?? 'unknown'}`;

function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/**
 * Counts a request to an OAuth endpoint in the storage port (fixed windows shared by every replica), puts the
 * API's rate-limit headers on whatever answers it, and answers 429 itself once the bucket is spent: the contract's
 * error shape (`errorMessage`, `reason: rate_limited`, `retryAfter`, `Retry-After`) with, for OAuth clients,
 * `error: temporarily_unavailable` (RFC 6749 §4.1.2.1) and its description. A CORS preflight is reported, not
 * counted. Resolves true when it answered.
 */
export async function limitAuthRequest(
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const bucket = authRateLimitBucket(req.socket.remoteAddress);
  const preflight = req.method === 'OPTIONS';
  let state;
  try {
    state = preflight ? await limiter.peek(bucket) : await limiter.consume(bucket);
  } catch (error) {
    // The store is unreachable: the 503 that follows carries what is known without it.
    const known: Record<string, string> = {};
    writeKnownRateLimitHeaders(known, limiter.withoutStore());
    setHeaders(res, known);
    throw error;
  }
  setHeaders(res, rateLimitHeaders(state));
  res.setHeader('access-control-expose-headers', CORS_HEADERS['access-control-expose-headers']);
  if (state.allowed || preflight) return false;
  const refusal = tooManyRequests(state);
  const response = renderError(refusal);
  response.body = {
    ...(response.body as object),
    error: 'temporarily_unavailable',
    error_description: refusal.message,
  };
  setHeaders(res, { ...corsHeaders, ...noStoreHeaders });
  serialise(res, response, req.method ?? 'GET');
  return true;
}
