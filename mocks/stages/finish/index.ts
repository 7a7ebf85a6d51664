import { RATE_LIMIT_HEADER_NAMES, retirementHeaderValues } from '../../../spec/lib';
import { ApiError, toApiError } from '../../errors';
import { jsonResponse, type Stage } from '../../context';
import type { MockHooks, MockResponse } from '../../types';
import { writeKnownRateLimitHeaders, writeRateLimitHeaders, type RateLimiter } from '../rate-limit/limiter';
import { rateLimitKey } from '../rate-limit';
import { StoreUnavailableError } from '../../store/port';

const EXPOSED = [...RATE_LIMIT_HEADER_NAMES, 'Retry-After', 'Location', 'Deprecation', 'Sunset', 'Allow'].join(', ');

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
};

/** The one error serialiser (x-rules error-shape): anything thrown becomes the contract's error body. */
export function renderError(error: unknown): MockResponse {
  const apiError = toApiError(error);
  // An unreachable store is reported once by its adapter, not once per request.
  if (!(error instanceof ApiError) && !(error instanceof StoreUnavailableError))
    process.stderr.write(`mock: unexpected failure: ${(error as Error)?.stack ?? error}\n`);
  return jsonResponse(apiError.status, apiError.toBody(), apiError.headers);
}

/**
 * Errors rendered in the contract's shape, and the headers every response carries (rate limit, CORS) added in
 * this one place, so no path can skip them.
 */
export function finishResponse(deps: { limiter: RateLimiter }): Stage {
  return async (ctx, next) => {
    let response: MockResponse;
    try {
      response = await next();
    } catch (error) {
      response = renderError(error);
    }
    // Not counted yet (an answer before the rate-limit stage): read the count; with the store unreachable, only
    // what the clock and the settings tell.
    const quota =
      ctx.rateLimit ??
      (response.status === 503 && ctx.storeUnavailable
        ? undefined
        : await deps.limiter.peek(rateLimitKey(ctx)).catch(() => undefined));
    // Responses are built fresh per request, so their headers are completed in place (this is the hot path).
    const headers = response.headers;
    headers['access-control-allow-origin'] = CORS_HEADERS['access-control-allow-origin'];
    headers['access-control-expose-headers'] = CORS_HEADERS['access-control-expose-headers'];
    if (quota) writeRateLimitHeaders(headers, quota);
    else writeKnownRateLimitHeaders(headers, deps.limiter.withoutStore());
    if (ctx.closeConnection) headers.connection = 'close';
    // x-rules deprecation-sunset: every answer of a retiring operation says so.
    const retirement = retirementHeaderValues(ctx.route?.operation.retirement);
    if (retirement) {
      headers.deprecation = retirement.deprecation;
      if (retirement.sunset) headers.sunset = retirement.sunset;
    }
    return response;
  };
}

/** The last stage before serialise: `hooks.beforeSend` may replace the finished response. */
export function runBeforeSend(hooks?: MockHooks): Stage {
  return async (ctx, next) => {
    let response = await next();
    if (!hooks?.beforeSend) return response;
    // Hooks may edit the body in place; a shared (frozen) body is handed over as a copy.
    if (response.body && typeof response.body === 'object' && Object.isFrozen(response.body))
      response = { ...response, body: structuredClone(response.body) };
    try {
      return hooks.beforeSend(ctx.req, response) ?? response;
    } catch (error) {
      return renderError(error);
    }
  };
}

/**
 * Answers CORS preflights before the rate limit: browsers send them on their own, without credentials, so they
 * are never counted nor refused. Their rate-limit headers report (without counting) the bucket of the caller as
 * authenticate found it: the workspace's with a valid credential, else the client address's.
 */
export function answerPreflight(): Stage {
  return async (ctx, next) => {
    const { req } = ctx;
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return next();
    return {
      status: 204,
      headers: {
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers':
          req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, Idempotency-Key, Prefer',
        'access-control-max-age': '600',
        // Private Network Access: a page served from elsewhere (or a file) may call the mock on loopback.
        ...(req.headers['access-control-request-private-network'] === 'true'
          ? { 'access-control-allow-private-network': 'true' }
          : {}),
      },
      body: undefined,
    };
  };
}
