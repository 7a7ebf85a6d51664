/** The client's guards, each on a loopback server: the origin, redirects, the byte bound, the deadline, the log. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  detachedSlice,
  HttpClient,
  LogBound,
  OffOriginRefused,
  TimeBudgetSpent,
  TRIMMED_TEXT_BYTES,
  type Exchange,
} from './http-client';

let server: Server;
let base: string;
const seen: Array<{ url: string; authorization?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    if (req.url === '/v1/redirect') {
      res.writeHead(302, { location: 'http://127.0.0.1:9/v1/elsewhere' });
      res.end();
    } else if (req.url === '/v1/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(100_000)}"`);
    } else if (req.url === '/v1/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(1_000_000, ' ')));
    } else if (req.url === '/v1/drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
  new HttpClient({ baseUrl: base, tokenA: 'secret-a', maxRequests: 100, timeoutMs: 2000, ...extra });

describe('HttpClient', () => {
  it.each([
    ['another port', (origin: string) => origin.replace(/:\d+$/, ':9')],
    ['another host', () => 'http://localhost:1'],
    ['another scheme', (origin: string) => origin.replace('http:', 'https:')],
  ])('should refuse to send anything to %s', async (_name, elsewhere) => {
    const c = client();
    const before = seen.length;
    await expect(c.send({ method: 'GET', path: `${elsewhere(c.origin)}/v1/x` })).rejects.toThrow(OffOriginRefused);
    expect(seen.length).toBe(before);
    expect(c.count).toBe(0);
    c.close();
  });

  it('should send an absolute URL on the target origin, and never follow a redirect', async () => {
    const c = client();
    const ok = await c.send({ method: 'GET', path: `${base}/fine` });
    expect(ok.response?.status).toBe(200);
    const redirect = await c.send({ method: 'GET', path: '/redirect' });
    expect(redirect.response).toMatchObject({ status: 302, headers: { location: 'http://127.0.0.1:9/v1/elsewhere' } });
    expect(seen.some((request) => request.url.includes('elsewhere'))).toBe(false);
    c.close();
  });

  it('should cut an answer at the byte bound, after decoding, and mark it truncated', async () => {
    const c = client({ maxResponseBytes: 4096 });
    for (const path of ['/big', '/gzip']) {
      const exchange = await c.send({ method: 'GET', path });
      expect(exchange.response).toMatchObject({ status: 200, truncated: true, body: undefined });
      expect(exchange.response!.text.length).toBe(4096);
    }
    c.close();
  });

  it('should end a dripping body at --timeout, body included', async () => {
    const c = client({ timeoutMs: 300 });
    const exchange = await c.send({ method: 'GET', path: '/drip' });
    expect(exchange.error).toMatch(
      /no complete answer within 300 ms \(--timeout\): the answer's body was still coming/,
    );
    expect(exchange.receivedAt - exchange.sentAt).toBeLessThan(1500);
    c.close();
  });

  it('should end an exchange and every later request at the run deadline', async () => {
    const c = client({ timeoutMs: 60_000, deadline: Date.now() + 300, maxTimeSeconds: 1 });
    await expect(c.send({ method: 'GET', path: '/drip' })).rejects.toThrow(TimeBudgetSpent);
    await expect(c.send({ method: 'GET', path: '/fine' })).rejects.toThrow(/--max-time/);
    const started = Date.now();
    await c.wait(99_999_999_000);
    expect(Date.now() - started).toBeLessThan(100);
    c.close();
  });
});

describe('LogBound', () => {
  const exchange = (length: number): Exchange =>
    ({ response: { status: 200, headers: {}, text: 'y'.repeat(length), body: {} } }) as unknown as Exchange;

  it('should keep the oldest answers to a prefix past the total, the latest whole', () => {
    const log = new LogBound(100_000);
    const answers = [exchange(60_000), exchange(60_000), exchange(60_000)];
    for (const answer of answers) log.add(answer);
    expect(answers.map((a) => [a.response!.text.length, a.response!.trimmed ?? false])).toEqual([
      [TRIMMED_TEXT_BYTES, true],
      [TRIMMED_TEXT_BYTES, true],
      [60_000, false],
    ]);
    log.trimAll();
    expect(answers[2].response!.text.length).toBe(TRIMMED_TEXT_BYTES);
  });

  it('should cut a string to a copy of its own, surrogates kept', () => {
    expect(detachedSlice('ab\uD800cd', 3)).toBe('ab\uD800');
    expect(detachedSlice('short', 10)).toBe('short');
  });
});
