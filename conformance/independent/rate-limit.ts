/**
 * The rate limiter, first of all stages so that 401s and 404s carry its headers too: a sliding window per workspace
 * (or a fixed one, the other reading), unknown callers sharing one anonymous bucket. It also finds the caller.
 */
import type { NextFunction, Request, Response } from 'express';
import { callerOf, smuggledCaller } from './auth';
import type { Context } from './context';

type Count = { over: boolean; remaining: number; reset: number };

/** Counts the request in `bucket` (unless it is over the limit) and says what is left. */
function count(ctx: Context, bucket: string): Count {
  const { limit, windowMs, readings } = ctx;
  const now = Date.now();
  const windowStart = readings.limiter === 'fixed' ? Math.floor(now / windowMs) * windowMs : now - windowMs;
  const list = (ctx.hits.get(bucket) ?? []).filter((t) => t > windowStart);
  const over = list.length >= limit && !ctx.broken('no-429');
  if (!over) list.push(now);
  ctx.hits.set(bucket, list);
  const counted = Math.max(0, limit - list.length);
  const remaining = ctx.broken('remaining-constant')
    ? limit - 1
    : ctx.broken('remaining-off-by-one') && !over
      ? Math.min(limit, counted + 1)
      : counted;
  const resetMs =
    readings.limiter === 'fixed' ? windowStart + windowMs - now : list.length > 0 ? list[0] + windowMs - now : windowMs;
  return { over, remaining, reset: Math.max(1, Math.min(windowMs / 1000, Math.ceil(resetMs / 1000))) };
}

function refuse(ctx: Context, res: Response, reset: number): void {
  const window = ctx.windowMs / 1000;
  const extra = ctx.readings.retryAfterInBody ? { retryAfter: reset } : {};
  if (!ctx.broken('429-without-retry-after'))
    res.set('Retry-After', String(ctx.broken('retry-after-in-milliseconds') ? reset * 1000 : reset));
  res.status(ctx.broken('status 429') ? 503 : 429).json({
    errorMessage: `Slow down: the workspace quota of ${ctx.limit} requests per ${window} s is spent.`,
    reason: 'quota_exhausted',
    ...extra,
  });
}

export const rateLimit = (ctx: Context) => (req: Request, res: Response, next: NextFunction) => {
  const caller = callerOf(ctx, req.headers.authorization) ?? smuggledCaller(ctx, req);
  const bucket = ctx.broken('rate-limit-shared-across-workspaces') ? 'all' : (caller?.uuid ?? 'anonymous');
  res.locals.caller = caller;
  const { over, remaining, reset } = count(ctx, bucket);
  const headers = ctx.facts.rateLimitHeaders(ctx.limit, remaining, reset, ctx.windowMs / 1000);
  for (const name of Object.keys(headers)) if (ctx.broken(`drop-header ${name}`)) delete headers[name];
  if (!(ctx.broken('401-without-rate-limit-headers') && !caller)) res.set(headers);
  if (over) return refuse(ctx, res, reset);
  next();
};
