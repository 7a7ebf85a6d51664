import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { startMock, type RunningMock } from '../app';
import { readConfigFromEnv } from '../config';
import { createMockControl } from '../control/client';
import { defaultAuthConfig } from './index';
import { defined } from '../testing/defined';

/**
 * The PKCE flow against the running mock (`startMock`, as `npm start` serves it), then the token used on the API:
 * a query answers with the user's workspace rows only, an expired token gets the API's 401 (x-rules: auth-required-401,
 * workspace-scoping, error-shape, ratelimit-headers-every-response).
 */
const [userA, userB] = defaultAuthConfig.users;
const client: oauth.Client = { client_id: defaultAuthConfig.clients[0].clientId };
const redirectUri = 'http://localhost:3000/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

const discover = async (origin: string) => {
  const issuer = new URL(`${origin}/auth`);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
};

let mock: RunningMock;
let as: oauth.AuthorizationServer;
let clockOffsetMs = 0;

beforeAll(async () => {
  mock = await startMock({ port: 0, now: () => Date.now() + clockOffsetMs });
  as = await discover(mock.origin);
});
afterAll(() => mock.close());

type LoginOptions = {
  loginHint?: string;
  redirectUri?: string;
  on?: { mock: RunningMock; as: oauth.AuthorizationServer };
};

/** The app's part, through a real OAuth client: authorize (the browser redirect read by hand), then exchange. */
async function login(options: LoginOptions = {}): Promise<string> {
  const target = options.on ?? { mock, as };
  const uri = options.redirectUri ?? redirectUri;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(defined(target.as.authorization_endpoint, 'target.as.authorization_endpoint'));
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: uri,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    audience: target.mock.origin,
    ...(options.loginHint ? { login_hint: options.loginHint } : {}),
  }).toString();
  const authorization = await fetch(url, { redirect: 'manual' });
  const location = authorization.headers.get('location');
  if (!location) throw new Error(`authorize answered ${authorization.status} without a redirect`);
  const callback = oauth.validateAuthResponse(target.as, client, new URL(location), state);
  const response = await oauth.authorizationCodeGrantRequest(
    target.as,
    client,
    oauth.None(),
    callback,
    uri,
    verifier,
    insecure,
  );
  return (await oauth.processAuthorizationCodeResponse(target.as, client, response)).access_token;
}

const query = (token: string, sql: string, on = mock) =>
  fetch(`${on.url}/orchestration/query`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: sql }),
  });

describe('OAuth login against the running mock', () => {
  it('should authenticate API calls as the user workspace and scope query rows to it', async () => {
    for (const user of [userA, userB]) {
      const token = await login({ loginHint: user.email });
      const res = await query(
        token,
        'SELECT DISTINCT workspaceUuid FROM runs UNION SELECT DISTINCT workspaceUuid FROM logs',
      );
      expect(res.status).toBe(200);
      const { rows } = (await res.json()) as { rows: { workspaceUuid: string }[] };
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.workspaceUuid).toBe(user.workspaceUuid);
    }
  });

  it('should answer a write with 400 in the contract error shape', async () => {
    const res = await query(await login(), 'DELETE FROM runs');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errorMessage: expect.any(String), reason: 'query_not_read_only' });
  });

  it('should stop a runaway query while other requests and other workspaces are answered', async () => {
    const token = await login();
    const runaway = query(
      token,
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
    );
    const other = await fetch(`${mock.url}/mailboxManagement/suppressions`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(other.status).toBe(200);
    // Another workspace's query runs beside it: one workspace never holds every SQL worker.
    expect((await query('mock-token-b', 'SELECT count(*) AS n FROM runs')).status).toBe(200);
    const res = await runaway;
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errorMessage: expect.any(String), reason: 'query_timeout' });
    expect((await query(token, 'SELECT count(*) AS n FROM runs')).status).toBe(200);
  });

  it('should answer an expired token with the API 401 and its rate-limit headers', async () => {
    const token = await login();
    expect((await query(token, 'SELECT 1 AS one')).status).toBe(200);
    clockOffsetMs = (defaultAuthConfig.accessTokenTtlSeconds + 1) * 1000;
    const res = await query(token, 'SELECT 1 AS one');
    clockOffsetMs = 0;
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toEqual(expect.any(String));
    expect(await res.json()).toMatchObject({ errorMessage: expect.any(String), reason: expect.any(String) });
  });

  it('should log in an app on any loopback port with the default redirect URIs, landing on its callback', async () => {
    // The app's own server on a port the OS picks: the browser (fetch, following redirects) lands on it.
    let landed: URL | undefined;
    const app = createServer((req, res) => {
      landed = new URL(req.url ?? '/', 'http://localhost');
      res.end('ok');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    try {
      const appPort = (app.address() as AddressInfo).port;
      for (const uri of [`http://localhost:${appPort}/callback`, `http://127.0.0.1:${appPort}/callback`]) {
        const token = await login({ redirectUri: uri });
        expect((await query(token, 'SELECT 1 AS one')).status).toBe(200);
      }
      const verifier = oauth.generateRandomCodeVerifier();
      const authorizeUrl = new URL(defined(as.authorization_endpoint, 'as.authorization_endpoint'));
      authorizeUrl.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: `http://127.0.0.1:${appPort}/callback`,
        response_type: 'code',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'xyz',
        audience: mock.origin.replace('127.0.0.1', 'localhost'),
      }).toString();
      expect((await fetch(authorizeUrl)).status).toBe(200);
      expect(landed?.pathname).toBe('/callback');
      expect(landed?.searchParams.get('code')).toEqual(expect.any(String));
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
  });

  it('should log in an SPA on port 4200 with MOCK_OAUTH_REDIRECT_URIS set, and refuse the defaults then', async () => {
    const spa = 'http://localhost:4200/auth/callback';
    const config = readConfigFromEnv({ PORT: '0', MOCK_OAUTH_REDIRECT_URIS: `${spa},https://preview.app.example/cb` });
    const other = await startMock(config);
    try {
      const on = { mock: other, as: await discover(other.origin) };
      const token = await login({ on, redirectUri: spa });
      expect((await query(token, 'SELECT 1 AS one', other)).status).toBe(200);
      await expect(login({ on, redirectUri: 'http://localhost:4200/callback' })).rejects.toThrow(/without a redirect/);
    } finally {
      await other.close();
    }
  });

  it("should let an OAuth access token steer its user's workspace through /__mock, and no other", async () => {
    const token = await login({ loginHint: userB.email });
    const control = createMockControl({ url: mock.origin, token });
    await control.forceOutcome('skipped');
    expect((await control.settings()).workspaces).toEqual({ [userB.workspaceUuid]: { outcome: 'skipped' } });
    expect(await createMockControl({ url: mock.origin, token: 'mock-token-a' }).settings()).toMatchObject({
      workspaces: {},
    });
    await expect(control.reset('mock-token-a')).rejects.toMatchObject({ status: 403 });
    expect(await control.reset()).toEqual({ reset: userB.workspaceUuid });
    expect((await control.settings()).workspaces).toEqual({});
  });
});
