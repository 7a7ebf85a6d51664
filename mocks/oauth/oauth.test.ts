import { createServer, type Server } from 'node:http';
import { serveOAuth } from '../testing/oauth-server';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { createAuthServer, defaultAuthConfig, type AuthServer } from './index';
import { refreshGraceMs } from './grants';
import { defined } from '../testing/defined';

/**
 * The whole PKCE flow driven by a real client library (oauth4webapi) against the auth server on loopback HTTP, plus a
 * stand-in API route that authenticates with verifyAccessToken (x-rules: auth-required-401).
 */
const workspaceA = defaultAuthConfig.users[0].workspaceUuid;
const workspaceB = defaultAuthConfig.users[1].workspaceUuid;
const redirectUri = 'http://127.0.0.1:5173/callback';
const client: oauth.Client = { client_id: 'mock-frontend' };
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let server: Server;
let auth: AuthServer;
let origin: string;
let issuer: URL;
let as: oauth.AuthorizationServer;
let clockOffsetMs = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    void serveOAuth(auth, req, res, url).then(async (served) => {
      if (served) return;
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const caller = token ? await auth.verifyAccessToken(token) : null;
      res.writeHead(caller ? 200 : url.pathname === '/v1/whoami' ? 401 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(caller ?? { errorMessage: 'A valid credential is required.', reason: 'unauthorized' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = new URL(`${origin}/auth`);
  auth = createAuthServer({
    ...defaultAuthConfig,
    issuer: issuer.href,
    audience: origin,
    basePath: '/v1',
    now: () => Date.now() + clockOffsetMs,
  });
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  clockOffsetMs = 0;
});

type AuthorizeOptions = { params?: Record<string, string | undefined>; verifier?: string };

/** The browser's part: open the authorization URL and read where the server redirects to. */
async function authorize(options: AuthorizeOptions = {}) {
  const verifier = options.verifier ?? oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(defined(as.authorization_endpoint, 'as.authorization_endpoint'));
  const params: Record<string, string | undefined> = {
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    audience: origin,
    ...options.params,
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: 'manual' });
  return { response, verifier, state, location: response.headers.get('location') };
}

async function authorizeAndCallback(options: AuthorizeOptions = {}) {
  const { location, verifier, state, response } = await authorize(options);
  expect(response.status).toBe(302);
  const callback = oauth.validateAuthResponse(as, client, new URL(defined(location, 'location')), state);
  return { callback, verifier };
}

const exchange = (callback: URLSearchParams, verifier: string, uri = redirectUri) =>
  oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, uri, verifier, insecure);

async function login(options: AuthorizeOptions = {}) {
  const { callback, verifier } = await authorizeAndCallback(options);
  return oauth.processAuthorizationCodeResponse(as, client, await exchange(callback, verifier));
}

const callApi = (token: string) => fetch(`${origin}/v1/whoami`, { headers: { Authorization: `Bearer ${token}` } });

/** The token endpoint's error, as the client library surfaces it. */
async function tokenError(response: Promise<Response>, process = oauth.processAuthorizationCodeResponse) {
  const res = await response;
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
  const error = await process(as, client, res).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(oauth.ResponseBodyError);
  return (error as oauth.ResponseBodyError).error;
}

describe('OAuth 2.0 authorization server (PKCE)', () => {
  it('should publish RFC 8414 metadata at the issuer path and at the RFC 8414 §3.1 location', async () => {
    for (const path of [
      '/auth/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/auth',
    ]) {
      const metadata = (await (await fetch(`${origin}${path}`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        issuer: `${origin}/auth`,
        authorization_endpoint: `${origin}/auth/authorize`,
        token_endpoint: `${origin}/auth/oauth/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
  });

  it('should serve the same metadata to OpenID Connect discovery', async () => {
    const oidc = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    expect(oidc).toEqual(as);
  });

  it('should answer userinfo with the claims of the granted scope', async () => {
    const tokens = await login({ params: { scope: 'openid email' } });
    const res = await oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect(await oauth.processUserInfoResponse(as, client, 'mock-user-a', res)).toEqual({
      sub: 'mock-user-a',
      email: 'ada@workspace-a.example',
      email_verified: true,
    });
  });

  it('should run the whole flow and issue a token that authenticates as the user workspace', async () => {
    const tokens = await login();
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      sub: 'mock-user-a',
      email: 'ada@workspace-a.example',
    });
    const res = await callApi(tokens.access_token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ workspaceUuid: workspaceA, sub: 'mock-user-a' });
  });

  it('should sign access tokens for the API audience with the workspace claim', async () => {
    const tokens = await login();
    const request = new Request(`${origin}/v1/whoami`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    const claims = await oauth.validateJwtAccessToken(as, request, origin, insecure);
    expect(claims).toMatchObject({ iss: `${origin}/auth`, aud: origin, sub: 'mock-user-a', workspaceUuid: workspaceA });
  });

  it.each([
    ['the host with its port', (o: string) => new URL(o).host],
    ['the origin', (o: string) => o],
    ['the base URL with /v1', (o: string) => `${o}/v1`],
    ['the base URL with a trailing slash', (o: string) => `${o}/v1/`],
    ['the host with a trailing slash', (o: string) => `${new URL(o).host}/`],
    ['the origin named localhost', (o: string) => o.replace('127.0.0.1', 'localhost')],
    ['the host named localhost', (o: string) => new URL(o).host.replace('127.0.0.1', 'localhost')],
    ['the base URL named [::1]', (o: string) => `${o.replace('127.0.0.1', '[::1]')}/v1`],
  ])('should accept %s as the audience and sign the token for the one API audience', async (_name, spell) => {
    const tokens = await login({ params: { audience: spell(origin) } });
    const request = new Request(`${origin}/v1/whoami`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect((await oauth.validateJwtAccessToken(as, request, origin, insecure)).aud).toBe(origin);
    expect((await callApi(tokens.access_token)).status).toBe(200);
  });

  it.each([
    ['another port', (o: string) => o.replace(/:\d+$/, ':1')],
    ['another scheme', (o: string) => o.replace('http:', 'https:')],
    ['another base path', (o: string) => `${o}/v2`],
    ['a path below the base', (o: string) => `${o}/v1/orchestration`],
    ['another host', (o: string) => o.replace('127.0.0.1', 'example.com')],
    ['localhost on another port', (o: string) => o.replace('127.0.0.1', 'localhost').replace(/:\d+$/, ':1')],
    ['another loopback address', (o: string) => o.replace('127.0.0.1', '127.0.0.2')],
  ])('should refuse %s as the audience with invalid_target', async (_name, spell) => {
    const { location } = await authorize({ params: { audience: spell(origin) } });
    const callback = new URL(defined(location, 'location'));
    expect(callback.searchParams.get('error')).toBe('invalid_target');
    expect(callback.searchParams.get('error_description')).toContain(`${origin}/v1`);
  });

  it('should state the audience and its accepted spellings in the metadata', () => {
    expect(as).toMatchObject({
      audience: origin,
      audience_forms_accepted: expect.arrayContaining([new URL(origin).host, origin, `${origin}/v1`, `${origin}/v1/`]),
    });
  });

  it('should approve the user named by login_hint', async () => {
    const tokens = await login({ params: { login_hint: 'bo@workspace-b.example' } });
    expect(await auth.verifyAccessToken(tokens.access_token)).toEqual({
      workspaceUuid: workspaceB,
      sub: 'mock-user-b',
    });
  });

  it('should refuse a wrong code_verifier with invalid_grant', async () => {
    const { callback } = await authorizeAndCallback();
    expect(await tokenError(exchange(callback, oauth.generateRandomCodeVerifier()))).toBe('invalid_grant');
  });

  it('should refuse a reused code and revoke what it issued', async () => {
    const { callback, verifier } = await authorizeAndCallback();
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange(callback, verifier));
    expect(await tokenError(exchange(callback, verifier))).toBe('invalid_grant');
    expect((await callApi(tokens.access_token)).status).toBe(401);
  });

  it('should refuse a redirect_uri that differs from the authorization request', async () => {
    const { callback, verifier } = await authorizeAndCallback();
    expect(await tokenError(exchange(callback, verifier, 'http://localhost:5173/callback'))).toBe('invalid_grant');
  });

  it('should refuse a code after it expired', async () => {
    const { callback, verifier } = await authorizeAndCallback();
    clockOffsetMs = 61_000;
    expect(await tokenError(exchange(callback, verifier))).toBe('invalid_grant');
  });

  it.each([
    ['a missing audience', { audience: undefined }, 'invalid_request'],
    ['another audience', { audience: 'http://127.0.0.1:1' }, 'invalid_target'],
    ['a plain challenge', { code_challenge_method: 'plain', code_challenge: 'x'.repeat(43) }, 'invalid_request'],
    ['no challenge method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a missing code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['a missing state', { state: undefined }, 'invalid_request'],
    ['an unknown scope', { scope: 'openid admin' }, 'invalid_scope'],
    ['another response_type', { response_type: 'token' }, 'unsupported_response_type'],
    ['an unknown login_hint', { login_hint: 'nobody@example.com' }, 'access_denied'],
  ])('should redirect %s back with an error', async (_name, params, error) => {
    const { response, location, state } = await authorize({ params });
    expect(response.status).toBe(302);
    const callback = new URL(defined(location, 'location'));
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('error')).toBe(error);
    expect(callback.searchParams.get('error_description')).toEqual(expect.any(String));
    expect(callback.searchParams.get('iss')).toBe(`${origin}/auth`);
    expect(callback.searchParams.has('code')).toBe(false);
    const sentState = !('state' in params);
    expect(callback.searchParams.get('state')).toBe(sentState ? state : null);
    const expectedState = sentState ? state : oauth.expectNoState;
    expect(() => oauth.validateAuthResponse(as, client, callback, expectedState)).toThrow(
      oauth.AuthorizationResponseError,
    );
  });

  it.each([
    ['an unregistered redirect_uri', { redirect_uri: 'http://127.0.0.1:5173/evil' }],
    ['a missing redirect_uri', { redirect_uri: undefined }],
    ['an unknown client', { client_id: 'someone-else' }],
  ])('should answer %s with a 400 page and never redirect', async (_name, params) => {
    const { response, location } = await authorize({ params });
    expect(response.status).toBe(400);
    expect(location).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('should refuse a token that expired with the API 401', async () => {
    const tokens = await login();
    expect((await callApi(tokens.access_token)).status).toBe(200);
    clockOffsetMs = (defaultAuthConfig.accessTokenTtlSeconds + 1) * 1000;
    const res = await callApi(tokens.access_token);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ errorMessage: expect.any(String), reason: 'unauthorized' });
  });

  it('should refuse a revoked access token', async () => {
    const tokens = await login();
    await auth.revoke(tokens.access_token);
    expect((await callApi(tokens.access_token)).status).toBe(401);
  });

  it('should rotate refresh tokens and revoke the grant when a rotated one is reused after the grace', async () => {
    const first = await login();
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.None(),
        defined(first.refresh_token, 'first.refresh_token'),
        insecure,
      ),
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await callApi(second.access_token)).status).toBe(200);
    clockOffsetMs = refreshGraceMs + 1;
    const reuse = oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      defined(first.refresh_token, 'first.refresh_token'),
      insecure,
    );
    expect(await tokenError(reuse, oauth.processRefreshTokenResponse)).toBe('invalid_grant');
    expect((await callApi(second.access_token)).status).toBe(401);
    const next = oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      defined(second.refresh_token, 'second.refresh_token'),
      insecure,
    );
    expect(await tokenError(next, oauth.processRefreshTokenResponse)).toBe('invalid_grant');
  });

  it('should answer concurrent refreshes with one token each the same new pair, and keep the grant', async () => {
    const first = await login();
    const refresh = (token: string) =>
      oauth
        .refreshTokenGrantRequest(as, client, oauth.None(), token, insecure)
        .then((res) => oauth.processRefreshTokenResponse(as, client, res));
    // Two tabs refresh at once, then a third a few seconds later (a retry after a lost answer): all succeed.
    const [a, b] = await Promise.all([
      refresh(defined(first.refresh_token, 'first.refresh_token')),
      refresh(defined(first.refresh_token, 'first.refresh_token')),
    ]);
    clockOffsetMs = refreshGraceMs - 1000;
    const c = await refresh(defined(first.refresh_token, 'first.refresh_token'));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a.refresh_token).not.toBe(first.refresh_token);
    expect((await callApi(a.access_token)).status).toBe(200);
    expect((await callApi(first.access_token)).status).toBe(200);
    // The rotated token goes on as usual.
    expect((await callApi((await refresh(defined(a.refresh_token, 'a.refresh_token'))).access_token)).status).toBe(200);
  });

  it('should issue no refresh token without offline_access', async () => {
    const tokens = await login({ params: { scope: 'openid email' } });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('openid email');
  });

  it('should revoke a refresh token through the revocation endpoint', async () => {
    const tokens = await login();
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        as,
        client,
        oauth.None(),
        defined(tokens.refresh_token, 'tokens.refresh_token'),
        insecure,
      ),
    );
    expect((await callApi(tokens.access_token)).status).toBe(401);
  });

  it.each([
    ['a missing grant_type', { client_id: 'mock-frontend' }, 'invalid_request'],
    ['an unsupported grant_type', { client_id: 'mock-frontend', grant_type: 'password' }, 'unsupported_grant_type'],
    ['a missing client_id', { grant_type: 'authorization_code', code: 'x' }, 'invalid_request'],
    ['an unknown client', { client_id: 'x', grant_type: 'authorization_code', code: 'x' }, 'invalid_client'],
    [
      'a missing code_verifier',
      { client_id: 'mock-frontend', grant_type: 'authorization_code', code: 'x', redirect_uri: redirectUri },
      'invalid_request',
    ],
    [
      'an unknown code',
      {
        client_id: 'mock-frontend',
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: redirectUri,
        code_verifier: 'v'.repeat(43),
      },
      'invalid_grant',
    ],
  ])('should answer %s per RFC 6749 §5.2', async (_name, form, error) => {
    const res = await fetch(defined(as.token_endpoint, 'as.token_endpoint'), {
      method: 'POST',
      body: new URLSearchParams(form),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      error,
      error_description: expect.any(String),
      errorMessage: expect.any(String),
      reason: error,
    });
  });

  it('should refuse a token request that is not form-encoded', async () => {
    const res = await fetch(defined(as.token_endpoint, 'as.token_endpoint'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('should leave other paths to the API', async () => {
    expect((await fetch(`${origin}/auth/elsewhere`)).status).toBe(404);
  });
});
