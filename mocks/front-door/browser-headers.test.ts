import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { dumpDom, findChromium } from '../../scripts/lib/docs/chromium';
import { startMock, type RunningMock } from '../app';
import { defined } from '../testing/defined';

/**
 * What a page on another origin can read, in real Chromium (the Fetch standard hides every response header but
 * the CORS-safelisted ones unless `Access-Control-Expose-Headers` names it): `WWW-Authenticate` and the
 * rate-limit headers of a 401, `Location` of a 202, and the 404 of `GET /`.
 */
const chromium = findChromium(join(__dirname, '..', '..'));
if (!chromium.bin && process.env.CI) throw new Error(`Chromium is required on CI: ${chromium.reason}`);
if (!chromium.bin) console.warn(`browser header test skipped: ${chromium.reason}`);

const PAGE = (mock: string) => `<!doctype html><meta charset="utf-8"><pre id="out">pending</pre><script>
const read = (res, names) => Object.fromEntries(names.map((n) => [n, res.headers.get(n)]));
(async () => {
  const anonymous = await fetch('${mock}/v1/mailboxManagement/suppressions');
  const created = await fetch('${mock}/v1/orchestration/runs', {
    method: 'POST',
    headers: { Authorization: 'Bearer mock-token-a', 'Content-Type': 'application/json', 'Idempotency-Key': 'browser-1' },
    body: '{}',
  });
  const root = await fetch('${mock}/');
  document.getElementById('out').textContent = JSON.stringify({
    anonymous: { status: anonymous.status, ...read(anonymous, ['www-authenticate', 'ratelimit-remaining', 'x-ratelimit-limit']) },
    created: { status: created.status, ...read(created, ['location', 'ratelimit-policy']) },
    root: { status: root.status, reason: (await root.json()).reason },
  });
})().catch((e) => { document.getElementById('out').textContent = 'failed: ' + e; });
</script>`;

describe('response headers a page on another origin reads (Chromium)', () => {
  let mock: RunningMock;
  let app: Server;
  let appOrigin: string;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
    app = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE(mock.origin));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    // Another origin than the mock's: a host name where the mock is reached by address, and another port.
    appOrigin = `http://localhost:${(app.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => app.close(resolve));
    await mock.close();
  });

  (chromium.bin ? it : it.skip)(
    'should let the page read WWW-Authenticate, the rate-limit headers and Location, and see GET / answer 404',
    async () => {
      const { dom } = await dumpDom(defined(chromium.bin, 'chromium.bin'), `${appOrigin}/`, 90_000, {
        allowLoopback: true,
      });
      const text = /<pre id="out">([\s\S]*?)<\/pre>/.exec(dom)?.[1] ?? '';
      const seen = JSON.parse(text.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as Record<string, unknown>;
      expect(seen).toEqual({
        anonymous: {
          status: 401,
          'www-authenticate': expect.stringMatching(/^Bearer /),
          'ratelimit-remaining': expect.stringMatching(/^\d+$/),
          'x-ratelimit-limit': expect.stringMatching(/^\d+$/),
        },
        created: {
          status: 202,
          location: expect.stringMatching(/\/v1\/orchestration\/runs\//),
          'ratelimit-policy': expect.any(String),
        },
        root: { status: 404, reason: 'not_found' },
      });
    },
    120_000,
  );
});
