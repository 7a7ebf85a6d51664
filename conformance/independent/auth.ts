/**
 * Authentication: a bearer token names a workspace; a /v1 request without one is 401. The broken variants here
 * accept near misses of a token, take it from other channels, or serve an endpoint without it.
 */
import type { NextFunction, Request, Response } from 'express';
import { HttpError, TOKENS, type Context, type Workspace } from './context';

/** The workspace an `Authorization` header names, if any. */
export function callerOf(ctx: Context, authorization: string | undefined): Workspace | undefined {
  const match = /^bearer +(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match) return undefined;
  const token = match[1];
  for (const [known, label] of Object.entries(TOKENS)) {
    if (token === known) return ctx.workspaces[label];
    if (ctx.broken('token-prefix-accepted') && known.startsWith(token) && token.length >= 8)
      return ctx.workspaces[label];
    if (ctx.broken('token-suffix-accepted') && token.startsWith(known)) return ctx.workspaces[label];
    if (ctx.broken('token-case-insensitive') && token.toLowerCase() === known.toLowerCase())
      return ctx.workspaces[label];
  }
  return undefined;
}

/** Broken servers that also take the token from the query string or a cookie, as some frameworks offer. */
export function smuggledCaller(ctx: Context, req: Request): Workspace | undefined {
  const query = req.query as Record<string, unknown>;
  const fromQuery = query.access_token ?? query.token;
  if (ctx.broken('token-in-query-accepted') && typeof fromQuery === 'string')
    return callerOf(ctx, `Bearer ${fromQuery}`);
  const cookie = /(?:^|;\s*)(?:access_token|token)=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  if (ctx.broken('token-in-cookie-accepted') && cookie) return callerOf(ctx, `Bearer ${cookie}`);
  if (ctx.broken('basic-accepted') && /^basic /i.test(req.headers.authorization ?? '')) return ctx.workspaces.a;
  const header = req.headers['x-api-key'];
  if (ctx.broken('token-in-other-header-accepted') && typeof header === 'string')
    return callerOf(ctx, `Bearer ${header}`);
  return undefined;
}

/** The /v1 stage: a request without a caller (found by the rate limiter) is 401. */
export const requireCaller = (ctx: Context) => (req: Request, res: Response, next: NextFunction) => {
  // A broken server that validates the query before it authenticates (its framework's order).
  const limit = (req.query as Record<string, unknown>).limit;
  if (
    !res.locals.caller &&
    ctx.broken('validation-before-auth') &&
    typeof limit === 'string' &&
    !/^[1-9]\d*$/.test(limit)
  )
    return next(new HttpError(400, 'invalid_limit', 'limit must be a positive integer.'));
  if (!res.locals.caller) {
    if (ctx.broken('endpoint-without-auth') && req.method === 'GET' && req.path === '/expression/recipes/list') {
      res.locals.caller = ctx.workspaces.a;
      return next();
    }
    return next(
      new HttpError(
        ctx.broken('status 401') ? 403 : 401,
        'credential_missing',
        'Send Authorization: Bearer <API token>.',
      ),
    );
  }
  next();
};
