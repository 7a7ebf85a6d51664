import { retirementHeaderValues } from '../../../spec/lib/operations';
import { ApiError, toApiError } from '../../errors';
import { jsonResponse, type Ctx, type Stage } from '../../context';
import { whenKnown } from '../../maybe-promise';
import type { MockResponse } from '../../types';
import {
  writeKnownRateLimitHeaders,
  writeRateLimitHeaders,
  type RateLimiter,
  type RateLimitState,
} from '../rate-limit/limiter';
import { apiRateLimit, rateLimitKey } from '../rate-limit';
import { StoreUnavailableError } from '../../store/port';
import { API_CORS, writeCorsHeaders, type CorsPolicy } from '../cors';
import { announcesBody } from '../read-body/announces-body';
import { reportProblem } from '../../web/report';

/** What a mount's clients expect beside the error shape (OAuth's `error` and `error_description`, no-store). */
export type ErrorDialect = (error: ApiError) => { body: Record<string, unknown>; headers?: Record<string, string> };

/** The one error serialiser (x-rules error-shape): anything thrown becomes the contract's error body. */
export function renderError(error: unknown, dialect?: ErrorDialect): MockResponse {
  const apiError = toApiError(error);
  // An unreachable store is reported once by its adapter, not once per request.
  if (!(error instanceof ApiError) && !(error instanceof StoreUnavailableError))
    reportProblem(`mock: unexpected failure: ${(error as Error)?.stack ?? error}`);
  if (!dialect) return jsonResponse(apiError.status, apiError.toBody(), { ...apiError.headers });
  const extra = dialect(apiError);
  return jsonResponse(
    apiError.status,
    { ...extra.body, ...apiError.toBody() },
    { ...extra.headers, ...apiError.headers },
  );
}

export type FinishDeps = {
  limiter: RateLimiter;
  /** The mount's CORS policy (default: the API's). */
  cors?: CorsPolicy;
  /** The bucket an answer reports when the request was not counted (default: the caller's, else the address's). */
  bucket?: (ctx: Ctx) => string;
  /** The limit of that bucket (default: the API's limit steering the request). */
  limit?: (ctx: Ctx) => number | undefined;
  dialect?: ErrorDialect;
};

/**
 * Errors rendered in the contract's shape, and the headers every response carries (rate limit, CORS) added in
 * this one place, so no path can skip them. Every mount begins with it.
 */
export function finishResponse(deps: FinishDeps): Stage {
  const cors = deps.cors ?? API_CORS;
  const bucketOf = deps.bucket ?? rateLimitKey;
  const limitOf = deps.limit ?? apiRateLimit;
  /** The headers every answer carries, added once its quota is known. */
  const complete = (ctx: Ctx, response: MockResponse, quota: RateLimitState | undefined): MockResponse => {
    // Responses are built fresh per request, so their headers are completed in place (this is the hot path).
    const headers = response.headers;
    writeCorsHeaders(headers, cors, ctx.req.headers.origin);
    if (quota) writeRateLimitHeaders(headers, quota);
    else writeKnownRateLimitHeaders(headers, deps.limiter.withoutStore(limitOf(ctx)));
    // The rest of a body that was not read stays on the connection: it is closed after the answer.
    if (!ctx.bodyRead && announcesBody(ctx.req.headers)) headers.connection = 'close';
    // x-rules deprecation-sunset: every answer of a retiring operation says so.
    const retirement = retirementHeaderValues(ctx.route?.operation.retirement);
    if (retirement) {
      headers.deprecation = retirement.deprecation;
      if (retirement.sunset) headers.sunset = retirement.sunset;
    }
    return response;
  };
  const finish = (ctx: Ctx, response: MockResponse): MockResponse | Promise<MockResponse> => {
    // Counted (the usual request): its count is known, nothing to wait for.
    if (ctx.rateLimit) return complete(ctx, response, ctx.rateLimit);
    // Not counted (an answer before the rate-limit stage, or a mount that does not count): read the count; with
    // the store unreachable (503), only what the clock and the settings tell.
    if (response.status === 503) return complete(ctx, response, undefined);
    return deps.limiter.peek(bucketOf(ctx), limitOf(ctx)).then(
      (quota) => complete(ctx, response, quota),
      () => complete(ctx, response, undefined),
    );
  };
  // Taken when known rather than awaited: an answer known at once is completed at once, no promise of this stage's own;
  // a waiting one is then-chained, one promise, not one per await (the hot path).
  return (ctx, next) =>
    whenKnown(
      next(),
      (response) => finish(ctx, response),
      (error: unknown) => finish(ctx, renderError(error, deps.dialect)),
    );
}
