import type { MockRequest, MockResponse } from '../types';
import { userClaims, type AuthContext } from './context';
import type { Grant } from './grants';
import { isCodeVerifier, randomToken, signJwt, verifyS256 } from './jwt';
import { formOf, isFormEncoded, json, noStoreHeaders, readParams, tokenError } from './http';

/** `typ` of access tokens. @see https://www.rfc-editor.org/rfc/rfc9068#section-2.1 */
export const accessTokenType = 'at+jwt';

/**
 * Issues the token response of a grant: a JWT access token for the API, a rotated refresh token when
 * `offline_access` was granted, an ID token when `openid` was.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
async function issueTokens(
  ctx: AuthContext,
  grant: Grant,
  options: { scope?: string[]; nonce?: string; idToken: boolean },
): Promise<Record<string, unknown>> {
  const key = await ctx.key();
  const now = Math.floor(ctx.options.now() / 1000);
  const ttl = ctx.options.accessTokenTtlSeconds;
  const scope = (options.scope ?? grant.scope).join(' ');
  const accessToken = signJwt(key, accessTokenType, {
    iss: ctx.issuer,
    sub: grant.user.sub,
    aud: ctx.options.audience,
    client_id: grant.clientId,
    scope,
    iat: now,
    exp: now + ttl,
    jti: randomToken(16),
    sid: grant.id,
    workspaceUuid: grant.user.workspaceUuid,
  });
  const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, scope };
  if (grant.scope.includes('offline_access')) body.refresh_token = await ctx.grants.issueRefreshToken(grant);
  if (options.idToken && grant.scope.includes('openid')) {
    body.id_token = signJwt(key, 'JWT', {
      ...userClaims(grant.user, grant.scope),
      iss: ctx.issuer,
      aud: grant.clientId,
      iat: now,
      exp: now + ttl,
      auth_time: Math.floor(grant.authTime / 1000),
      ...(options.nonce ? { nonce: options.nonce } : {}),
    });
  }
  return body;
}

type Params = ReturnType<typeof readParams>;

/** @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3 and https://www.rfc-editor.org/rfc/rfc7636#section-4.6 */
async function exchangeCode(ctx: AuthContext, params: Params, clientId: string): Promise<MockResponse> {
  const code = params.get('code');
  const redirectUri = params.get('redirect_uri');
  const verifier = params.get('code_verifier');
  if (!code || !redirectUri || !verifier) {
    return tokenError('invalid_request', 'code, redirect_uri and code_verifier are required.');
  }
  const redemption = await ctx.grants.redeemCode(code);
  if (redemption.status === 'reused') {
    // A code presented twice may have been stolen: everything issued under it stops working.
    await ctx.grants.revokeGrant(redemption.grant.id);
    return tokenError('invalid_grant', 'The authorization code was already used.');
  }
  if (redemption.status === 'invalid')
    return tokenError('invalid_grant', 'The authorization code is unknown or expired.');
  const { entry } = redemption;
  if (entry.grant.clientId !== clientId) return tokenError('invalid_grant', 'The code was issued to another client.');
  if (entry.redirectUri !== redirectUri) {
    return tokenError('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
  }
  if (!isCodeVerifier(verifier) || !verifyS256(verifier, entry.codeChallenge)) {
    return tokenError('invalid_grant', 'code_verifier does not match the code_challenge.');
  }
  const held = await ctx.grants.holdGrant(entry.grant, ctx.options.accessTokenTtlSeconds * 1000);
  // A client over its own bound is refused; nothing anyone else holds was touched.
  if (held) return tokenError('temporarily_unavailable', held.refused);
  return json(200, await issueTokens(ctx, entry.grant, { nonce: entry.nonce, idToken: true }), noStoreHeaders);
}

/** @see https://www.rfc-editor.org/rfc/rfc6749#section-6 */
async function refresh(ctx: AuthContext, params: Params, clientId: string): Promise<MockResponse> {
  const token = params.get('refresh_token');
  if (!token) return tokenError('invalid_request', 'refresh_token is required.');
  const redemption = await ctx.grants.redeemRefreshToken(token);
  if (redemption.status === 'reused') {
    // Reuse after the grace: one of two holders of the token may be a thief (RFC 9700 §4.14.2).
    await ctx.grants.revokeGrant(redemption.grant.id);
    return tokenError('invalid_grant', 'The refresh token was already used; the grant is revoked.');
  }
  if (redemption.status === 'invalid')
    return tokenError('invalid_grant', 'The refresh token is unknown, expired or revoked.');
  const { grant } = redemption;
  if (grant.clientId !== clientId)
    return tokenError('invalid_grant', 'The refresh token was issued to another client.');
  if (redemption.status === 'concurrent') {
    // Within the grace the same token gets the same answer: the pair its rotation issued, not a second one.
    if (redemption.answer) return json(200, redemption.answer, noStoreHeaders);
    return tokenError('invalid_grant', 'The refresh token was just used by a refresh that failed.');
  }
  // A narrower scope shapes only the new access token; the rotated refresh token keeps the grant's scope.
  const requested = params.get('scope');
  const scope = requested ? [...new Set(requested.split(' ').filter(Boolean))] : undefined;
  const extra = scope?.find((s) => !grant.scope.includes(s));
  if (extra) return tokenError('invalid_scope', `The scope ${extra} was not granted.`);
  const answer = await issueTokens(ctx, grant, { scope, idToken: false });
  await ctx.grants.recordRotation(token, answer);
  return json(200, answer, noStoreHeaders);
}

/** The token endpoint, for public clients (client_id in the body, no secret). */
export async function handleToken(ctx: AuthContext, req: MockRequest): Promise<MockResponse> {
  if (!isFormEncoded(req)) return tokenError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  const params = readParams(formOf(req));
  if (params.duplicate) return tokenError('invalid_request', `The parameter ${params.duplicate} is repeated.`);
  const clientId = params.get('client_id');
  if (!clientId) return tokenError('invalid_request', 'client_id is required (public client, auth method none).');
  if (!ctx.options.clients.some((c) => c.clientId === clientId)) {
    return tokenError('invalid_client', 'The client is not registered.');
  }
  const grantType = params.get('grant_type');
  if (!grantType) return tokenError('invalid_request', 'grant_type is required.');
  if (grantType === 'authorization_code') return exchangeCode(ctx, params, clientId);
  if (grantType === 'refresh_token') return refresh(ctx, params, clientId);
  return tokenError('unsupported_grant_type', `The grant type ${grantType} is not supported.`);
}
