/**
 * `npm run bench:redis`: the mock on its in-memory store against the same mock on Redis (one replica, then two
 * replicas sharing one Redis), same workloads, same run, side by side. Starts its own redis-server (Debian's
 * package, installed by scripts/ensure-redis.sh where missing) on a free loopback port. Prints markdown: per
 * setup the throughput, p50/p90/p99 of every 2xx answer as measured (fractions of a millisecond), and what one
 * request costs: the mock's CPU, Redis's CPU, the commands Redis ran and the reads of its sockets (each a batch
 * of pipelined commands: a round trip, shared by the concurrent requests whose commands travelled together).
 *
 * `-- --baseline <dir>` also runs one replica on Redis from another checkout of the project (e.g. an older
 * commit unpacked with `git archive`, its node_modules linked), in the same rounds: a change measured before and
 * after in one run. Environment: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS
 * (default 3).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import Redis from 'ioredis';
import { startRedisServer } from '../mocks/testing/redis-server';
import { IDEMPOTENCY_KEY_HEADER } from '../spec/lib/constants';
import {
  autocannonTimed,
  cpuMs,
  freePort,
  launch,
  median,
  percentile,
  stop,
  waitFor200,
  type AutocannonOptions,
} from './lib/bench/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'mock-token-a';
const READ_PATH = '/v1/mailboxManagement/suppressions';

type Workload = { name: string; options: (origin: string) => Partial<AutocannonOptions> & { url: string } };
let sequence = 0;
const WORKLOADS: Workload[] = [
  { name: 'GET suppressions', options: (origin) => ({ url: `${origin}${READ_PATH}` }) },
  {
    name: 'POST MCP server, new Idempotency-Key each',
    options: (origin) => ({
      url: `${origin}/v1/ai/mcpServers`,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => ({
            ...request,
            headers: {
              authorization: `Bearer ${TOKEN}`,
              'content-type': 'application/json',
              [IDEMPOTENCY_KEY_HEADER]: `bench-${process.pid}-${++sequence}`,
            },
            body: JSON.stringify({ name: 'Bench', description: 'Created by bench:redis' }),
          }),
        },
      ],
    }),
  },
];

type Setup = { name: string; replicas: number; redis: boolean; root?: string };

/** One measure of one setup: latencies in ms, costs per request (CPU in ms, Redis's counts). */
type Sample = {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
  mockCpuMs: number;
  redisCpuUs: number;
  commands: number;
  scripts: number;
  socketReads: number;
};

/** A mistake in the command line: its message is all the user needs (no stack). */
class UsageError extends Error {}

function readArgs(argv: string[]): { baseline?: string } {
  const args: { baseline?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const [option, inline] = argv[i].split(/=(.*)/s, 2);
    if (option !== '--baseline') throw new UsageError(`unknown option ${argv[i]} (known: --baseline <dir>)`);
    const value = inline ?? argv[++i];
    if (!value) throw new UsageError('--baseline needs a directory (another checkout of the project)');
    const root = resolve(value);
    if (!existsSync(resolve(root, 'mocks', 'server.ts')))
      throw new UsageError(
        `--baseline ${value}: no mocks/server.ts there (a checkout of the project, with node_modules)`,
      );
    args.baseline = root;
  }
  return args;
}

/** Redis's own counters: CPU seconds, commands run (scripts' own included), scripts, reads of client sockets. */
async function redisCounters(client: Redis) {
  const info = await client.info('all');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  const scripts = [...info.matchAll(/^cmdstat_(?:evalsha|eval|fcall):calls=(\d+)/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
  return {
    cpu: field('used_cpu_user') + field('used_cpu_sys'),
    commands: field('total_commands_processed'),
    scripts,
    reads: field('total_reads_processed'),
  };
}

/** Runs the workload against every replica at once (connections split between them); req/s and latencies pooled. */
async function measure(
  replicas: { origin: string; child: ChildProcess }[],
  workload: Workload,
  duration: number,
  redis: Redis,
): Promise<Sample> {
  const connections = Math.max(1, Math.floor(CONNECTIONS / replicas.length));
  const cpuBefore = replicas.reduce((sum, r) => sum + cpuMs(r.child.pid) / 1000, 0);
  const before = await redisCounters(redis);
  const runs = await Promise.all(
    replicas.map(({ origin }) =>
      autocannonTimed({
        connections,
        duration,
        headers: { authorization: `Bearer ${TOKEN}` },
        ...workload.options(origin),
      }),
    ),
  );
  const after = await redisCounters(redis);
  const cpu = replicas.reduce((sum, r) => sum + cpuMs(r.child.pid) / 1000, 0) - cpuBefore;
  const latencies = Float64Array.from(runs.flatMap(({ latencies }) => [...latencies])).sort();
  const total = runs.reduce((sum, { result }) => sum + result.requests.total, 0);
  const perRequest = (n: number) => (total > 0 ? n / total : NaN);
  return {
    rps: runs.reduce((sum, { result }) => sum + result.requests.average, 0),
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    errors: runs.reduce((sum, { result }) => sum + result.errors, 0),
    non2xx: runs.reduce((sum, { result }) => sum + result.non2xx, 0),
    mockCpuMs: perRequest(cpu * 1000),
    redisCpuUs: perRequest((after.cpu - before.cpu) * 1e6),
    // The INFO that reads the counters is one command and one read of its own.
    commands: perRequest(after.commands - before.commands - 1),
    scripts: perRequest(after.scripts - before.scripts),
    socketReads: perRequest(after.reads - before.reads - 1),
  };
}

const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2));
  const setups: Setup[] = [
    { name: 'in memory, 1 replica', replicas: 1, redis: false },
    { name: 'Redis, 1 replica', replicas: 1, redis: true },
    ...(args.baseline ? [{ name: 'Redis, 1 replica, baseline', replicas: 1, redis: true, root: args.baseline }] : []),
    { name: 'Redis, 2 replicas together', replicas: 2, redis: true },
  ];
  const redis = await startRedisServer();
  const counters = new Redis(redis.url, { lazyConnect: true });
  await counters.connect();
  const rows: (Sample & { setup: string; workload: string })[] = [];
  const children: ChildProcess[] = [];
  let loadAtEnd = '';
  try {
    process.stdout.write(
      `Benchmark: the mock in memory vs on Redis (${redis.url}), autocannon ${CONNECTIONS} connections × ${SECONDS} s per measure, ${ROUNDS} rounds alternating the setups (median shown), ${cpus().length} CPUs, load average ${loadAverage()}${args.baseline ? `; baseline: ${args.baseline}` : ''}\n\n`,
    );
    // Every setup runs all along and the rounds alternate between them, so a change of the machine's load
    // meanwhile touches each setup alike.
    const started = await Promise.all(
      setups.map(async (setup) => {
        const prefix = `bench:${randomUUID()}:`;
        const ports = await Promise.all(Array.from({ length: setup.replicas }, () => freePort()));
        const replicas = ports.map((port) => {
          const child = launch(
            process.execPath,
            ['--require', 'tsx/cjs', 'mocks/server.ts'],
            {
              PORT: String(port),
              MOCK_RATE_LIMIT: '1000000000',
              ...(setup.redis ? { MOCK_REDIS_URL: redis.url, MOCK_REDIS_PREFIX: prefix } : {}),
            },
            setup.root,
          );
          children.push(child);
          return { origin: `http://127.0.0.1:${port}`, child };
        });
        await Promise.all(replicas.map(({ origin }) => waitFor200(`${origin}${READ_PATH}`, TOKEN)));
        return { setup, replicas };
      }),
    );
    const samples = new Map<string, Sample[]>();
    for (const { replicas } of started)
      for (const workload of WORKLOADS) await measure(replicas, workload, 1, counters); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const workload of WORKLOADS) {
        for (const { setup, replicas } of started) {
          const id = `${workload.name}|${setup.name}`;
          samples.set(id, [...(samples.get(id) ?? []), await measure(replicas, workload, SECONDS, counters)]);
        }
      }
    }
    loadAtEnd = loadAverage();
    for (const workload of WORKLOADS) {
      for (const setup of setups) {
        const runs = samples.get(`${workload.name}|${setup.name}`) ?? [];
        const of = (field: keyof Sample) => median(runs.map((r) => r[field]));
        rows.push({
          setup: setup.name,
          workload: workload.name,
          rps: of('rps'),
          p50: of('p50'),
          p90: of('p90'),
          p99: of('p99'),
          errors: runs.reduce((sum, r) => sum + r.errors, 0),
          non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
          mockCpuMs: of('mockCpuMs'),
          redisCpuUs: of('redisCpuUs'),
          commands: of('commands'),
          scripts: of('scripts'),
          socketReads: of('socketReads'),
        });
      }
    }
  } finally {
    counters.disconnect();
    await Promise.all(children.map(stop));
    await redis.stop();
  }

  const redisCell = (row: Sample & { setup: string }, value: number, digits: number) =>
    row.setup.startsWith('Redis') ? value.toFixed(digits) : '–';
  process.stdout.write(
    '| workload | setup | req/s | p50 (ms) | p90 (ms) | p99 (ms) | errors | non-2xx | mock CPU / req (ms) | Redis CPU / req (µs) | Redis commands / req (scripts) | Redis socket reads / req |\n' +
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  for (const row of rows)
    process.stdout.write(
      `| ${row.workload} | ${row.setup} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p90.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.errors} | ${row.non2xx} | ${row.mockCpuMs.toFixed(3)} | ${redisCell(row, row.redisCpuUs, 1)} | ${row.setup.startsWith('Redis') ? `${row.commands.toFixed(1)} (${row.scripts.toFixed(1)})` : '–'} | ${redisCell(row, row.socketReads, 2)} |\n`,
    );
  process.stdout.write('\n');
  for (const workload of WORKLOADS) {
    const of = (setup: string) => {
      const row = rows.find((r) => r.workload === workload.name && r.setup === setup);
      if (!row) throw new Error(`no figures for ${workload.name} on ${setup}`);
      return row;
    };
    const memory = of('in memory, 1 replica');
    const one = of('Redis, 1 replica');
    const two = of('Redis, 2 replicas together');
    const baseline = args.baseline ? of('Redis, 1 replica, baseline') : undefined;
    process.stdout.write(
      `${workload.name}: p99 on Redis ${one.p99.toFixed(2)} ms (goal ≤ 5 ms; in memory ${memory.p99.toFixed(2)} ms${baseline ? `, baseline on Redis ${baseline.p99.toFixed(2)} ms` : ''}); Redis / memory ${(one.rps / memory.rps).toFixed(2)}× req/s${baseline ? `, Redis / baseline ${(one.rps / baseline.rps).toFixed(2)}×` : ''}; two replicas / one ${(two.rps / one.rps).toFixed(2)}×\n`,
    );
  }
  process.stdout.write(`\nLoad average at the end: ${loadAtEnd}.\n`);
}

main().catch((error) => {
  const detail = error instanceof UsageError ? error.message : error instanceof Error ? error.stack : error;
  process.stderr.write(`bench:redis failed: ${detail}\n`);
  process.exit(1);
});
