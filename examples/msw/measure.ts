/**
 * `npm run examples:measure`: the in-process engine's cold start to its first answer, on Node (a fresh process:
 * loading `./msw`, then `createHandlers` to the first answer of `GET /mailboxManagement/suppressions`) and in
 * Chromium (the browser example: the service worker started, the first answer), and the browser bundle's size
 * (gzipped; sql.js's WASM apart, fetched on the first SQL query). Prints markdown. Environment: MEASURE_RUNS
 * (default 5), CHROMIUM_BIN.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../../scripts/lib/docs/chromium';
import { buildApp, bundleSizes, removeApp, serveApp } from './built-app';
import { readPage } from './chromium-page';

const ROOT = join(__dirname, '..', '..');
const RUNS = Number(process.env.MEASURE_RUNS ?? 5);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One fresh Node process: ms to load ./msw, and ms from createHandlers to the first answer. */
function nodeColdStart(): { load: number; firstAnswer: number } {
  const script = `
    const t0 = performance.now();
    const { createHandlers } = require(${JSON.stringify(join(ROOT, 'mocks', 'msw'))});
    const t1 = performance.now();
    const mock = createHandlers({ baseUrl: 'http://api.test/v1' });
    mock.handle(new Request('http://api.test/v1/mailboxManagement/suppressions', { headers: { authorization: 'Bearer mock-token-a' } }))
      .then(async (response) => {
        if (response.status !== 200) throw new Error('status ' + response.status);
        const t2 = performance.now();
        await mock.close();
        process.stdout.write(JSON.stringify({ load: t1 - t0, firstAnswer: t2 - t1 }));
      });`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as { load: number; firstAnswer: number };
}

async function main(): Promise<void> {
  nodeColdStart(); // tsx's transform cache filled: the runs measure the engine, not the TypeScript compiler
  const node = Array.from({ length: RUNS }, nodeColdStart);
  const dir = await buildApp();
  const sizes = bundleSizes(dir);
  const app = await serveApp(dir);
  const browser: { engine: number; navigation: number }[] = [];
  const chromium = findChromium(ROOT);
  try {
    if (chromium.bin)
      for (let i = 0; i < RUNS; i++) {
        const page = await readPage(
          chromium.bin,
          app.url,
          ['first-answer'],
          "document.getElementById('first-answer').textContent !== ''",
        );
        const match = /after (\d+) ms \((\d+) ms since navigation\)/.exec(page.texts['first-answer']);
        if (match) browser.push({ engine: Number(match[1]), navigation: Number(match[2]) });
      }
  } finally {
    await app.close();
    removeApp(dir);
  }
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const lines = [
    `In-process engine (\`./msw\`), medians of ${RUNS} cold starts on ${cpus().length} CPUs (load average ${loadavg()
      .map((l: number) => l.toFixed(1))
      .join(' ')})`,
    '',
    '| where | measure | time |',
    '|---|---|---:|',
    `| Node ${process.version}, fresh process | loading \`./msw\` (the engine, the contract, ajv, sql.js's loader) | ${ms(median(node.map((n) => n.load)))} |`,
    `| Node ${process.version}, fresh process | \`createHandlers\` to the first answer (the store seeded, the schemas compiled) | ${ms(median(node.map((n) => n.firstAnswer)))} |`,
    browser.length > 0
      ? `| Chromium, the browser example | the app's script start to the first answer (engine built, service worker started) | ${ms(median(browser.map((b) => b.engine)))} |`
      : `| Chromium | not measured: ${chromium.reason ?? 'the page never answered'} | |`,
    browser.length > 0
      ? `| Chromium, the browser example | navigation to the first answer (bundle fetched and parsed too) | ${ms(median(browser.map((b) => b.navigation)))} |`
      : '',
    '',
    `Browser bundle (the example app: the engine, msw, openapi-fetch and the flows): ${kib(sizes.js)} of JavaScript, **${kib(sizes.jsGzip)} gzipped**; sql.js's WASM apart: ${kib(sizes.wasm)} (fetched on the first SQL query).`,
  ];
  process.stdout.write(`${lines.filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`examples:measure: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
