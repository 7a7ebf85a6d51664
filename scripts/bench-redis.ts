/**
 * `npm run bench:redis`: the mock on its in-memory store against the same mock on Redis (one replica, then two
 * replicas sharing one Redis), same workloads, same run, side by side. Starts its own redis-server (Debian's
 * package, installed by scripts/ensure-redis.sh where missing) on a free loopback port. Prints markdown.
 * Environment: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (default 3).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { startRedisServer } from '../mocks/testing/redis-server';
import {
  autocannon,
  freePort,
  launch,
  stop,
  waitFor200,
  type AutocannonOptions,
  type AutocannonResult,
} from './lib/bench/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'mock-token-a';
const READ_PATH = '/v1/mailboxManagement/suppressions';

type Workload = { name: string; options: (origin: string) => Partial<AutocannonOptions> & { url: string } };
let sequence = 0;
const WORKLOADS: Workload[] = [
  { name: 'GET suppressions (rate limit + one read)', options: (origin) => ({ url: `${origin}${READ_PATH}` }) },
  {
    name: 'POST MCP server, new Idempotency-Key each (rate limit + claim + write + stored answer)',
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
              'idempotency-key': `bench-${process.pid}-${++sequence}`,
            },
            body: JSON.stringify({ name: 'Bench', description: 'Created by bench:redis' }),
          }),
        },
      ],
    }),
  },
];

type Setup = { name: string; replicas: number; redis: boolean };
const SETUPS: Setup[] = [
  { name: 'in memory, 1 replica', replicas: 1, redis: false },
  { name: 'Redis, 1 replica', replicas: 1, redis: true },
  { name: 'Redis, 2 replicas together', replicas: 2, redis: true },
];

type Row = { setup: string; workload: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

/** Runs the workload against every replica at once (connections split between them); req/s add up, p99 is the worst. */
async function measure(
  origins: string[],
  workload: Workload,
  duration: number,
): Promise<Omit<Row, 'setup' | 'workload'>> {
  const connections = Math.max(1, Math.floor(CONNECTIONS / origins.length));
  const results: AutocannonResult[] = await Promise.all(
    origins.map((origin) =>
      autocannon({ connections, duration, headers: { authorization: `Bearer ${TOKEN}` }, ...workload.options(origin) }),
    ),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const os = await import('node:os');
  const redis = await startRedisServer();
  const rows: Row[] = [];
  const children: ChildProcess[] = [];
  try {
    const load = os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
    process.stdout.write(
      `Benchmark: the mock in memory vs on Redis (${redis.url}), autocannon ${CONNECTIONS} connections × ${SECONDS} s per measure, ${ROUNDS} rounds alternating the setups (median shown), ${os.cpus().length} CPUs, load average ${load}\n\n`,
    );
    // Every setup runs all along and the rounds alternate between them, so a change of the machine's load
    // meanwhile touches each setup alike.
    const started = await Promise.all(
      SETUPS.map(async (setup) => {
        const prefix = `bench:${randomUUID()}:`;
        const ports = await Promise.all(Array.from({ length: setup.replicas }, () => freePort()));
        for (const port of ports) {
          children.push(
            launch(process.execPath, ['--require', 'tsx/cjs', 'mocks/server.ts'], {
              PORT: String(port),
              MOCK_RATE_LIMIT: '1000000000',
              ...(setup.redis ? { MOCK_REDIS_URL: redis.url, MOCK_REDIS_PREFIX: prefix } : {}),
            }),
          );
        }
        const origins = ports.map((port) => `http://127.0.0.1:${port}`);
        await Promise.all(origins.map((origin) => waitFor200(`${origin}${READ_PATH}`, TOKEN)));
        return { setup, origins };
      }),
    );
    const samples = new Map<string, Omit<Row, 'setup' | 'workload'>[]>();
    for (const { origins } of started) for (const workload of WORKLOADS) await measure(origins, workload, 1); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const workload of WORKLOADS) {
        for (const { setup, origins } of started) {
          const id = `${workload.name}|${setup.name}`;
          samples.set(id, [...(samples.get(id) ?? []), await measure(origins, workload, SECONDS)]);
        }
      }
    }
    for (const workload of WORKLOADS) {
      for (const setup of SETUPS) {
        const runs = samples.get(`${workload.name}|${setup.name}`)!;
        rows.push({
          setup: setup.name,
          workload: workload.name,
          rps: median(runs.map((r) => r.rps)),
          p50: median(runs.map((r) => r.p50)),
          p99: median(runs.map((r) => r.p99)),
          errors: runs.reduce((sum, r) => sum + r.errors, 0),
          non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
        });
      }
    }
  } finally {
    await Promise.all(children.map(stop));
    await redis.stop();
  }

  process.stdout.write(
    '| workload | setup | req/s | p50 (ms) | p99 (ms) | errors | non-2xx |\n|---|---|---:|---:|---:|---:|---:|\n',
  );
  for (const row of rows)
    process.stdout.write(
      `| ${row.workload} | ${row.setup} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} |\n`,
    );
  process.stdout.write('\n');
  for (const workload of WORKLOADS) {
    const of = (setup: string) => rows.find((row) => row.workload === workload.name && row.setup === setup)!;
    const memory = of(SETUPS[0].name);
    const one = of(SETUPS[1].name);
    const two = of(SETUPS[2].name);
    process.stdout.write(
      `${workload.name}: Redis / memory ${(one.rps / memory.rps).toFixed(2)}× req/s (goal ≥ 0.5×), p99 on Redis ${one.p99} ms (goal ≤ 5 ms); two replicas / one ${(two.rps / one.rps).toFixed(2)}×\n`,
    );
  }
}

main().catch((error) => {
  process.stderr.write(`bench:redis failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
