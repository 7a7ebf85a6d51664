/**
 * The benchmark's load generator: the Lua script wrk runs and the line it reads back (table tests), then one tiny
 * round of `npm run bench`'s own load run against the bare server and a keyed create against a server that
 * records what it receives. wrk comes from scripts/ensure-wrk.sh (Debian's package, installed where missing); the
 * rounds are skipped with the reason only where it cannot be installed, and never in CI, where apt-get is there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDEMPOTENCY_KEY_HEADER } from '../../../spec/lib/constants';
import { BARE_SERVER } from './bare-server';
import { cpuUsPerRequest, freshPrefix, loadOnce, type Generator } from './generators';
import { freePort, launch, ROOT, stop, waitFor200 } from './processes';
import { findWrk, luaString, parseWrkOutput, wrkScript, type LoadRequest } from './wrk';

const wrk = findWrk(ROOT);
if (!wrk.bin && !process.env.CI)
  process.stderr.write(`wrk.test.ts: wrk is not installed and cannot be, its rounds are skipped: ${wrk.reason}\n`);

describe('luaString', () => {
  it.each([
    ['printable ASCII as itself', 'Bearer mock-token-a', '"Bearer mock-token-a"'],
    ['a quote and a backslash escaped', 'a"b\\c', '"a\\034b\\092c"'],
    ['line ends and controls escaped', 'a\r\nb\u0000', '"a\\013\\010b\\000"'],
    ['UTF-8 byte by byte', 'é', '"\\195\\169"'],
  ])('should write %s', (_name, given, want) => {
    expect(luaString(given)).toBe(want);
  });
});

describe('wrkScript', () => {
  const base: LoadRequest = { method: 'GET', headers: { authorization: 'Bearer t' } };

  it('should leave a request without a fresh header static (wrk formats it once, no request())', () => {
    const script = wrkScript(base);
    expect(script).toContain('wrk.headers["authorization"] = "Bearer t"');
    expect(script).not.toMatch(/function request/);
    expect(script).toMatch(/function done/);
  });

  it('should splice a fresh key into each request after the run prefix', () => {
    const script = wrkScript({
      ...base,
      method: 'POST',
      body: '{}',
      fresh: { header: 'idempotency-key', prefix: 'p-' },
    });
    expect(script).toContain('local prefix = "p-"');
    expect(script).toMatch(/function request\(\)\n {2}counter = counter \+ 1\n {2}return head \.\. counter \.\. tail/);
  });
});

describe('parseWrkOutput', () => {
  const line =
    'wrk-result {"requests":3000,"durationUs":1000000,"connect":1,"read":2,"write":0,"timeout":3,"status":4,"p50Us":250,"p99Us":1200,"cpuUs":150000}';

  it('should read the done hook line among wrk own lines', () => {
    expect(parseWrkOutput(`Running 1s test @ http://127.0.0.1:1/\n\n${line}\n`)).toEqual({
      requests: 3000,
      seconds: 1,
      p50: 0.25,
      p99: 1.2,
      errors: 6,
      status4xx5xx: 4,
      generatorCpuMs: 150,
    });
  });

  it.each([
    ['no result line', 'Running 1s test', /printed no result line/],
    ['a figure missing', line.replace('"p99Us":1200', '"p99":1200'), /no count p99Us/],
    ['a negative figure', line.replace('"requests":3000', '"requests":-1'), /no count requests/],
    ['a run of no duration', line.replace('"durationUs":1000000', '"durationUs":0'), /no duration/],
  ])('should refuse %s', (_name, output, error) => {
    expect(() => parseWrkOutput(output)).toThrow(error);
  });
});

describe('freshPrefix', () => {
  it('should differ from run to run', () => {
    const prefixes = new Set(Array.from({ length: 100 }, freshPrefix));
    expect(prefixes.size).toBe(100);
    for (const prefix of prefixes) expect(prefix).toMatch(/^bench-[0-9a-f]{12}-$/);
  });
});

describe('the load generator, one round of a second', () => {
  it('should be found (CI installs it with apt-get)', () => {
    if (!wrk.bin && process.env.CI) throw new Error(`wrk is needed in CI: ${wrk.reason}`);
  });

  (wrk.bin ? describe : describe.skip)('wrk', () => {
    const options = { connections: 4, seconds: 1 };

    it('should load the bare server, read its CPU per request and count answers above 399', async () => {
      const port = await freePort();
      const answer = (status: number) => ({ status, headers: [['content-type', 'application/json']], body: '{}' });
      const child = launch(process.execPath, ['-e', BARE_SERVER], {
        PORT: String(port),
        ANSWERS: JSON.stringify([
          ['GET /v1/list', answer(200)],
          ['GET /v1/broken', answer(503)],
        ]),
      });
      try {
        await waitFor200(`http://127.0.0.1:${port}/v1/list`, 't', 20_000);
        const request: LoadRequest = { method: 'GET', headers: { authorization: 'Bearer t' } };
        const target = (path: string) => ({
          url: `http://127.0.0.1:${port}/v1${path}`,
          pid: child.pid,
          wrkBin: wrk.bin,
        });
        const good = await loadOnce('wrk', target('/list'), request, options);
        expect(good).toMatchObject({ errors: 0, badStatus: 0 });
        expect(good.requests).toBeGreaterThan(100);
        expect(good.seconds).toBeGreaterThanOrEqual(0.9);
        expect(good.p50).toBeGreaterThan(0);
        expect(good.p99).toBeGreaterThanOrEqual(good.p50);
        // The server's own CPU, not the generator's: at least some, and under 10 ms a request even on a busy machine.
        expect(good.cpuMs).toBeGreaterThan(0);
        expect(cpuUsPerRequest([good])).toBeLessThan(10_000);
        // wrk's own CPU (its os.clock()), read from its result line.
        expect(good.generatorCpuMs).toBeGreaterThan(0);
        const broken = await loadOnce('wrk', target('/broken'), request, options);
        expect(broken.badStatus).toBe(broken.requests);
      } finally {
        await stop(child);
      }
    });

    describe('a keyed create, as each generator sends it', () => {
      const seen: { key: string; body: string; type?: string; authorization?: string; length?: string }[] = [];
      let server: Server;
      let url = '';
      beforeAll(async () => {
        server = createServer((req, res) => {
          let body = '';
          req.setEncoding('utf8');
          req.on('data', (chunk: string) => (body += chunk));
          req.on('end', () => {
            seen.push({
              key: String(req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]),
              body,
              type: req.headers['content-type'],
              authorization: req.headers.authorization,
              length: req.headers['content-length'],
            });
            res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/ai/mcpServers`;
      });
      afterAll(() => new Promise((resolve) => server.close(resolve)));
      beforeEach(() => {
        seen.length = 0;
      });

      it.each<Generator>(['wrk', 'autocannon'])(
        'should send %s a new key and the same JSON body each time',
        async (generator) => {
          const body = JSON.stringify({ name: 'bench' });
          const prefix = freshPrefix();
          const request: LoadRequest = {
            method: 'POST',
            headers: { authorization: 'Bearer mock-token-a', 'content-type': 'application/json' },
            body,
            fresh: { header: IDEMPOTENCY_KEY_HEADER, prefix },
          };
          const sample = await loadOnce(generator, { url, pid: process.pid, wrkBin: wrk.bin }, request, options);
          expect(sample).toMatchObject({ errors: 0, badStatus: 0 });
          expect(sample.requests).toBeGreaterThan(50);
          // Every request the server read counted by the generator, but those still in flight when it stopped.
          expect(seen.length).toBeGreaterThanOrEqual(sample.requests);
          expect(seen.length).toBeLessThanOrEqual(sample.requests + options.connections);
          expect(new Set(seen.map((one) => one.key)).size).toBe(seen.length);
          // The counter from 0, one per request made: a request made but never sent (wrk makes one as its thread
          // starts; either may make one per connection as the run stops) leaves a gap of at most one a connection.
          const counters = seen.map((one) => Number(one.key.slice(prefix.length)));
          expect(Math.min(...counters)).toBeLessThanOrEqual(options.connections);
          expect(Math.max(...counters)).toBeLessThan(seen.length + 2 * options.connections);
          for (const one of seen)
            expect(one).toEqual({
              key: expect.stringMatching(new RegExp(`^${prefix}\\d+$`)),
              body,
              type: 'application/json',
              authorization: 'Bearer mock-token-a',
              length: String(body.length),
            });
        },
      );
    });
  });
});
