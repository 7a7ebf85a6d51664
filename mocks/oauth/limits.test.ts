import { request } from 'node:http';
import { RATE_LIMIT_HEADER_NAMES } from '../../spec/lib';
import { startMock, type RunningMock } from '../app';
import { createMemoryPort } from '../store/adapters/memory';
import { createFailingPort } from '../testing/failing-port';
import { codeTtlMs, DEFAULT_GRANT_LIMITS, GrantStore, refreshTokenTtlMs, type Grant } from './grants';
import { defaultAuthConfig } from './index';
import { defined } from '../testing/defined';

/**
 * Bounds of the OAuth endpoints against a hostile client: a per-address rate limit kept in the storage port (so
 * every replica shares it), answered 429 in the contract's error shape with the rate-limit headers; and a grant
 * store bounded by count (per client and user, per grant: client-bounds.test.ts), bytes and age.
 */
// `any`: the answer's JSON is read by its paths (OAuth's error, tokens), whatever the server sent.
type Answer = { status: number; headers: Record<string, string>; body: any };

/** One request from a chosen loopback address (127.0.0.2 is another client to the mock). */
function send(
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string>; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(options.body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(options.body),
              }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // an HTML page or a redirect: kept as text
          }
          resolve({
            status: defined(res.statusCode, 'res.statusCode'),
            headers: res.headers as Record<string, string>,
            body,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const RATE_LIMIT_HEADERS = RATE_LIMIT_HEADER_NAMES.map((name) => name.toLowerCase());
const token = (mock: RunningMock, from?: string) =>
  send(`${mock.origin}/auth/oauth/token`, { method: 'POST', body: 'grant_type=authorization_code', from });
const metadata = (mock: RunningMock, from?: string) =>
  send(`${mock.origin}/auth/.well-known/oauth-authorization-server`, { from });

describe('rate limit of the OAuth endpoints (per client address, in the storage port)', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 10);
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, now: () => clock, authRateLimit: 3, adminToken: 'admin-secret' });
  });
  afterAll(() => mock.close());

  it('should count every endpoint in one bucket per address and answer 429 in the error shape beyond it', async () => {
    const preflight = await send(`${mock.origin}/auth/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers['ratelimit-remaining']]).toEqual([204, '3']);
    const answers = [await token(mock), await metadata(mock), await token(mock)];
    expect(answers.map((a) => [a.status, a.headers['ratelimit-limit'], a.headers['ratelimit-remaining']])).toEqual([
      [400, '3', '2'],
      [200, '3', '1'],
      [400, '3', '0'],
    ]);
    expect(answers[0].body.error).toBe('invalid_request');

    for (const refused of [await token(mock), await metadata(mock)]) {
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        errorMessage: expect.any(String),
        reason: 'rate_limited',
        retryAfter: 50,
        error: 'temporarily_unavailable',
        error_description: expect.any(String),
      });
      expect(refused.headers['retry-after']).toBe('50');
      for (const name of RATE_LIMIT_HEADERS) expect([name, refused.headers[name]]).toEqual([name, expect.any(String)]);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.headers['access-control-expose-headers']).toContain('Retry-After');
      expect(refused.headers['cache-control']).toBe('no-store');
    }
    // A preflight is reported, never counted nor refused (browsers send it on their own).
    const late = await send(`${mock.origin}/auth/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect([late.status, late.headers['ratelimit-remaining']]).toEqual([204, '0']);

    // Another client address has its own bucket, and the API's buckets are apart.
    expect((await metadata(mock, '127.0.0.2')).status).toBe(200);
    const api = await send(`${mock.url}/mailboxManagement/suppressions`, {
      headers: { authorization: 'Bearer mock-token-a' },
    });
    expect([api.status, api.headers['ratelimit-limit']]).toEqual([200, '10000']);
    const anonymous = await send(`${mock.url}/mailboxManagement/suppressions`);
    expect([anonymous.status, anonymous.headers['ratelimit-remaining']]).toEqual([401, '9999']);

    // The next window serves again.
    clock += 50_000;
    expect((await metadata(mock)).status).toBe(200);
  });

  it('should refuse a nonce over its bound (the nonce is kept with the code)', async () => {
    const authorizeWith = (nonce: string) => {
      const url = new URL(`${mock.origin}/auth/authorize`);
      url.search = new URLSearchParams({
        client_id: 'mock-frontend',
        redirect_uri: 'http://localhost:5173/callback',
        response_type: 'code',
        state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        audience: mock.origin,
        nonce,
      }).toString();
      return send(url.href, { from: '127.0.0.4' });
    };
    const atBound = new URL((await authorizeWith('n'.repeat(DEFAULT_GRANT_LIMITS.nonceLength))).headers.location);
    expect(atBound.searchParams.get('code')).toEqual(expect.any(String));
    const over = new URL((await authorizeWith('n'.repeat(DEFAULT_GRANT_LIMITS.nonceLength + 1))).headers.location);
    expect([over.searchParams.get('error'), over.searchParams.get('code')]).toEqual(['invalid_request', null]);
    expect(over.searchParams.get('error_description')).toContain('nonce');
  });

  it('should take its limit from the control plane at run time', async () => {
    const patch = await fetch(`${mock.origin}/__mock/settings`, {
      method: 'PATCH',
      // Counted per client address, across workspaces: the admin's setting.
      headers: { 'content-type': 'application/json', 'x-mock-admin-token': 'admin-secret' },
      body: JSON.stringify({ authRateLimit: 50 }),
    });
    expect(patch.status).toBe(200);
    expect((await metadata(mock, '127.0.0.3')).headers['ratelimit-limit']).toBe('50');
  });
});

describe('the OAuth rate limit across replicas sharing one store', () => {
  it('should refuse the request over the limit whichever replica gets it', async () => {
    const port = createMemoryPort();
    const now = () => Date.UTC(2026, 5, 1, 12, 0, 10);
    const a = await startMock({ port: 0, now, authRateLimit: 2, storagePort: port });
    const b = await startMock({ port: 0, now, authRateLimit: 2, storagePort: port });
    try {
      expect((await metadata(a)).status).toBe(200);
      expect((await token(b)).status).toBe(400);
      const refused = await metadata(a);
      expect([refused.status, refused.body.reason]).toEqual([429, 'rate_limited']);
      expect((await token(b)).status).toBe(429);
    } finally {
      await a.close();
      await b.close();
      await port.close();
    }
  });
});

describe('the OAuth rate limit with the store unreachable', () => {
  it('should answer 503 in the error shape with the rate-limit headers known without the store', async () => {
    const failing = createFailingPort(createMemoryPort());
    const mock = await startMock({ port: 0, storagePort: failing.port });
    try {
      failing.failNext((c) => c.method === 'hit');
      const answer = await metadata(mock);
      expect([answer.status, answer.body.reason]).toEqual([503, 'store_unavailable']);
      expect(answer.headers['ratelimit-limit']).toBe('300');
      expect(answer.headers['ratelimit-remaining']).toBeUndefined();
      expect((await metadata(mock)).status).toBe(200);
    } finally {
      await mock.close();
      await failing.port.close();
    }
  });
});

describe('the OAuth grant store (bounded by count, bytes and age)', () => {
  const grant = (i: number): Grant => ({
    id: `grant-${i}`,
    clientId: defaultAuthConfig.clients[0].clientId,
    user: defaultAuthConfig.users[0],
    scope: ['openid', 'profile', 'email', 'offline_access'],
    authTime: 0,
  });
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('should keep at most its count of codes per client and user, each for its lifetime, refusing beyond', async () => {
    let now = 0;
    const port = createMemoryPort({ now: () => now });
    const store = new GrantStore(port, () => now, { ...DEFAULT_GRANT_LIMITS, codesPerUser: 5 });
    const redirectUri = defaultAuthConfig.clients[0].redirectUris[0];
    const issued = [];
    for (let i = 0; i < 12; i++) issued.push(await store.issueCode(grant(i), redirectUri, challenge, 'n'.repeat(512)));
    const codes = issued.flatMap((answer) => ('code' in answer ? [answer.code] : []));
    expect(codes).toHaveLength(5);
    expect(issued[5]).toEqual({ refused: expect.stringContaining('holds 5 unexpired authorization codes') });
    expect(await port.countByPrefix('oauth:code:')).toBe(5);
    // Another user of the same client has a bound of its own.
    const other = { ...grant(99), user: defaultAuthConfig.users[1] };
    expect(await store.issueCode(other, redirectUri, challenge)).toEqual({ code: expect.any(String) });
    expect((await store.redeemCode(codes[0])).status).toBe('ok');
    now += codeTtlMs;
    expect(await port.countByPrefix('oauth:code:')).toBe(0);
    expect(await store.redeemCode(codes[4])).toEqual({ status: 'invalid' });
    // Expired codes free their place.
    expect(await store.issueCode(grant(13), redirectUri, challenge)).toEqual({ code: expect.any(String) });
  });

  it('should keep a revocation as long as the tokens it revokes could live, and no longer', async () => {
    let now = 0;
    const port = createMemoryPort({ now: () => now });
    const store = new GrantStore(port, () => now, { ...DEFAULT_GRANT_LIMITS, revocationsPerGrant: 2 });
    const hour = 3600_000;
    // A grant with offline_access: its last refresh token, issued just before the revocation, lives 30 days.
    const offline = grant(1);
    expect(await store.holdGrant(offline, hour)).toBeUndefined();
    now += 10 * 24 * hour;
    const refreshToken = await store.issueRefreshToken(offline);
    await store.revokeGrant(offline.id);
    now += refreshTokenTtlMs - 1;
    expect(await store.isRevoked('any', offline.id)).toBe(true);
    expect(await store.redeemRefreshToken(refreshToken)).toEqual({ status: 'invalid' });
    now += 1;
    expect([await store.isRevoked('any', offline.id), await port.countByPrefix('oauth:')]).toEqual([false, 0]);

    // An access token's revocation lasts until its expiry; past the grant's bound the whole grant is revoked.
    const online = { ...grant(2), scope: ['openid'] };
    expect(await store.holdGrant(online, hour)).toBeUndefined();
    await store.revokeTokenId('t1', now + hour, online.id);
    await store.revokeTokenId('t2', now + hour, online.id);
    expect([await store.isRevoked('t1', online.id), await store.isRevoked('t3', online.id)]).toEqual([true, false]);
    await store.revokeTokenId('t3', now + hour, online.id);
    expect([await store.isRevoked('t3', online.id), await store.isRevoked('t4', online.id)]).toEqual([true, true]);
    now += hour;
    expect([await store.isRevoked('t1', online.id), await port.countByPrefix('oauth:')]).toEqual([false, 0]);
  });

  it('should hold the largest entry a request can make within entryBytes, and refuse a larger one', async () => {
    const port = createMemoryPort();
    const store = new GrantStore(port, Date.now);
    const longest = defaultAuthConfig.clients[0].redirectUris.reduce((a, b) => (a.length >= b.length ? a : b));
    const largest = { ...grant(1), id: 'x'.repeat(16), user: defaultAuthConfig.users[1] };
    const issued = await store.issueCode(largest, longest, challenge, 'n'.repeat(DEFAULT_GRANT_LIMITS.nonceLength));
    const [text] = await port.read([{ op: 'get', key: `oauth:code:${'code' in issued ? issued.code : ''}` }]);
    expect(Buffer.byteLength(defined(text, 'text'))).toBeLessThanOrEqual(DEFAULT_GRANT_LIMITS.entryBytes);
    const outsized = { ...largest, user: { ...largest.user, name: 'n'.repeat(5000) } };
    await expect(store.issueCode(outsized, longest, challenge)).rejects.toThrow(/over the bound/);
    await expect(store.issueRefreshToken(outsized)).rejects.toThrow(/over the bound/);
    expect([await port.countByPrefix('oauth:code:'), await port.countByPrefix('oauth:refresh:')]).toEqual([1, 0]);
  });
});
