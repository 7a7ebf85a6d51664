import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createMemoryPort } from '../store/adapters/memory';
import { createRedisPort } from '../store/adapters/redis';
import type { StoragePort } from '../store/port';
import { oauthFlow, type IssuedCode } from '../testing/oauth-flow';
import { listenOAuth } from '../testing/oauth-server';
import { startRedisServer, type RedisServer } from '../testing/redis-server';
import { refreshGraceMs, type GrantLimits } from './grants';
import { createAuthServer, defaultAuthConfig, type AuthServer } from './index';
import { defined } from '../testing/defined';

/**
 * No client can evict another's entries: codes and grants are bounded per client and user, refresh tokens and
 * revocations per grant, and a client over its bound is refused in the OAuth error format. The attacks of a
 * client with volume (codes, refreshes, revocations far beyond the bounds, made small here) leave every other
 * user's code, refresh token and revocation working — in memory and on a real Redis.
 */
const LIMITS: Partial<GrantLimits> = {
  codesPerUser: 5,
  grantsPerUser: 4,
  refreshTokensPerGrant: 3,
  revocationsPerGrant: 3,
};
const FLOOD = 30;
const [ada, bo] = defaultAuthConfig.users;

describe.each(['memory', 'redis'] as const)('OAuth bounds per client and per grant (%s store)', (kind) => {
  let redis: RedisServer | undefined;
  let server: Server;
  let origin: string;
  let port: StoragePort;
  let auth: AuthServer;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    if (kind === 'redis') redis = await startRedisServer();
    ({ server, origin } = await listenOAuth(() => auth));
  }, 600_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await redis?.stop();
  });
  beforeEach(async () => {
    port = redis ? await createRedisPort({ url: redis.url, prefix: `bounds:${randomUUID()}:` }) : createMemoryPort();
    auth = createAuthServer({
      ...defaultAuthConfig,
      issuer: `${origin}/auth`,
      audience: origin,
      basePath: '/v1',
      now: () => Date.now() + clockOffsetMs,
      port,
      grantLimits: LIMITS,
    });
  });
  afterEach(() => {
    clockOffsetMs = 0;
    return port.close();
  });

  const flow = () => oauthFlow(origin);
  const authorize = (user = ada) => flow().authorize(user);
  const exchange = (issued: IssuedCode) => flow().exchange(issued);
  const refresh = (token: string) => flow().refresh(token);
  const revoke = (token: string) => flow().revoke(token);
  const works = (accessToken: string) => flow().works(accessToken);
  const login = async (user = ada) => {
    const tokens = await flow().login(user);
    expect(tokens.status).toBe(200);
    return tokens.body;
  };

  it("should refuse a client's codes beyond its bound for a user, and void no one's code", async () => {
    const boCode = await authorize(bo);
    const adaFirst = await authorize(ada);
    const flood = [];
    for (let i = 0; i < FLOOD; i++) flood.push(await authorize(ada));
    // Ada's client holds 5 codes at most: one before the flood, four in it; the rest are refused.
    expect(flood.filter((answer) => answer.code !== null)).toHaveLength(4);
    const refused = defined(flood.at(-1), 'flood.at(-1)');
    expect([refused.code, refused.error]).toEqual([null, 'temporarily_unavailable']);
    expect(refused.description).toMatch(/holds 5 unexpired authorization codes for this user/);
    // The same flood aimed at Bo (anyone may name a user) refuses new codes and voids none of Bo's.
    for (let i = 0; i < FLOOD; i++) await authorize(bo);
    expect((await exchange(boCode)).status).toBe(200);
    expect((await exchange(adaFirst)).status).toBe(200);
  });

  it("should keep another user's refresh token working through any number of refreshes of one grant", async () => {
    const boTokens = await login(bo);
    let adaTokens = await login(ada);
    let previous = '';
    for (let i = 0; i < FLOOD; i++) {
      const next = await refresh(adaTokens.refresh_token);
      expect(next.status).toBe(200);
      previous = adaTokens.refresh_token;
      adaTokens = next.body;
    }
    expect((await refresh(boTokens.refresh_token)).status).toBe(200);
    // Within its own bound, the grant still detects the reuse of a rotated token (after the reuse grace), and is
    // revoked for it.
    clockOffsetMs = refreshGraceMs + 1;
    const reused = await refresh(previous);
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant']);
    expect((await refresh(adaTokens.refresh_token)).status).toBe(400);
    // Two grants, each keeping at most its last three refresh tokens.
    expect(await port.countByPrefix('oauth:refresh:')).toBeLessThanOrEqual(2 * 3);
  });

  it('should keep a revoked access token revoked whatever the number of other revocations', async () => {
    const boTokens = await login(bo);
    await revoke(boTokens.access_token);
    expect(await works(boTokens.access_token)).toBe(false);
    // Ada gathers access tokens of one grant and of her other grants, and revokes them all.
    const adaTokens: string[] = [];
    for (let grant = 0; grant < 2; grant++) {
      let tokens = await login(ada);
      adaTokens.push(tokens.access_token);
      for (let i = 0; i < FLOOD / 2; i++) {
        tokens = (await refresh(tokens.refresh_token)).body;
        adaTokens.push(tokens.access_token);
      }
    }
    for (const token of adaTokens) expect((await revoke(token)).status).toBe(200);
    // Beyond a grant's bound of single revocations the grant itself is revoked: every token stops working.
    for (const token of adaTokens) expect(await works(token)).toBe(false);
    expect(await works(boTokens.access_token)).toBe(false);
    // Bo's other grant is untouched.
    expect(await works((await login(bo)).access_token)).toBe(true);
  });

  it('should refuse a client a grant beyond its bound for a user, in the OAuth error format, and no one else', async () => {
    for (let i = 0; i < 4; i++) await login(ada);
    const over = await exchange(await authorize(ada));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(/holds 4 grants with live tokens for this user/),
      errorMessage: expect.any(String),
      reason: 'temporarily_unavailable',
    });
    expect(await works((await login(bo)).access_token)).toBe(true);
  });
});
