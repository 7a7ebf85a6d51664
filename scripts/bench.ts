/**
 * `npm run bench`: per workload (a GET of a list; a create with a new Idempotency-Key), this mock beside a bare
 * node:http server replaying the mock's own status, headers and body (and Prism for the GET; for the create, the
 * least a keyed create does written inline on node:http, `lib/bench/least-create.ts`, and the bare server again
 * with BENCH_WORK_US µs of busy loop per request: the work a handler may do within 0.7×) on loopback, in
 * alternating rounds, each server in a process of its own; then the mock's start-up time and its resident memory
 * after 100k idempotent POSTs with distinct keys. Prints markdown.
 *
 * The load generator is `wrk` (C, one thread; `scripts/ensure-wrk.sh` installs Debian's package where it is
 * missing: `lib/bench/wrk.ts`), which needs a fraction of a lean server's CPU per request; `--autocannon` adds
 * autocannon (Node, on the same cores: it saturates before a lean server does) as a second column, in the same
 * rounds, for the figures measured with it before. Each server's CPU per request is its process's user and system
 * time (from /proc) over the requests answered.
 *
 * Flags: `--throughput` stops after the throughput tables; `--rounds N`, `--seconds N` (whole seconds) and
 * `--connections N` override BENCH_ROUNDS, BENCH_SECONDS and BENCH_CONNECTIONS; `--memory` prints the memory line
 * alone; `--start` prints the start-up table alone; `--in-process` prints the mock's own JavaScript per request
 * (no sockets: `scripts/lib/bench/in-process.ts`), this checkout beside BENCH_AGAINST's, in alternating rounds;
 * `--stages` prints each pipeline stage's own time per request (in process, one request at a time);
 * `--instructions` prints the instructions per request of each workload, counted by callgrind in process (counts
 * do not spread with the machine's load as times do: `lib/bench/instructions.ts`), beside BENCH_AGAINST's.
 * Environment: BENCH_SECONDS (default 3), BENCH_ROUNDS (default 6), BENCH_CONNECTIONS (default 10), BENCH_WORK_US
 * (default 8,12,16; empty for none), BENCH_POSTS (default 100000), BENCH_IN_PROCESS_REQUESTS (default 20000),
 * BENCH_COUNTED_REQUESTS and BENCH_WARM_UP (`--instructions`: default 5000 counted after 20000), VALGRIND_BIN,
 * BENCH_AGAINST (another checkout whose mock joins every table: the A/B of a change), BENCH_MOCK_FLAGS (node flags
 * for this checkout's mock only, e.g. `--max-semi-space-size=2`: with BENCH_AGAINST=. the A/B of a runtime
 * setting), WRK_BIN (another wrk binary).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BARE_SERVER, type Answer } from './lib/bench/bare-server';
import { countInstructions, findValgrind, type InstructionCount } from './lib/bench/instructions';
import { cpuUsPerRequest, freshPrefix, loadOnce, type Generator, type Sample } from './lib/bench/generators';
import {
  autocannon,
  BIN,
  freePort,
  launch,
  median,
  ROOT,
  rssMb,
  stop,
  waitFor200 as waitFor200With,
} from './lib/bench/processes';
import { findWrk, type LoadRequest } from './lib/bench/wrk';
import { IDEMPOTENCY_KEY_HEADER } from '../spec/lib/constants';

/** A whole number ≥ 1 from `--name N` or the environment, or the default; exit 2 with a reason otherwise. */
function countOption(flag: string, variable: string, fallback: number): number {
  const at = process.argv.indexOf(flag);
  const text = at >= 0 ? process.argv[at + 1] : process.env[variable];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (Number.isInteger(value) && value >= 1) return value;
  process.stderr.write(`bench: ${at >= 0 ? flag : variable}: "${text}" is not a whole number of 1 or more\n`);
  process.exit(2);
}

const SECONDS = countOption('--seconds', 'BENCH_SECONDS', 3);
const CONNECTIONS = countOption('--connections', 'BENCH_CONNECTIONS', 10);
const ROUNDS = countOption('--rounds', 'BENCH_ROUNDS', 6);
const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
/** wrk always; autocannon beside it with `--autocannon`. */
const GENERATORS: Generator[] = process.argv.includes('--autocannon') ? ['wrk', 'autocannon'] : ['wrk'];
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

/** Headers Node writes itself (Date, Connection, Keep-Alive): the bare server's Node writes them alike. */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The workload's request for one run: a keyed one gets a prefix of its own, so no run replays another's keys. */
const requestOf = (workload: Workload): LoadRequest => ({
  method: workload.method,
  headers: {
    authorization: `Bearer ${TOKEN}`,
    ...(workload.body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: workload.body,
  fresh: workload.keyed ? { header: IDEMPOTENCY_KEY_HEADER, prefix: freshPrefix() } : undefined,
});

/** The mock's real answer to one request of the workload: status, every header it sets, the body text. */
async function answerOf(base: string, workload: Workload): Promise<Answer> {
  const request = requestOf(workload);
  const response = await fetch(base + workload.path, {
    method: workload.method,
    headers: request.fresh
      ? { ...request.headers, [request.fresh.header]: `${request.fresh.prefix}answer` }
      : request.headers,
    body: workload.body,
  });
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!WRITTEN_BY_NODE.has(name)) headers.push([name, value]);
  });
  return { status: response.status, headers, body: await response.text() };
}

type Role = 'mock' | 'bare' | 'prism' | 'against' | 'least' | 'budget' | 'floor';
type Server = { role: Role; name: string; base: string; child: ChildProcess };

/** wrk's binary, found (or installed) once, before the first run; the bench cannot run without it. */
let wrkBin: string | undefined;
function requireWrk(): string {
  if (wrkBin) return wrkBin;
  const found = findWrk(ROOT);
  if (!found.bin) {
    process.stderr.write(`bench: wrk, the load generator, is missing and could not be installed: ${found.reason}\n`);
    process.exit(2);
  }
  return (wrkBin = found.bin);
}

/** One load run of a server by one generator. */
const load = (generator: Generator, server: Server, workload: Workload, seconds: number) =>
  loadOnce(generator, { url: server.base + workload.path, pid: server.child.pid, wrkBin }, requestOf(workload), {
    connections: CONNECTIONS,
    seconds,
  });

/** Samples by generator, then server, then round. */
type Samples = Map<Generator, Sample[][]>;

/**
 * Each server's samples of one workload, one per round and generator, the servers taking turns (A B, B A, …) so
 * a machine whose load drifts weighs on all of them alike, and each round's ratios compare neighbours in time.
 */
async function measure(servers: Server[], workload: Workload): Promise<Samples> {
  // Warm-up: JIT, lazy compilation, connections.
  for (const server of servers) await load(GENERATORS[0], server, workload, 1);
  const samples: Samples = new Map(GENERATORS.map((generator) => [generator, servers.map(() => [])]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = servers.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const generator of GENERATORS)
      for (const i of order) samples.get(generator)?.[i].push(await load(generator, servers[i], workload, SECONDS));
  }
  return samples;
}

const rpsOf = (sample: Sample) => sample.requests / sample.seconds;

/** One server's figures under one generator: medians over the rounds (a disturbed round moves none). */
type Row = {
  rps: number;
  p50: number;
  p99: number;
  cpuUs: number;
  generatorCpuUs: number;
  errors: number;
  badStatus: number;
  rounds: Sample[];
};

function toRow(rounds: Sample[]): Row {
  const sum = (pick: (sample: Sample) => number) => rounds.reduce((total, sample) => total + pick(sample), 0);
  return {
    rps: median(rounds.map(rpsOf)),
    p50: median(rounds.map((sample) => sample.p50)),
    p99: median(rounds.map((sample) => sample.p99)),
    cpuUs: cpuUsPerRequest(rounds),
    generatorCpuUs: cpuUsPerRequest(rounds, 'generatorCpuMs'),
    errors: sum((sample) => sample.errors),
    badStatus: sum((sample) => sample.badStatus),
    rounds,
  };
}

/** The median of the rounds' ratios of a figure, each of two servers measured one after the other that round. */
const pairedRatio = (a: Row, b: Row, figure: (sample: Sample) => number = rpsOf) =>
  median(a.rounds.map((sample, i) => figure(sample) / figure(b.rounds[i])));
const p99Of = (sample: Sample) => sample.p99;

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

/** A server of the benchmark's own (bare, its budget rows, the least create), each a node process. */
async function startBaseline(role: Role, name: string, args: string[], env: Record<string, string>) {
  const port = await freePort();
  const child = launch(process.execPath, args, { PORT: String(port), ...env });
  return { role, name, base: `http://127.0.0.1:${port}/v1`, child } satisfies Server;
}

/** The servers that only answer what the mock answered (read once from the running mock). */
async function startBaselines(
  mock: Server,
): Promise<{ bare: Server; least: Server; floor: Server; budgets: Server[] }> {
  const answers: [string, Answer][] = [];
  for (const workload of WORKLOADS)
    answers.push([`${workload.method} /v1${workload.path}`, await answerOf(mock.base, workload)]);
  const ANSWERS = JSON.stringify(answers);
  const bare = await startBaseline('bare', 'bare `node:http`, the same status, headers and body', ['-e', BARE_SERVER], {
    ANSWERS,
  });
  // The least a keyed create must do, inline on node:http: the floor beside the mock's keyed create.
  const least = await startBaseline(
    'least',
    'the least a keyed create does, inline on `node:http` (`scripts/lib/bench/least-create.ts`)',
    ['--require', 'tsx/cjs', 'scripts/lib/bench/least-create.ts'],
    {},
  );
  // The mock's own listener, front door and stages, each passing the request on: what its shape costs.
  const floor = await startBaseline(
    'floor',
    "the mock's pipeline floor: its stages passing on, the same answer (`scripts/lib/bench/pipeline-floor.ts`)",
    ['--require', 'tsx/cjs', 'scripts/lib/bench/pipeline-floor.ts'],
    { ANSWERS },
  );
  // The same bare server with a busy loop per request: what the 0.7× target leaves for a handler's own work.
  const budgets: Server[] = [];
  for (const us of WORK_US)
    budgets.push(
      await startBaseline('budget', `bare \`node:http\` with ${us} µs of busy loop per request`, ['-e', BARE_SERVER], {
        ANSWERS,
        WORK_US: String(us),
      }),
    );
  return { bare, least, floor, budgets };
}

type Table = { workload: Workload; servers: Server[]; rows: Map<Generator, Row[]> };

async function throughput(): Promise<Table[]> {
  const [mockPort, prismPort] = await Promise.all([freePort(), freePort()]);
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
  const started: Server[] = [mock, prism, ...(against ? [against] : [])];
  try {
    await Promise.all([mock, ...(against ? [against] : [])].map((server) => waitFor200(server.base + PATH)));
    const { bare, least, floor, budgets } = await startBaselines(mock);
    started.push(bare, least, floor, ...budgets);
    await Promise.all([bare, prism, least, floor, ...budgets].map((server) => waitFor200(server.base + PATH)));
    const tables: Table[] = [];
    for (const workload of WORKLOADS) {
      const servers = [
        mock,
        bare,
        floor,
        ...(workload.prism ? [prism] : []),
        ...(workload.keyed ? [least, ...budgets] : []),
        ...(against ? [against] : []),
      ];
      const samples = await measure(servers, workload);
      const rows = new Map(GENERATORS.map((generator) => [generator, (samples.get(generator) ?? []).map(toRow)]));
      tables.push({ workload, servers, rows });
    }
    return tables;
  } finally {
    await Promise.all(started.map((server) => stop(server.child)));
  }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const fraction = (ms: number) => fixed(ms, 2);
const times = (ratio: number) => `${fixed(ratio, 2)}×`;
const cpuOf = (a: Row, b: Row) => `${fixed(a.cpuUs, 1)} against ${fixed(b.cpuUs, 1)} µs`;

/** One workload's table: a row per server, wrk's columns, and autocannon's beside them when it ran. */
function printTable({ workload, servers, rows }: Table): void {
  const columns = (generator: Generator) => [
    `req/s (${generator})`,
    `p50 (ms, ${generator})`,
    `p99 (ms, ${generator})`,
    `CPU per request (µs, ${generator})`,
    `${generator}'s own CPU per request (µs)`,
    `errors (${generator})`,
    generator === 'wrk' ? 'status ≥ 400 (wrk)' : 'non-2xx (autocannon)',
  ];
  const head = ['server', ...GENERATORS.flatMap(columns)];
  process.stdout.write(
    `\n${workload.name}\n\n| ${head.join(' | ')} |\n|---|${head
      .slice(1)
      .map(() => '---:|')
      .join('')}\n`,
  );
  servers.forEach((server, i) => {
    const cells = GENERATORS.flatMap((generator) => {
      const row = rows.get(generator)?.[i];
      if (!row) return columns(generator).map(() => '');
      const cpu = [fixed(row.cpuUs, 1), fixed(row.generatorCpuUs, 1)];
      return [fixed(row.rps), fraction(row.p50), fraction(row.p99), ...cpu, row.errors, row.badStatus];
    });
    process.stdout.write(`| ${server.name} | ${cells.join(' | ')} |\n`);
  });
}

/** The ratios of one workload under one generator, each round's pair of servers compared, then the median. */
function printRatios({ servers, rows }: Table, generator: Generator): void {
  const of = (role: Role) => rows.get(generator)?.[servers.findIndex((server) => server.role === role)];
  const [mock, bare, prism, earlier, least, floor] = (
    ['mock', 'bare', 'prism', 'against', 'least', 'floor'] as const
  ).map(of);
  if (!mock || !bare) return;
  const say = (line: string) => process.stdout.write(`(${generator}) ${line}\n`);
  say(
    `mock / bare node:http: ${times(pairedRatio(mock, bare))} req/s, CPU per request ${cpuOf(mock, bare)}; mock p99 ${fraction(mock.p99)} ms against ${fraction(bare.p99)} ms`,
  );
  if (floor)
    say(
      `the mock's pipeline floor / bare node:http: ${times(pairedRatio(floor, bare))} req/s, CPU per request ${cpuOf(floor, bare)}; the mock / its floor: ${times(pairedRatio(mock, floor))} req/s`,
    );
  if (earlier)
    say(
      `mock / ${servers.find((server) => server.role === 'against')?.name}: ${times(pairedRatio(mock, earlier))} req/s (above 1: this checkout is faster), CPU per request ${cpuOf(mock, earlier)}`,
    );
  if (prism) say(`mock / prism: ${times(pairedRatio(mock, prism))} req/s (target ≥ 3×, aim 5×)`);
  if (least)
    say(
      `the least a keyed create does / bare node:http: ${times(pairedRatio(least, bare))} req/s, CPU per request ${cpuOf(least, bare)}; the mock / the least keyed create: ${times(pairedRatio(mock, least))} req/s, p99 ${times(pairedRatio(mock, least, p99Of))}`,
    );
  servers.forEach((server, i) => {
    const budget = rows.get(generator)?.[i];
    if (server.role === 'budget' && budget)
      say(
        `${server.name} / bare node:http: ${times(pairedRatio(budget, bare))} req/s (the work per request 0.7× leaves)`,
      );
  });
}

/**
 * The issue's ratios side by side, one column per generator: the keyed create against the least keyed create,
 * the list GET against bare node:http (each the median of the rounds' paired ratios), and CPU per request.
 */
function printSummary(tables: Table[]): void {
  const find = (keyed: boolean, generator: Generator, role: Role) => {
    const table = tables.find((candidate) => Boolean(candidate.workload.keyed) === keyed);
    return table?.rows.get(generator)?.[table.servers.findIndex((server) => server.role === role)];
  };
  type Line = [string, string, (generator: Generator) => string];
  // `of` against `role` (the mock, unless another server is named).
  const paired =
    (keyed: boolean, role: Role, figure?: (sample: Sample) => number, of: Role = 'mock') =>
    (generator: Generator) => {
      const [a, b] = [find(keyed, generator, of), find(keyed, generator, role)];
      return a && b ? times(pairedRatio(a, b, figure)) : '';
    };
  const cpu = (keyed: boolean, role: Role) => (generator: Generator) => {
    const [a, b] = [find(keyed, generator, 'mock'), find(keyed, generator, role)];
    return a && b ? cpuOf(a, b) : '';
  };
  const lines: Line[] = [
    ['keyed create / least keyed create, req/s', '≥ 0.9×', paired(true, 'least')],
    ['keyed create / least keyed create, p99', '≤ 1.25×', paired(true, 'least', p99Of)],
    ['keyed create, least keyed create: CPU per request', '', cpu(true, 'least')],
    // The floor: the mock's listener, front door and stages, each passing on. A ratio above the floor's is out
    // of reach of any work on the stages.
    [
      "the mock's pipeline floor, keyed create / least keyed create, req/s",
      '',
      paired(true, 'least', undefined, 'floor'),
    ],
    ['list GET / bare `node:http`, req/s', '≥ 0.7×', paired(false, 'bare')],
    ['list GET / bare `node:http`, p99', '', paired(false, 'bare', p99Of)],
    ['list GET, bare `node:http`: CPU per request', '', cpu(false, 'bare')],
    ["the mock's pipeline floor, list GET / bare `node:http`, req/s", '', paired(false, 'bare', undefined, 'floor')],
    ['list GET / the pipeline floor, req/s', '', paired(false, 'floor')],
    ['list GET / `prism mock`, req/s', '≥ 3×', paired(false, 'prism')],
  ];
  // BENCH_AGAINST: the same ratios' numerators against the checkout before, measured in the same rounds.
  if (AGAINST)
    lines.push(
      [`keyed create / the mock at ${AGAINST}, req/s`, '', paired(true, 'against')],
      [`list GET / the mock at ${AGAINST}, req/s`, '', paired(false, 'against')],
    );
  process.stdout.write(
    `\nRatios (the median of the rounds' ratios, each of two servers measured one after the other)\n\n| ratio | target | ${GENERATORS.join(' | ')} |\n|---|---|${GENERATORS.map(() => '---:|').join('')}\n`,
  );
  for (const [name, target, value] of lines)
    process.stdout.write(`| ${name} | ${target} | ${GENERATORS.map(value).join(' | ')} |\n`);
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
    const before = rssMb(child.pid);
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
                [IDEMPOTENCY_KEY_HEADER]: `bench-${n++}`,
              },
              body: JSON.stringify({ statuses: ['idle'] }),
            }),
          },
        ],
      });
    const first = await post();
    const half = rssMb(child.pid);
    const second = await post();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {
      before,
      half,
      after: rssMb(child.pid),
      rps: (first.requests.average + second.requests.average) / 2,
      non2xx: first.non2xx + second.non2xx,
    };
  } finally {
    await stop(child);
  }
}

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

type InProcessResult = { cpuUs: number; non2xx: number; stages?: { name: string; us: number }[] };

/** One in-process measure of a checkout (a child process of its own): its JavaScript's CPU per request. */
async function inProcessSample(
  checkout: string,
  workload: 'get' | 'post',
  flags: string[] = [],
): Promise<InProcessResult> {
  const script = join(ROOT, 'scripts', 'lib', 'bench', 'in-process.ts');
  const args = ['--require', 'tsx/cjs', script, checkout, workload, String(IN_PROCESS), ...flags];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Partial<InProcessResult>;
  if (code !== 0 || result.cpuUs === undefined || result.non2xx !== 0)
    throw new Error(`in-process run of ${checkout} failed (exit ${code}): ${out}`);
  return { cpuUs: result.cpuUs, non2xx: result.non2xx, stages: result.stages };
}

/**
 * `--stages`: each stage of the API's pipeline, its own time per request (`in-process.ts --stages`: one request
 * at a time, each stage timed from its call until its answer settles, less the next stage's), median over the
 * rounds, for both workloads; this checkout only (the probe is this checkout's).
 */
async function stagesTable(): Promise<void> {
  const byWorkload = new Map<string, Map<string, number[]>>();
  for (const workload of ['get', 'post'] as const) {
    const times = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const { name, us } of (await inProcessSample(ROOT, workload, ['--stages'])).stages ?? [])
        times.set(name, [...(times.get(name) ?? []), us]);
    byWorkload.set(workload, times);
  }
  const get = byWorkload.get('get') ?? new Map<string, number[]>();
  const post = byWorkload.get('post') ?? new Map<string, number[]>();
  const names = [...new Set([...post.keys(), ...get.keys()])];
  const cell = (times: Map<string, number[]>, name: string) => {
    const samples = times.get(name);
    return samples ? fixed(median(samples), 1) : '—';
  };
  const total = (times: Map<string, number[]>) =>
    fixed(
      [...times.values()].reduce((sum, samples) => sum + median(samples), 0),
      1,
    );
  process.stdout.write(
    `\nEach stage's own time per request, in process (one request at a time; ${IN_PROCESS} requests after as many to warm up; median of ${ROUNDS} rounds; wall time from the stage's call until its answer settles, less the next stage's: the probe's bookkeeping is in each figure)\n\n| stage (the pipeline's order) | GET /v1${PATH} (µs) | ${WORKLOADS[1].name} (µs) |\n|---|---:|---:|\n`,
  );
  for (const name of names) process.stdout.write(`| ${name} | ${cell(get, name)} | ${cell(post, name)} |\n`);
  process.stdout.write(`| all stages | ${total(get)} | ${total(post)} |\n`);
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
      for (const i of order) samples[i].push((await inProcessSample(checkouts[i][1], workload)).cpuUs);
    }
    for (const [i, [name]] of checkouts.entries())
      process.stdout.write(
        `| ${workload === 'get' ? `GET /v1${PATH}` : WORKLOADS[1].name} | ${name} | ${fixed(median(samples[i]), 1)} | ${fixed(Math.min(...samples[i]), 1)} |\n`,
      );
  }
}

/** Requests counted per instruction count (`--instructions`), after BENCH_WARM_UP (default 20 000) to warm up. */
const COUNTED = Number(process.env.BENCH_COUNTED_REQUESTS ?? 5_000);

/**
 * `--instructions`: the instructions the mock executes per request of each workload (`lib/bench/instructions.ts`:
 * callgrind, in process, the optimising compiler's share apart), this checkout and BENCH_AGAINST's taking turns;
 * median of the rounds (3 unless `--rounds`), and the change in percent. About a minute a count.
 */
async function instructionsTable(): Promise<void> {
  const found = findValgrind(ROOT);
  if ('reason' in found) throw new Error(`--instructions needs valgrind: ${found.reason}`);
  const rounds = process.argv.includes('--rounds') ? ROUNDS : 3;
  const checkouts: [string, string][] = [
    ['this checkout', ROOT],
    ...(AGAINST ? [[AGAINST, resolve(AGAINST)] as [string, string]] : []),
  ];
  process.stdout.write(
    `\nInstructions per request, in process (callgrind; ${COUNTED} requests counted after ${process.env.BENCH_WARM_UP ?? 20_000} to warm up, 10 at a time, node --single-threaded; median of ${rounds} rounds taking turns; the collector's and the compilers' shares apart: the collector's comes in lumps, and under valgrind the compilers' timed work falls on fewer requests)\n\n| workload | checkout | instructions per request (the request's own) | rounds' range | change | the collector's, apart | the compilers', apart |\n|---|---|---:|---:|---:|---:|---:|\n`,
  );
  for (const workload of ['get', 'post'] as const) {
    const counts: InstructionCount[][] = checkouts.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = checkouts.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      for (const i of order)
        counts[i].push(
          await countInstructions({
            root: ROOT,
            checkout: checkouts[i][1],
            workload,
            requests: COUNTED,
            valgrind: found.bin,
          }),
        );
    }
    const medians = counts.map((samples) => ({
      perRequest: median(samples.map((c) => c.perRequest)),
      compilerPerRequest: median(samples.map((c) => c.compilerPerRequest)),
      collectorPerRequest: median(samples.map((c) => c.collectorPerRequest)),
      range: `${Math.round(Math.min(...samples.map((c) => c.perRequest))).toLocaleString('en')}–${Math.round(Math.max(...samples.map((c) => c.perRequest))).toLocaleString('en')}`,
    }));
    for (const [i, [name]] of checkouts.entries()) {
      const change =
        i === 0 && medians.length > 1
          ? `${(((medians[0].perRequest - medians[1].perRequest) / medians[1].perRequest) * 100).toFixed(1)} %`
          : '';
      process.stdout.write(
        `| ${workload === 'get' ? `GET /v1${PATH}` : WORKLOADS[1].name} | ${name} | ${Math.round(medians[i].perRequest).toLocaleString('en')} | ${medians[i].range} | ${change} | ${Math.round(medians[i].collectorPerRequest).toLocaleString('en')} | ${Math.round(medians[i].compilerPerRequest).toLocaleString('en')} |\n`,
      );
    }
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--instructions')) return instructionsTable();
  if (process.argv.includes('--start')) return startUpTable();
  if (process.argv.includes('--in-process')) return inProcessTable();
  if (process.argv.includes('--stages')) return stagesTable();
  if (process.argv.includes('--memory')) return printMemoryAfterPosts();
  requireWrk();
  const os = await import('node:os');
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const generators =
    GENERATORS.length > 1 ? 'wrk (one thread), and autocannon in the columns so marked,' : 'wrk (one thread)';
  process.stdout.write(
    `Benchmark: ${generators} ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per server, workload and generator, the servers taking turns; req/s, p50 and p99 are medians over the rounds, CPU per request the server process's CPU time over its requests, ratios the median of each round's; ${os.cpus().length} CPUs, load average ${load}\n`,
  );
  const tables = await throughput();
  for (const table of tables) {
    printTable(table);
    process.stdout.write('\n');
    for (const generator of GENERATORS) printRatios(table, generator);
  }
  printSummary(tables);
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
