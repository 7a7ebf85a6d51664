/**
 * A small app using the package's `./msw` handlers through MSW's service worker (`setupWorker`): the API is
 * answered in the page, by the same engine as the mock server. It runs the README's frontend flows and shows
 * what they met; `browser.test.ts` opens it in Chromium and reads the page.
 */
import { setupWorker } from 'msw/browser';
import sqlWasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import { createHandlers } from 'workspace-automation-api-contract/msw';
import { runFrontendFlows } from '../flows';

const BASE_URL = 'http://api.test/v1';
const show = (id: string, text: string) => {
  const element = document.getElementById(id);
  if (element) element.textContent = text;
};

async function main(): Promise<void> {
  const started = performance.now();
  const mock = createHandlers({ baseUrl: BASE_URL, rateLimit: 20, runDurationMs: 100, sqlWasmUrl });
  const worker = setupWorker(...mock.handlers);
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  const first = await fetch(`${BASE_URL}/mailboxManagement/suppressions`, {
    headers: { authorization: 'Bearer mock-token-a' },
  });
  // From this script's start (the engine built, the service worker started) and from the navigation's.
  const now = performance.now();
  show(
    'first-answer',
    `first answer ${first.status} after ${Math.round(now - started)} ms (${Math.round(now)} ms since navigation)`,
  );
  const query = await fetch(`${BASE_URL}/orchestration/query`, {
    method: 'POST',
    headers: { authorization: 'Bearer mock-token-a', 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT count(*) AS runs FROM runs' }),
  });
  const results = await runFrontendFlows(BASE_URL, mock.control);
  show('result', JSON.stringify({ ...results, sql: { status: query.status, body: await query.json() } }, null, 2));
  show('state', 'done');
}

main().catch((error: unknown) => show('state', `failed: ${error instanceof Error ? error.message : String(error)}`));
