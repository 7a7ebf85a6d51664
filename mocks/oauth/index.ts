import type { MockRequest, MockResponse } from '../types';
import type { RouteTable } from '../stages/route/table';
import type { AuthClient, AuthContext, AuthServerOptions } from './context';
import { sameAudience, userClaims } from './context';
import { handleAuthorize } from './authorize';
import { DEFAULT_GRANT_LIMITS, GrantStore, type MockUser } from './grants';
import { loadSharedSigningKey, verifyJwt, type SigningKey } from './jwt';
import { createMemoryPort } from '../store/adapters/memory';
import { buildMetadata, metadataPaths } from './metadata';
import { accessTokenType, handleToken } from './token';
import { formOf, isFormEncoded, json, noStoreHeaders, readParams, tokenError } from './http';

export type { AuthClient, AuthServerOptions } from './context';
export type { MockUser } from './grants';

/** One OAuth endpoint: the request as the front door read it (form bodies bounded like every body). */
export type AuthServe = (req: MockRequest) => Promise<MockResponse> | MockResponse;

export type AuthServer = {
  /** The OAuth endpoints under the issuer's path, by path and method; the front door's auth mount serves them. */
  routes: RouteTable<AuthServe>;
  /** The caller of an access token this server issued, or null when unknown, expired or revoked. */
  verifyAccessToken(token: string): Promise<{ workspaceUuid: string; sub: string } | null>;
  /** Revokes an access token, or a refresh token with every token of its grant. */
  revoke(token: string): Promise<void>;
};

/** The mock's documented OAuth defaults: one public client with `/callback` on every loopback port, one user per seeded workspace. */
export const defaultAuthConfig: { clients: AuthClient[]; users: MockUser[]; accessTokenTtlSeconds: number } = {
  clients: [
    {
      clientId: 'mock-frontend',
      // Loopback URIs match on any port (RFC 8252 §7.3): a dev server on 3000, 4200, 5173, 5174 or 8080 logs in.
      redirectUris: ['http://localhost/callback', 'http://127.0.0.1/callback', 'http://[::1]/callback'],
    },
  ],
  users: [
    {
      sub: 'mock-user-a',
      email: 'ada@workspace-a.example',
      name: 'Ada Mock',
      workspaceUuid: '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
    },
    {
      sub: 'mock-user-b',
      email: 'bo@workspace-b.example',
      name: 'Bo Mock',
      workspaceUuid: '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
    },
  ],
  accessTokenTtlSeconds: 3600,
};

/**
 * An OAuth 2.0 authorization server for public clients with PKCE (S256), as the spec's Authentication section
 * describes: `{auth_url}/authorize`, `{auth_url}/oauth/token`, `{auth_url}/.well-known/oauth-authorization-server`.
 */
export function createAuthServer(options: AuthServerOptions): AuthServer {
  const issuer = options.issuer.replace(/\/+$/, '');
  const port = options.port ?? createMemoryPort({ now: options.now });
  let signingKey: Promise<SigningKey> | undefined;
  const issuerPath = new URL(issuer).pathname.replace(/\/+$/, '');
  const ctx: AuthContext = {
    options,
    issuer,
    key: () =>
      (signingKey ??= loadSharedSigningKey(port).catch((error: unknown) => {
        // Not kept: the next request tries again (the store may be back by then).
        signingKey = undefined;
        throw error;
      })),
    grants: new GrantStore(port, options.now, { ...DEFAULT_GRANT_LIMITS, ...options.grantLimits }),
    endpoints: {
      authorization: `${issuer}/authorize`,
      token: `${issuer}/oauth/token`,
      revocation: `${issuer}/oauth/revoke`,
      jwks: `${issuer}/.well-known/jwks.json`,
      userinfo: `${issuer}/userinfo`,
    },
  };
  const metadataAt = new Set(metadataPaths(issuerPath));

  const readAccessToken = async (token: string) => {
    const claims = verifyJwt(await ctx.key(), token, accessTokenType);
    if (
      !claims ||
      claims.iss !== issuer ||
      typeof claims.aud !== 'string' ||
      !sameAudience(claims.aud, options.audience)
    ) {
      return null;
    }
    const { sub, workspaceUuid, jti, sid, exp, scope } = claims;
    if (
      typeof sub !== 'string' ||
      typeof workspaceUuid !== 'string' ||
      typeof jti !== 'string' ||
      typeof sid !== 'string' ||
      typeof scope !== 'string' ||
      typeof exp !== 'number'
    ) {
      return null;
    }
    return { sub, workspaceUuid, jti, sid, scope, exp };
  };

  const revoke = async (token: string) => {
    const access = await readAccessToken(token);
    if (access) return ctx.grants.revokeTokenId(access.jti, access.exp * 1000, access.sid);
    const grant = await ctx.grants.findRefreshGrant(token);
    if (grant) await ctx.grants.revokeGrant(grant.id);
  };

  /** @see https://www.rfc-editor.org/rfc/rfc7009#section-2 (unknown tokens also answer 200) */
  const handleRevocation: AuthServe = async (req) => {
    if (!isFormEncoded(req))
      return tokenError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
    const token = readParams(formOf(req)).get('token');
    if (!token) return tokenError('invalid_request', 'token is required.');
    await revoke(token);
    return json(200, {}, noStoreHeaders);
  };

  const verifyAccessToken = async (token: string) => {
    const access = await readAccessToken(token);
    if (!access || access.exp * 1000 <= options.now() || (await ctx.grants.isRevoked(access.jti, access.sid)))
      return null;
    return access;
  };

  /** @see https://openid.net/specs/openid-connect-core-1_0.html#UserInfo (claims follow the granted scope) */
  const handleUserInfo: AuthServe = async (req) => {
    const token = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const access = token ? await verifyAccessToken(token) : null;
    const user = access && options.users.find((u) => u.sub === access.sub);
    if (!access || !user) {
      const description = 'A valid access token is required.';
      return tokenError('invalid_token', description, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    return json(200, userClaims(user, access.scope.split(' ')), noStoreHeaders);
  };

  const routes = new Map<string, ReadonlyMap<string, AuthServe>>([
    [`${issuerPath}/authorize`, new Map([['GET', (req: MockRequest) => handleAuthorize(ctx, req)]])],
    [`${issuerPath}/oauth/token`, new Map([['POST', (req: MockRequest) => handleToken(ctx, req)]])],
    [`${issuerPath}/oauth/revoke`, new Map([['POST', handleRevocation]])],
    [`${issuerPath}/userinfo`, new Map([['GET', handleUserInfo]])],
    [
      `${issuerPath}/.well-known/jwks.json`,
      new Map([['GET', async () => json(200, { keys: [(await ctx.key()).jwk] })]]),
    ],
  ]);
  for (const path of metadataAt) routes.set(path, new Map([['GET', () => json(200, buildMetadata(ctx))]]));

  return {
    routes,
    async verifyAccessToken(token) {
      const access = await verifyAccessToken(token);
      return access && { workspaceUuid: access.workspaceUuid, sub: access.sub };
    },
    revoke,
  };
}
