import { RATE_LIMIT_HEADER_NAMES } from '../../spec/lib';
import { startMock, type RunningMock } from '../app';
import { WORKSPACE_A } from '../config';
import { connect } from 'node:net';
import { sendRaw, type RawAnswer } from '../testing/raw-http';

/**
 * The reliability corpus against every entry point of the front door (x-rules error-shape,
 * ratelimit-headers-every-response): prototype keys, deep JSON and YAML, huge and slow bodies, undeclared and
 * unknown methods, encoded path tricks. Every answer is a 4xx in the error shape with the rate-limit headers,
 * well within the body timeout, and the process keeps serving.
 */
type Entry = { mount: string; method: string; path: string; headers: string; json: boolean };
const ENTRIES: Entry[] = [
  {
    mount: 'api',
    method: 'POST',
    path: '/v1/orchestration/query',
    headers: 'Authorization: Bearer mock-token-a\r\nContent-Type: application/json\r\n',
    json: true,
  },
  {
    mount: 'control',
    method: 'PATCH',
    path: '/__mock/settings',
    headers: 'X-Mock-Admin-Token: admin-secret\r\nContent-Type: application/json\r\n',
    json: true,
  },
  {
    mount: 'auth',
    method: 'POST',
    path: '/auth/oauth/token',
    headers: 'Content-Type: application/x-www-form-urlencoded\r\n',
    json: false,
  },
  {
    mount: 'auth (authorize)',
    method: 'GET',
    path: '/auth/authorize',
    headers: 'Accept: application/json\r\n',
    json: false,
  },
  {
    mount: 'downloads',
    method: 'GET',
    path: '/downloads/0123456789abcdef',
    headers: 'Authorization: Bearer mock-token-a\r\n',
    json: false,
  },
];
const RATE_LIMIT_HEADERS = RATE_LIMIT_HEADER_NAMES.map((name) => name.toLowerCase());
const BODY_TIMEOUT_MS = 300;

let mock: RunningMock;
let host: string;
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    bodyTimeoutMs: BODY_TIMEOUT_MS,
    rateLimit: 100_000,
    authRateLimit: 100_000,
    adminToken: 'admin-secret',
  });
  host = new URL(mock.origin).host;
});
afterAll(() => mock.close());

const send = (entry: Entry, body: string, extra = '', path = entry.path) =>
  sendRaw(
    mock.origin,
    `${entry.method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${entry.headers}${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    { timeoutMs: 10_000 },
  );

function expectRefused(answer: RawAnswer, status: number | 'any-4xx', reason?: string): void {
  if (status === 'any-4xx') expect(answer.status).toBeGreaterThanOrEqual(400);
  else expect(answer.status).toBe(status);
  expect(answer.status).toBeLessThan(500);
  expect([typeof answer.body?.errorMessage, typeof answer.body?.reason]).toEqual(['string', 'string']);
  if (reason) expect(answer.body.reason).toBe(reason);
  for (const name of RATE_LIMIT_HEADERS) expect([name, answer.headers[name]]).toEqual([name, expect.any(String)]);
}

/** The process still answers, and promptly. */
async function expectServing(): Promise<void> {
  const started = Date.now();
  const res = await fetch(`${mock.url}/mailboxManagement/suppressions`, {
    headers: { authorization: 'Bearer mock-token-a' },
  });
  expect(res.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(1000);
}

describe.each(ENTRIES)('the $mount mount under hostile input', (entry) => {
  afterEach(expectServing);

  it('should answer a declared 10 GB body at once with 413, closing the connection', async () => {
    const answer = await sendRaw(
      mock.origin,
      `${entry.method} ${entry.path} HTTP/1.1\r\nHost: ${host}\r\n${entry.headers}Content-Length: 10737418240\r\n\r\n{`,
    );
    expectRefused(answer, 413, 'payload_too_large');
    expect(answer.headers.connection).toBe('close');
    expect(answer.elapsedMs).toBeLessThan(2000);
  });

  it('should answer a body that stalls within the body timeout, the same on every mount', async () => {
    const answer = await sendRaw(
      mock.origin,
      `${entry.method} ${entry.path} HTTP/1.1\r\nHost: ${host}\r\n${entry.headers}Content-Length: 100\r\n\r\n{"a":`,
    );
    expectRefused(answer, 400, 'body_timeout');
    expect(answer.elapsedMs).toBeLessThan(BODY_TIMEOUT_MS + 1500);
  });

  it('should refuse 6000-deep JSON and a 150 000-item array before parsing them', async () => {
    const deep = `{"a":${'['.repeat(6000)}${']'.repeat(6000)}}`;
    const long = `{"a":[${'"",'.repeat(149_999)}""]}`;
    for (const [body, reason] of [
      [deep, 'json_too_deep'],
      [long, 'json_array_too_long'],
    ]) {
      const answer = await send(entry, body);
      // Mounts that take no JSON answer what they answer to any other body, in the error shape.
      expectRefused(answer, 'any-4xx', entry.json ? reason : undefined);
      expect(answer.elapsedMs).toBeLessThan(1000);
    }
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'should treat %s as plain data in a credential, a query name and a JSON key',
    async (key) => {
      const body = entry.json ? `{"${key}": {"a": 1}}` : `${key}=1&client_id=${key}`;
      const answer = await send(
        { ...entry, headers: entry.headers.replace('mock-token-a', key) },
        body,
        '',
        `${entry.path}?${key}=1&${key}[]=2`,
      );
      expectRefused(answer, 'any-4xx');
    },
  );

  it('should answer an undeclared method 405 with Allow, and an unknown one 400, in the error shape', async () => {
    const undeclared = await send({ ...entry, method: 'DELETE' }, '');
    expectRefused(undeclared, 405, 'method_not_allowed');
    expect(undeclared.headers.allow).toEqual(expect.any(String));
    expectRefused(await send({ ...entry, method: 'FOO' }, ''), 400, 'unknown_method');
  });

  it('should refuse dot segments and encoded slashes that would lead to another mount', async () => {
    const [prefix] = entry.path.split('/').filter(Boolean);
    for (const path of [
      `/${prefix}/%2e%2e/__mock/settings`,
      `/${prefix}/..%2f__mock/settings`,
      `/${prefix}/.%2E/v1/mailboxManagement/suppressions`,
      `/${prefix}/../__mock/settings`,
      `/${prefix}%5c..%5c__mock/settings`,
    ]) {
      const answer = await send(entry, '', '', path);
      expect([path, answer.status, answer.body?.reason]).toEqual([path, 400, 'invalid_path']);
      expectRefused(answer, 400, 'invalid_path');
    }
  });
  it('should read a path that begins with // as that path: never a host, never a crash, never another mount', async () => {
    // A URL parser reads `//a<b/` as a host it refuses (it threw, and the process ended) and `//h/v1/…#x` as
    // the path `/v1/…` on the host `h` (a proxy refusing `/__mock` by prefix would have let `//h/__mock/…` pass).
    for (const path of [
      `//a<b/`,
      `//a<b${entry.path}`,
      `//h${entry.path}#x`,
      `//h${entry.path}?q=1#x`,
      '//h/__mock/settings#x',
    ]) {
      const answer = await send(entry, '', '', path);
      expect([path, answer.status, answer.body?.reason]).toEqual([path, 404, 'not_found']);
      expectRefused(answer, 404, 'not_found');
    }
  });
});

describe('a request Node hands to no request handler', () => {
  afterEach(expectServing);

  it('should outlive clients that send CONNECT and reset the connection at once', async () => {
    // Node takes its own listeners off a CONNECT socket: a reset with none of the mock's would end the process.
    const { hostname, port } = new URL(mock.origin);
    await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(port), hostname, () => {
              socket.write(`CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: ${host}\r\n\r\n`, () => {
                socket.resetAndDestroy();
                resolve();
              });
            });
            socket.on('error', () => resolve());
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  });

  it.each(['127.0.0.1:443', '/v1/mailboxManagement/suppressions'])(
    'should answer CONNECT %s 405 in the error shape, where the socket was closed unanswered',
    async (target) => {
      const answer = await sendRaw(mock.origin, `CONNECT ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expectRefused(answer, 405, 'method_not_allowed');
      expect(answer.headers.allow).toEqual(expect.any(String));
    },
  );
});

describe('fixtures and control requests bounded like /v1', () => {
  afterEach(expectServing);
  const post = (body: string, type = 'application/json') =>
    send(
      {
        ...ENTRIES[1],
        method: 'POST',
        path: '/__mock/fixtures',
        headers: `X-Mock-Admin-Token: admin-secret\r\nContent-Type: ${type}\r\n`,
      },
      body,
    );

  it('should refuse a 100 000-deep YAML fixture quickly, whatever the YAML form', async () => {
    const n = 100_000;
    for (const text of [
      `workspaces:\n  ${'['.repeat(n)}${']'.repeat(n)}`,
      `workspaces:\n  a:\n    ${'- '.repeat(n)}x`,
      `workspaces: ${'{a: '.repeat(n)}1${'}'.repeat(n)}`,
    ]) {
      const answer = await post(text, 'application/yaml');
      expectRefused(answer, 400, 'json_too_deep');
      expect(answer.elapsedMs).toBeLessThan(2000);
    }
  });

  it('should refuse YAML whose aliases nest deeper than the bound or repeat past the cap', async () => {
    const nested = ['a0: &a0 [1]', ...Array.from({ length: 70 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)];
    expectRefused(await post(nested.join('\n'), 'application/yaml'), 400);
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 9; i++)
      laughs.push(`${'bcdefghij'[i]}: &${'bcdefghij'[i]} [${`*${'abcdefghij'[i]}, `.repeat(9)}x]`);
    expectRefused(await post(laughs.join('\n'), 'application/yaml'), 400);
  });

  it('should refuse 41 000 workspaces in 1.7 MB, and 1000, at once without holding other tenants', async () => {
    const uuids = (count: number) =>
      Array.from({ length: count }, (_, i) => `"${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000":{}`);
    const huge = `{"workspaces":{${uuids(41_000).join(',')}}}`;
    expect(Buffer.byteLength(huge)).toBeGreaterThan(1_700_000);
    const other = expectServing();
    const answer = await post(huge);
    expectRefused(answer, 400, 'fixtures_too_large');
    expect(answer.elapsedMs).toBeLessThan(2000);
    await other;
    expectRefused(await post(`{"workspaces":{${uuids(1000).join(',')}}}`), 400, 'fixtures_too_large');
  });

  it('should refuse settings for more workspaces than one request may name', async () => {
    const workspaces = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`, {}]),
    );
    const answer = await send(ENTRIES[1], JSON.stringify({ workspaces }));
    expectRefused(answer, 400, 'invalid_settings');
  });

  it('should keep settings for at most 1000 workspaces in all', async () => {
    const batch = (from: number) =>
      Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [
          `${(from + i).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
          { outcome: 'error' },
        ]),
      );
    for (let from = 0; from < 1000; from += 100)
      expect((await send(ENTRIES[1], JSON.stringify({ workspaces: batch(from) }))).status).toBe(200);
    expectRefused(await send(ENTRIES[1], JSON.stringify({ workspaces: batch(1000) })), 400, 'invalid_settings');
    const cleared = Object.fromEntries(Object.keys(batch(0)).map((uuid) => [uuid, null]));
    expect((await send(ENTRIES[1], JSON.stringify({ workspaces: cleared }))).status).toBe(200);
    expect((await send(ENTRIES[1], JSON.stringify({ workspaces: batch(1000) }))).status).toBe(200);
    const reset = await fetch(`${mock.origin}/__mock/reset`, {
      method: 'POST',
      headers: { 'x-mock-admin-token': 'admin-secret', 'content-type': 'application/json' },
    });
    expect(reset.status).toBe(200);
  });

  it('should refuse a 4000-deep item like /v1 refuses depth over 64, and load nothing', async () => {
    const deep = `${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`;
    const answer = await post(
      `{"workspaces":{"${WORKSPACE_A}":{"suppressions":[{"email":"x@example.com","x":${deep}}]}}}`,
    );
    expectRefused(answer, 400, 'json_too_deep');
  });
});
