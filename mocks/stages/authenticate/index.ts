import { ApiError } from '../../errors';
import type { Ctx, Identity, Stage } from '../../context';

/** Async: an OAuth token's revocation is looked up in the store (shared by every replica). */
export type VerifyAccessToken = (token: string) => Promise<{ workspaceUuid: string; sub: string } | null>;
export type AuthenticateDeps = {
  tokens: Record<string, string> | ReadonlyMap<string, string>;
  verifyAccessToken?: VerifyAccessToken;
};

/** Tokens as a Map: a token such as `constructor` or `__proto__` must not find Object.prototype's members. */
export function tokenTable(tokens: AuthenticateDeps['tokens']): ReadonlyMap<string, string> {
  return tokens instanceof Map ? tokens : new Map(Object.entries(tokens));
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Resolves a static token, else an OAuth access token: the caller, or why there is none. */
export async function identifyCaller(authorization: string | undefined, deps: AuthenticateDeps): Promise<Identity> {
  if (!authorization)
    return { unidentified: 'Authorization: header is missing; send "Authorization: Bearer <token>".' };
  const scheme = authorization.trim().split(/\s+/)[0];
  if (scheme.toLowerCase() !== 'bearer')
    return { unidentified: `Authorization: scheme "${scheme}" is not supported; use Bearer.` };
  const match = BEARER.exec(authorization.trim());
  if (!match) return { unidentified: 'Authorization: the bearer token is malformed.' };
  const token = match[1];
  const workspaceUuid = tokenTable(deps.tokens).get(token);
  if (typeof workspaceUuid === 'string' && workspaceUuid) return { caller: { workspaceUuid, via: 'token' } };
  const verified = await deps.verifyAccessToken?.(token);
  if (verified) return { caller: { workspaceUuid: verified.workspaceUuid, sub: verified.sub, via: 'oauth' } };
  return { unidentified: 'Authorization: the token is unknown or expired.' };
}

/** x-rules auth-required-401: the answer to a request without a valid credential, saying why. */
export function unauthorized(why: string): ApiError {
  return new ApiError(401, 'unauthorized', why, {}, { 'www-authenticate': 'Bearer realm="api"' });
}

/**
 * Finds who is calling: the caller, or why there is none. The rate limiter counts the request first (in the
 * bucket the identity names), then require-credential answers the 401, so it carries real quota headers.
 */
export function authenticate(options: AuthenticateDeps): Stage {
  const deps = { ...options, tokens: tokenTable(options.tokens) };
  // A static token names the same workspace for the server's life: its identity is read once per header text.
  const known = new Map<string, Identity>();
  const identify = async (ctx: Ctx, authorization: string | undefined) => {
    const identity = await identifyCaller(authorization, deps);
    ctx.identity = identity;
    if (authorization !== undefined && 'caller' in identity && identity.caller.via === 'token') {
      if (known.size >= KNOWN_HEADERS) known.clear();
      known.set(authorization, Object.freeze({ caller: Object.freeze(identity.caller) }));
    }
  };
  return (ctx, next) => {
    const authorization = ctx.req.headers.authorization;
    const seen = authorization === undefined ? undefined : known.get(authorization);
    if (!seen) return identify(ctx, authorization).then(next);
    ctx.identity = seen;
    return next();
  };
}

/** Header texts remembered at most (spellings of the static tokens: `Bearer  t`, `bearer t`, …). */
const KNOWN_HEADERS = 256;
