/**
 * `npm run bench`: per workload (a GET of a list; a create with a new Idempotency-Key), this mock beside a bare
 * node:http server replaying the mock's own status, headers and body (and Prism for the GET; for the create, the
 * least a keyed create does written inline on node:http, `lib/bench/least-create.ts`, and the bare server again
 * with BENCH_WORK_US µs of busy loop per request: the work a handler may do within 0.7×) on loopback, in
 * alternating rounds; then the mock's start-up time and its resident memory after 100k idempotent POSTs with
 * distinct keys. Prints markdown. `--throughput` stops after the throughput tables; `--memory` prints the memory
 * line alone; `--start` prints the start-up table alone; `--in-process` prints the mock's own JavaScript per
 * request (no sockets: `scripts/lib/bench/in-process.ts`), this checkout beside BENCH_AGAINST's, in alternating
 * rounds. Environment: BENCH_SECONDS (default 3), BENCH_ROUNDS (default 6), BENCH_CONNECTIONS (default 10),
 * BENCH_WORK_US (default 8,12,16; empty for none), BENCH_POSTS (default 100000), BENCH_IN_PROCESS_REQUESTS
 * (default 20000), BENCH_AGAINST (another checkout whose mock joins every table: the A/B of a change),
 * BENCH_MOCK_FLAGS (node flags for this checkout's mock only, e.g. `--max-semi-space-size=2`: with BENCH_AGAINST=.
 * the A/B of a runtime setting).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  autocannon,
  autocannonTimed,
  BIN,
  cpuMs,
  freePort,
  launch,
  median,
  percentile,
  ROOT,
  rssMb,
  stop,
  waitFor200 as waitFor200With,
} from './lib/bench/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
/**
 * The keyed create's work budget: the bare server again, with this many µs of busy loop per request each, so the
 * table shows how much work of its own a server may do per request and keep 0.7× the bare server's req/s.
 */
const WORK_US = (process.env.BENCH_WORK_US ?? '8,12,16')
  .split(',')
  .filter((value) => value.trim() !== '')
  .map((value) => {
    const us = Number(value);
    if (us > 0) return us;
    process.stderr.write(`bench: BENCH_WORK_US: "${value}" is not a positive number of µs (e.g. 8,12,16)\n`);
    process.exit(2);
  });
/** Requests per in-process measure (`--in-process`), after as many to warm up. */
const IN_PROCESS = Number(process.env.BENCH_IN_PROCESS_REQUESTS ?? 20_000);
/** Another checkout of this repository whose mock is measured beside this one (BENCH_AGAINST=../other-tree). */
const AGAINST = process.env.BENCH_AGAINST;
const PATH = '/mailboxManagement/suppressions';
const TOKEN = 'mock-token-a';

const waitFor200 = (url: string) => waitFor200With(url, TOKEN);

/** One request shape the mock is loaded with, and the bare server answers alike. */
type Workload = {
  name: string;
  method: 'GET' | 'POST';
  /** Under the API's base path. */
  path: string;
  body?: string;
  /** A fresh Idempotency-Key on every request (a create, never a replay). */
  keyed?: boolean;
  /** Prism serves it too (stateless: the GET only). */
  prism?: boolean;
};

const WORKLOADS: Workload[] = [
  { name: `GET /v1${PATH}`, method: 'GET', path: PATH, prism: true },
  {
    name: 'POST /v1/ai/mcpServers, a new Idempotency-Key each',
    method: 'POST',
    path: '/ai/mcpServers',
    body: JSON.stringify({ name: 'bench' }),
    keyed: true,
  },
];

/** What the mock answered, replayed byte for byte by the bare server. */
type Answer = { status: number; headers: [string, string][]; body: string };

/** Headers Node writes itself (Date, Connection, Keep-Alive): the bare server's Node writes them alike. */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

let keys = 0;
const requestHeaders = (workload: Workload): Record<string, string> => ({
  authorization: `Bearer ${TOKEN}`,
  ...(workload.body === undefined ? {} : { 'content-type': 'application/json' }),
  ...(workload.keyed ? { 'idempotency-key': `bench-${process.pid}-${keys++}` } : {}),
});

/** The mock's real answer to one request of the workload: status, every header it sets, the body text. */
async function answerOf(base: string, workload: Workload): Promise<Answer> {
  const response = await fetch(base + workload.path, {
    method: workload.method,
    headers: requestHeaders(workload),
    body: workload.body,
  });
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!WRITTEN_BY_NODE.has(name)) headers.push([name, value]);
  });
  return { status: response.status, headers, body: await response.text() };
}

/**
 * The baseline: a bare node:http server that answers each workload's request with the mock's own status, headers
 * and body (read from the mock at start), after reading the request's body like the mock does. Nothing else.
 */
const BARE_SERVER = `
const answers = new Map(JSON.parse(process.env.ANSWERS));
const workMs = Number(process.env.WORK_US ?? 0) / 1000;
require('node:http').createServer((req, res) => {
  const answer = answers.get(req.method + ' ' + req.url);
  const send = () => {
    // WORK_US: a busy loop that long per request, the CPU a handler's own work would take (the work budget rows).
    if (workMs > 0) for (const until = performance.now() + workMs; performance.now() < until; );
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  if (req.method === 'GET') return send();
  req.on('data', () => {});
  req.on('end', send);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Requests, latencies and CPU time of one load run. */
type Sample = {
  requests: number;
  seconds: number;
  /** 2xx response times, sorted. */ latencies: Float64Array;
  cpuMs: number;
  errors: number;
  non2xx: number;
};
type Role = 'mock' | 'bare' | 'prism' | 'against' | 'least' | 'budget';
type Server = { role: Role; name: string; base: string; child: ChildProcess };

/** One load run; each response's time is kept with its fraction (autocannon's histogram counts whole ms). */
async function load(server: Server, workload: Workload, seconds: number): Promise<Sample> {
  const cpuBefore = cpuMs(server.child.pid);
  const { result, latencies } = await autocannonTimed({
    url: server.base + workload.path,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: workload.method,
        setupRequest: (request) => ({ ...request, headers: requestHeaders(workload), body: workload.body }),
      },
    ],
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencies,
    cpuMs: cpuMs(server.child.pid) - cpuBefore,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * Each server's samples of one workload, one per round, the servers taking turns (A B, B A, …) so a machine
 * whose load drifts weighs on all of them alike.
 */
async function measure(servers: Server[], workload: Workload): Promise<Sample[][]> {
  for (const server of servers) await load(server, workload, 1); // warm-up: JIT, lazy compilation, connections
  const rounds: Sample[][] = servers.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = servers.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) rounds[i].push(await load(servers[i], workload, SECONDS));
  }
  return rounds;
}

const rpsOf = (sample: Sample) => sample.requests / sample.seconds;

/** One server's figures: medians over the rounds (a round the machine's other work disturbed moves none). */
type Row = {
  role: Role;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  cpuUs: number;
  errors: number;
  non2xx: number;
  rounds: Sample[];
};

function toRow({ role, name }: Server, rounds: Sample[]): Row {
  const quantiles = rounds.map((sample) => {
    return { p50: percentile(sample.latencies, 50), p99: percentile(sample.latencies, 99) };
  });
  const sum = (pick: (sample: Sample) => number) => rounds.reduce((total, sample) => total + pick(sample), 0);
  return {
    role,
    name,
    rps: median(rounds.map(rpsOf)),
    p50: median(quantiles.map((q) => q.p50)),
    p99: median(quantiles.map((q) => q.p99)),
    cpuUs:
      (sum((sample) => sample.cpuMs) * 1000) /
      Math.max(
        1,
        sum((sample) => sample.requests),
      ),
    errors: sum((sample) => sample.errors),
    non2xx: sum((sample) => sample.non2xx),
    rounds,
  };
}

/** The median of the rounds' ratios, each of two servers measured one after the other in that round. */
const pairedRatio = (a: Row, b: Row) => median(a.rounds.map((sample, i) => rpsOf(sample) / rpsOf(b.rounds[i])));

/** The mock as `npm start` runs it, one node process (its CPU time is read from its own /proc entry). */
function startMock(role: Role, name: string, port: number, cwd?: string): Server {
  const env = { PORT: String(port), MOCK_RATE_LIMIT: '1000000000' };
  // BENCH_MOCK_FLAGS: node flags for this checkout's mock only (the A/B of a runtime setting, with BENCH_AGAINST=.).
  const flags = role === 'mock' ? (process.env.BENCH_MOCK_FLAGS ?? '').split(/\s+/).filter(Boolean) : [];
  return {
    role,
    name: flags.length > 0 ? `${name}, ${flags.join(' ')}` : name,
    base: `http://127.0.0.1:${port}/v1`,
    child: launch(process.execPath, [...flags, '--require', 'tsx/cjs', 'mocks/server.ts'], env, cwd),
  };
}

async function throughput(): Promise<{ workload: Workload; rows: Row[] }[]> {
  const [mockPort, prismPort, barePort, leastPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const mock = startMock('mock', 'this mock (`npm start`)', mockPort);
  // The same mock from another checkout (an earlier commit), measured in the same rounds: the A/B of a change.
  const against = AGAINST ? startMock('against', `the mock at ${AGAINST}`, await freePort(), AGAINST) : undefined;
  const prism: Server = {
    role: 'prism',
    name: '`prism mock -v silent`',
    base: `http://127.0.0.1:${prismPort}`,
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
  };
  const children = [mock.child, prism.child, ...(against ? [against.child] : [])];
  try {
    await Promise.all([mock, ...(against ? [against] : [])].map((server) => waitFor200(server.base + PATH)));
    const answers: [string, Answer][] = [];
    for (const workload of WORKLOADS)
      answers.push([`${workload.method} /v1${workload.path}`, await answerOf(mock.base, workload)]);
    const bare: Server = {
      role: 'bare',
      name: 'bare `node:http`, the same status, headers and body',
      base: `http://127.0.0.1:${barePort}/v1`,
      child: launch(process.execPath, ['-e', BARE_SERVER], {
        PORT: String(barePort),
        ANSWERS: JSON.stringify(answers),
      }),
    };
    // The least a keyed create must do, inline on node:http: the floor beside the mock's keyed create.
    const least: Server = {
      role: 'least',
      name: 'the least a keyed create does, inline on `node:http` (`scripts/lib/bench/least-create.ts`)',
      base: `http://127.0.0.1:${leastPort}/v1`,
      child: launch(process.execPath, ['--require', 'tsx/cjs', 'scripts/lib/bench/least-create.ts'], {
        PORT: String(leastPort),
      }),
    };
    // The same bare server with a busy loop per request: what the 0.7× target leaves for a handler's own work.
    const budgets: Server[] = [];
    for (const us of WORK_US) {
      const port = await freePort();
      budgets.push({
        role: 'budget',
        name: `bare \`node:http\` with ${us} µs of busy loop per request`,
        base: `http://127.0.0.1:${port}/v1`,
        child: launch(process.execPath, ['-e', BARE_SERVER], {
          PORT: String(port),
          ANSWERS: JSON.stringify(answers),
          WORK_US: String(us),
        }),
      });
    }
    children.push(bare.child, least.child, ...budgets.map((server) => server.child));
    await Promise.all([bare, prism, least, ...budgets].map((server) => waitFor200(server.base + PATH)));
    const tables: { workload: Workload; rows: Row[] }[] = [];
    for (const workload of WORKLOADS) {
      const servers = [
        mock,
        bare,
        ...(workload.prism ? [prism] : []),
        ...(workload.keyed ? [least, ...budgets] : []),
        ...(against ? [against] : []),
      ];
      const samples = await measure(servers, workload);
      tables.push({ workload, rows: servers.map((server, i) => toRow(server, samples[i])) });
    }
    return tables;
  } finally {
    await Promise.all(children.map(stop));
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

/** One in-process measure of a checkout (a child process of its own): its JavaScript's CPU per request. */
async function inProcessSample(checkout: string, workload: 'get' | 'post'): Promise<number> {
  const script = join(ROOT, 'scripts', 'lib', 'bench', 'in-process.ts');
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', script, checkout, workload, String(IN_PROCESS)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { cpuUs?: number; non2xx?: number };
  if (code !== 0 || result.cpuUs === undefined || result.non2xx !== 0)
    throw new Error(`in-process run of ${checkout} failed (exit ${code}): ${out}`);
  return result.cpuUs;
}

/**
 * `--in-process`: the mock's own JavaScript per request of each workload (the listener driven without sockets),
 * this checkout and BENCH_AGAINST's taking turns, a child process per measure; median and lowest of the rounds.
 */
async function inProcessTable(): Promise<void> {
  const checkouts: [string, string][] = [
    ['this checkout', ROOT],
    ...(AGAINST ? [[AGAINST, resolve(AGAINST)] as [string, string]] : []),
  ];
  process.stdout.write(
    `\nThe mock's JavaScript per request, in process (no sockets; ${IN_PROCESS} requests after as many to warm up, 10 at a time, ${ROUNDS} rounds taking turns)\n\n| workload | checkout | CPU per request, median (µs) | lowest (µs) |\n|---|---|---:|---:|\n`,
  );
  for (const workload of ['get', 'post'] as const) {
    const samples: number[][] = checkouts.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = checkouts.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order) samples[i].push(await inProcessSample(checkouts[i][1], workload));
    }
    for (const [i, [name]] of checkouts.entries())
      process.stdout.write(
        `| ${workload === 'get' ? `GET /v1${PATH}` : WORKLOADS[1].name} | ${name} | ${fixed(median(samples[i]), 1)} | ${fixed(Math.min(...samples[i]), 1)} |\n`,
      );
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--start')) return startUpTable();
  if (process.argv.includes('--in-process')) return inProcessTable();
  if (process.argv.includes('--memory')) return printMemoryAfterPosts();
  const os = await import('node:os');
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  process.stdout.write(
    `Benchmark: autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per server and workload, the servers taking turns; req/s, p50 and p99 are medians over the rounds, ratios the median of each round's; ${os.cpus().length} CPUs, load average ${load}\n`,
  );
  const fraction = (ms: number) => fixed(ms, 2);
  for (const { workload, rows } of await throughput()) {
    const [mock, bare] = rows;
    const prism = rows.find((row) => row.role === 'prism');
    const earlier = rows.find((row) => row.role === 'against');
    process.stdout.write(
      `\n${workload.name}\n\n| server | req/s | p50 (ms) | p99 (ms) | CPU per request (µs) | errors | non-2xx |\n|---|---:|---:|---:|---:|---:|---:|\n`,
    );
    for (const row of rows)
      process.stdout.write(
        `| ${row.name} | ${fixed(row.rps)} | ${fraction(row.p50)} | ${fraction(row.p99)} | ${fixed(row.cpuUs)} | ${row.errors} | ${row.non2xx} |\n`,
      );
    process.stdout.write(
      `\nmock / bare node:http: ${fixed(pairedRatio(mock, bare), 2)}× req/s (target ≥ 0.7×), ${fixed(bare.cpuUs / mock.cpuUs, 2)}× CPU per request; mock p99 ${fraction(mock.p99)} ms (target ≤ 1.5 ms) against ${fraction(bare.p99)} ms\n`,
    );
    if (earlier)
      process.stdout.write(
        `mock / ${earlier.name}: ${fixed(pairedRatio(mock, earlier), 2)}× req/s, ${fixed(earlier.cpuUs / mock.cpuUs, 2)}× CPU per request (above 1: this checkout is faster)\n`,
      );
    if (prism)
      process.stdout.write(`mock / prism: ${fixed(pairedRatio(mock, prism), 2)}× req/s (target ≥ 3×, aim 5×)\n`);
    const least = rows.find((row) => row.role === 'least');
    if (least)
      process.stdout.write(
        `the least a keyed create does / bare node:http: ${fixed(pairedRatio(least, bare), 2)}× req/s, ${fixed(bare.cpuUs / least.cpuUs, 2)}× CPU per request (the floor of the 0.7× target: what is left for everything the mock does beyond it); the mock / the least keyed create: ${fixed(pairedRatio(mock, least), 2)}× req/s\n`,
      );
    for (const budget of rows.filter((row) => row.role === 'budget'))
      process.stdout.write(
        `${budget.name} / bare node:http: ${fixed(pairedRatio(budget, bare), 2)}× req/s (the work per request a 0.7× target leaves)\n`,
      );
  }
  if (process.argv.includes('--throughput')) return;
  await startUpTable();
  process.stdout.write('\n');
  await printMemoryAfterPosts();
}

async function printMemoryAfterPosts(): Promise<void> {
  const memory = await memoryAfterPosts();
  process.stdout.write(
    `resident memory after ${POSTS} idempotent POSTs with distinct keys: ${fixed(memory.after, 1)} MB (before: ${fixed(memory.before, 1)} MB; after half: ${fixed(memory.half, 1)} MB; ${fixed(memory.rps)} req/s; non-2xx: ${memory.non2xx})\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
