/**
 * `npm run bench`: this mock, plain Prism and a bare node:http server side by side on loopback, then the mock's
 * start-up time and its resident memory after 100k idempotent POSTs with distinct keys. Prints markdown.
 * Environment: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 10), BENCH_POSTS (default 100000).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  autocannon,
  BIN,
  freePort,
  launch,
  stop,
  waitFor200 as waitFor200With,
  type AutocannonOptions,
  type AutocannonResult,
} from './lib/bench/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const PATH = '/mailboxManagement/suppressions';
const TOKEN = 'mock-token-a';

type Target = { name: string; url: string; command: string };
type Row = { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

const waitFor200 = (url: string) => waitFor200With(url, TOKEN);

async function load(url: string, options: Partial<AutocannonOptions> = {}): Promise<AutocannonResult> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${TOKEN}` },
    ...options,
  });
}

const BARE_SERVER = `
const body = JSON.stringify({ count: 1, suppressions: [{ uuid: '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b', workspaceUuid: '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b', email: 'jane.doe@example.com', reason: 'bounced', mailboxUuid: null, messageUuid: null, createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z' }] });
require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }).listen(Number(process.env.PORT), '127.0.0.1');
`;

async function throughput(): Promise<Row[]> {
  const [mockPort, prismPort, barePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const targets: (Target & { child: ChildProcess })[] = [
    {
      name: 'this mock',
      url: `http://127.0.0.1:${mockPort}/v1${PATH}`,
      command: 'tsx mocks/server.ts',
      child: launch(BIN('tsx'), ['mocks/server.ts'], { PORT: String(mockPort), MOCK_RATE_LIMIT: '1000000000' }),
    },
    {
      name: 'prism mock -v silent',
      url: `http://127.0.0.1:${prismPort}${PATH}`,
      command: 'prism mock -v silent',
      child: launch(BIN('prism'), [
        'mock',
        '-v',
        'silent',
        '-h',
        '127.0.0.1',
        '-p',
        String(prismPort),
        'spec/openapi.yaml',
      ]),
    },
    {
      name: 'bare node:http',
      url: `http://127.0.0.1:${barePort}${PATH}`,
      command: 'node -e',
      child: launch(process.execPath, ['-e', BARE_SERVER], { PORT: String(barePort) }),
    },
  ];
  try {
    await Promise.all(targets.map((t) => waitFor200(t.url)));
    const rows: Row[] = [];
    for (const target of targets) {
      await load(target.url, { duration: 1 }); // warm-up: JIT, lazy compilation, connection pools
      const result = await load(target.url);
      rows.push({
        name: target.name,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        non2xx: result.non2xx,
      });
    }
    return rows;
  } finally {
    await Promise.all(targets.map((t) => stop(t.child)));
  }
}

/** Spawn to first 200 of GET suppressions; median of 3 runs of the given command. */
async function startUp(command: string, args: string[]): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const start = performance.now();
    const child = launch(command, args, { PORT: String(port) });
    try {
      await waitFor200(`http://127.0.0.1:${port}/v1${PATH}`);
      samples.push(performance.now() - start);
    } finally {
      await stop(child);
    }
  }
  return samples.sort((a, b) => a - b)[1];
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/**
 * 100k POSTs, each with its own Idempotency-Key, against an export that selects no run (no record grows), in two
 * halves: the RSS after each half shows whether memory levels off (the key store is capped) or keeps growing.
 */
async function memoryAfterPosts(): Promise<{
  before: number;
  half: number;
  after: number;
  rps: number;
  non2xx: number;
}> {
  const port = await freePort();
  // One process (not the tsx CLI, whose own process would be the one measured).
  const child = launch(process.execPath, ['--import', 'tsx', 'mocks/server.ts'], {
    PORT: String(port),
    MOCK_RATE_LIMIT: '1000000000',
  });
  try {
    await waitFor200(`http://127.0.0.1:${port}/v1${PATH}`);
    const before = rssMb(child.pid!);
    let n = 0;
    const post = () =>
      autocannon({
        url: `http://127.0.0.1:${port}/v1/orchestration/runs/download`,
        connections: CONNECTIONS,
        amount: Math.ceil(POSTS / 2),
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({
              ...request,
              headers: {
                authorization: `Bearer ${TOKEN}`,
                'content-type': 'application/json',
                'idempotency-key': `bench-${n++}`,
              },
              body: JSON.stringify({ statuses: ['idle'] }),
            }),
          },
        ],
      });
    const first = await post();
    const half = rssMb(child.pid!);
    const second = await post();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {
      before,
      half,
      after: rssMb(child.pid!),
      rps: (first.requests.average + second.requests.average) / 2,
      non2xx: first.non2xx + second.non2xx,
    };
  } finally {
    await stop(child);
  }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

/**
 * Spawn to first served request of each way to start the mock. `npm start` loads tsx's CommonJS hook into one node
 * process; the tsx CLI boots a second process, a baseline; the package's command runs the compiled JavaScript
 * (measured when `npm run build` has made dist/).
 */
async function startUpTable(): Promise<void> {
  const variants: [string, string, string[]][] = [
    [
      '`node --require tsx/cjs mocks/server.ts` (npm start)',
      process.execPath,
      ['--require', 'tsx/cjs', 'mocks/server.ts'],
    ],
    ['`node --import tsx mocks/server.ts`', process.execPath, ['--import', 'tsx', 'mocks/server.ts']],
    ['`tsx mocks/server.ts`', BIN('tsx'), ['mocks/server.ts']],
  ];
  const compiled = 'dist/package/bin/workspace-api-mock.js';
  if (existsSync(compiled))
    variants.push([
      '`workspace-api-mock` (the package, compiled: `node ' + compiled + '`)',
      process.execPath,
      [compiled],
    ]);
  process.stdout.write(
    '\n| start command | spawn to first served request (median of 3; target ≤ 1000 ms) |\n|---|---:|\n',
  );
  for (const [label, command, args] of variants)
    process.stdout.write(`| ${label} | ${fixed(await startUp(command, args))} ms |\n`);
}

async function main(): Promise<void> {
  if (process.argv.includes('--start')) return startUpTable();
  const os = await import('node:os');
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  process.stdout.write(
    `Benchmark: GET /v1${PATH} on loopback, autocannon ${CONNECTIONS} connections × ${SECONDS} s each, ${os.cpus().length} CPUs, load average ${load}\n\n`,
  );
  const rows = await throughput();
  const [mock, prism, bare] = rows;
  process.stdout.write('| server | req/s | p50 (ms) | p99 (ms) | errors | non-2xx |\n|---|---:|---:|---:|---:|---:|\n');
  for (const row of rows)
    process.stdout.write(
      `| ${row.name} | ${fixed(row.rps)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} |\n`,
    );
  process.stdout.write(`\nmock / prism: ${fixed(mock.rps / prism.rps, 2)}× req/s (target ≥ 3×, aim 5×)\n`);
  process.stdout.write(`mock / bare node:http: ${fixed(mock.rps / bare.rps, 2)}× req/s\n`);
  process.stdout.write(`mock p99 at ${CONNECTIONS} connections: ${mock.p99} ms (target ≤ 5 ms)\n`);
  await startUpTable();
  process.stdout.write('\n');
  const memory = await memoryAfterPosts();
  process.stdout.write(
    `resident memory after ${POSTS} idempotent POSTs with distinct keys: ${fixed(memory.after, 1)} MB (before: ${fixed(memory.before, 1)} MB; after half: ${fixed(memory.half, 1)} MB; ${fixed(memory.rps)} req/s; non-2xx: ${memory.non2xx})\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
