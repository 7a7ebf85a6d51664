/**
 * The browser example in real Chromium (Debian's, through scripts/ensure-chromium.sh): built once, served from
 * its built files on loopback, the API answered in the page through MSW's service worker by the in-process
 * engine. Asserts what the page shows after the README's frontend flows.
 */
import { findChromium } from '../../scripts/lib/docs/chromium';
import { buildApp, removeApp, serveApp, type BuiltApp } from './built-app';
import { readPage } from './chromium-page';

jest.setTimeout(240_000);

const ROOT = `${__dirname}/../..`;
/** The page has finished its flows, or failed. */
const PAGE_SETTLED = "document.getElementById('state').textContent !== 'starting'";

describe('the browser example (setupWorker) in Chromium', () => {
  let app: BuiltApp;
  beforeAll(async () => {
    app = await serveApp(await buildApp());
  });
  afterAll(async () => {
    await app?.close();
    if (app) removeApp(app.dir);
  });

  it('should show the flows answered by the in-process engine through a service worker', async () => {
    const chromium = findChromium(ROOT);
    if (!chromium.bin) throw new Error(`Chromium is needed for this test: ${chromium.reason}`);
    const page = await readPage(chromium.bin, app.url, ['state', 'first-answer', 'result'], PAGE_SETTLED);
    expect(page.texts.state).toBe('done');
    expect(page.texts['first-answer']).toMatch(/^first answer 200 after \d+ ms \(\d+ ms since navigation\)$/);
    const shown = JSON.parse(page.texts.result);
    expect(shown.keyedCreate).toEqual({ status: 201, replayStatus: 201, sameServer: true });
    expect(shown.polledRun).toMatchObject({ status: 202, final: 'success' });
    expect(shown.polledRun.location).toMatch(/^http:\/\/api\.test\/v1\/orchestration\/runs\//);
    expect(shown.forcedOutcome).toEqual({ final: 'error' });
    expect(shown.rateLimited).toMatchObject({ status: 429, reason: 'rate_limited' });
    expect(Number(shown.rateLimited.retryAfter)).toBeGreaterThan(0);
    // SQL ran in the page (sql.js's WASM, served beside the app); the API's host does not exist: no request
    // left the page (Chromium reaches loopback only), the service worker answered them all.
    expect(shown.sql.status).toBe(200);
  });
});
