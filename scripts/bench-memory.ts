/**
 * `npm run bench:memory [-- --workspaces 3 --runs 100000 --redis]`: bytes per kept run. A child process starts
 * the mock (`startMock`, its SQL engine in worker threads included), seeds each workspace and loads its SQL
 * database with one query over HTTP: the baseline, the empty mock of this same run. Then it adds `--runs` created
 * runs to each workspace through the store (as `POST /orchestration/runs` stores them: the run, whose log and
 * span rows are derived from it, in commits of `--chunk` runs), queries each workspace again so its kept
 * database follows, and measures once more. Each measurement follows a full garbage collection of every thread
 * (the SQL workers collect theirs once idle: sql-worker.ts) and 15 s without work, time V8 takes to give back the
 * pages its collections freed; the resident set is also printed as measured at once after the fill. Prints the
 * resident set (all threads: the SQL workers' databases included), the main thread's heap (its used bytes, and
 * what it holds resident: the used bytes with the space between them the collector keeps) and the SQL workers'
 * WASM memories per run, beside the baseline. With `--redis` the same again on a real redis-server
 * (scripts/ensure-redis.sh), with Redis's own `used_memory` per run.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { startMock } from '../mocks/app';
import { createRunRecord } from '../mocks/store/runs';
import { startRedisServer } from '../mocks/testing/redis-server';

type Args = { workspaces: number; runs: number; chunk: number; redis: boolean; child?: string };
type Measure = { rss: number; heap: number; heapPhysical: number; wasm?: number; external: number; redis?: number };
type Report = { base: Measure; filled: Measure; filledAtOnce: Measure; fillSeconds: number };

/** How long the child waits before it measures (see `settled`): 15 s, past V8's memory reducer's first steps. */
const SETTLE_MS = 15_000;

function readArgs(argv: string[]): Args {
  const args: Args = { workspaces: 3, runs: 100_000, chunk: 100, redis: false };
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i];
    const [flag, inline] = option.split('=');
    if (flag === '--redis') {
      args.redis = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (flag === '--child') {
      args.child = value;
      continue;
    }
    const number = Number(value);
    if (!['--workspaces', '--runs', '--chunk'].includes(flag) || !Number.isInteger(number) || number < 1)
      throw new Error(
        `bench:memory: unknown or invalid option ${[option, inline === undefined ? value : undefined].filter(Boolean).join(' ')}; use --workspaces <n> --runs <n> --redis`,
      );
    args[flag.slice(2) as 'workspaces' | 'runs' | 'chunk'] = number;
  }
  return args;
}

const workspaceOf = (i: number) => `5d1c0b7a-3e2f-4a1b-8c9d-${(0xe1f2a3b4c5d + i).toString(16).padStart(12, '0')}`;
let serial = 0;
const uuid = () => `00000000-0000-4000-8000-${(++serial).toString(16).padStart(12, '0')}`;

async function redisUsedMemory(url: string): Promise<number> {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(url);
  try {
    const info = await client.info('memory');
    return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
  } finally {
    client.disconnect();
  }
}

/**
 * The resident bytes of the process's WASM memories (the SQL workers' SQLite heaps, where their databases live):
 * V8 reserves several GiB for each and opens it as it grows, so each is read-write mappings right before a
 * reserved one of several GiB; their resident part is what the databases and SQLite use. Undefined without /proc.
 */
function wasmResident(): number | undefined {
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  const maps: { start: number; end: number; writable: boolean; rss: number }[] = [];
  for (const line of smaps.split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
    if (range)
      maps.push({ start: parseInt(range[1], 16), end: parseInt(range[2], 16), writable: range[3][1] === 'w', rss: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1].rss = Number(rss[1]) * 1024;
  }
  let resident = 0;
  maps.forEach((map, i) => {
    if (map.end - map.start < 4 * 2 ** 30 || map.writable) return;
    // The opened part: the read-write mappings that run up to the reservation without a gap.
    for (let j = i - 1, at = map.start; j >= 0 && maps[j].writable && maps[j].end === at; at = maps[j--].start)
      resident += maps[j].rss;
  });
  return resident;
}

/** The child: one mock, measured empty then full. Reports JSON on stdout. */
async function child(args: Args, redisUrl?: string): Promise<Report> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench:memory child needs --expose-gc');
  const workspaces = Array.from({ length: args.workspaces }, (_, i) => workspaceOf(i));
  const tokens = Object.fromEntries(workspaces.map((ws, i) => [`bench-${i}`, ws]));
  const mock = await startMock({
    port: 0,
    tokens,
    rateLimit: 1e9,
    redisUrl,
    redisPrefix: `bench-memory-${process.pid}:`,
  });
  /** One query over HTTP, asked again while it waits past its budget (a large database loading on a busy machine). */
  const query = async (i: number): Promise<void> => {
    const res = await fetch(`${mock.url}/orchestration/query`, {
      method: 'POST',
      headers: { authorization: `Bearer bench-${i}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT count(*) AS n FROM runs' }),
    }).catch(() => undefined); // a kept-alive connection the server closed meanwhile: asked again
    if (!res) return query(i);
    const text = await res.text();
    if (res.status === 400 && text.includes('query_timeout')) return query(i);
    if (res.status !== 200) throw new Error(`query answered ${res.status}: ${text}`);
  };
  const measure = async (): Promise<Measure> => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { rss, heapUsed, external } = process.memoryUsage();
    const heapPhysical = getHeapStatistics().total_physical_size;
    const redis = redisUrl ? await redisUsedMemory(redisUrl) : undefined;
    return { rss, heap: heapUsed, heapPhysical, wasm: wasmResident(), external, redis };
  };
  /**
   * Measures once V8 had time to give back the pages its collections freed (its memory reducer acts after a few
   * seconds of little allocation): the resident set of what is kept, not of what filling it left behind.
   */
  const settled = async (): Promise<Measure> => {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return measure();
  };
  for (let i = 0; i < workspaces.length; i++) await query(i);
  const base = await settled();
  const started = performance.now();
  const now = Date.now();
  for (const workspaceUuid of workspaces) {
    for (let done = 0; done < args.runs; done += args.chunk) {
      const runs = Array.from({ length: Math.min(args.chunk, args.runs - done) }, (_, i) =>
        createRunRecord({
          uuid: uuid(),
          workspaceUuid,
          createdAtMs: now - (args.runs - done - i),
          durationMs: 500,
          recordId: `record-${done + i}`,
        }),
      );
      await mock.store.addRuns(workspaceUuid, { runs });
    }
    process.stderr.write(`  ${workspaceUuid}: ${args.runs} runs\n`);
  }
  const fillSeconds = (performance.now() - started) / 1000;
  for (let i = 0; i < workspaces.length; i++) await query(i);
  const filledAtOnce = await measure();
  const filled = await settled();
  // The process exits once it has reported: nothing to close gracefully.
  return { base, filled, filledAtOnce, fillSeconds };
}

function runChild(args: Args, redisUrl?: string): Promise<Report> {
  const flags = ['--workspaces', args.workspaces, '--runs', args.runs, '--chunk', args.chunk].map(String);
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--require', 'tsx/cjs', __filename, ...flags, '--child', redisUrl ?? 'memory'],
    { cwd: path.join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Report) : reject(new Error(`bench:memory child exited ${code}`)),
    ),
  );
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const perRun = (bytes: number, runs: number) => Math.round(bytes / runs).toLocaleString('en');

function table(name: string, report: Report, runs: number): string {
  const { base, filled } = report;
  const row = (what: string, key: keyof Measure) =>
    `| ${name} | ${what} | ${mb(base[key] ?? 0)} | ${mb(filled[key] ?? 0)} | ${perRun((filled[key] ?? 0) - (base[key] ?? 0), runs)} |`;
  const atOnce = `| ${name} | resident set (all threads), measured at once after the fill | ${mb(base.rss)} | ${mb(report.filledAtOnce.rss)} | ${perRun(report.filledAtOnce.rss - base.rss, runs)} |`;
  const rows = [
    row('resident set (all threads)', 'rss'),
    atOnce,
    row('main heap (used)', 'heap'),
    row('main heap (resident)', 'heapPhysical'),
  ];
  if (base.wasm !== undefined) rows.push(row('SQL workers: WASM memories (resident)', 'wasm'));
  rows.push(row('external', 'external'));
  if (base.redis !== undefined) rows.push(row('Redis used_memory', 'redis'));
  return rows.join('\n');
}

async function main() {
  const args = readArgs(process.argv.slice(2));
  if (args.child) {
    const report = await child(args, args.child === 'memory' ? undefined : args.child);
    // Exit once the report is flushed (a pipe's write is asynchronous).
    process.stdout.write(JSON.stringify(report), () => process.exit(0));
    return;
  }
  const runs = args.workspaces * args.runs;
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  console.log(
    `bench:memory: ${args.workspaces} workspaces × ${args.runs.toLocaleString('en')} runs, load average ${load} at start\n`,
  );
  console.log('| mode | memory | empty mock (MB) | with the runs (MB) | bytes per kept run |');
  console.log('|---|---|---:|---:|---:|');
  const memory = await runChild(args);
  console.log(table('memory', memory, runs));
  if (args.redis) {
    const redis = await startRedisServer();
    try {
      console.log(table('Redis', await runChild(args, redis.url), runs));
    } finally {
      await redis.stop();
    }
  }
  console.log(
    `\nFilled in ${memory.fillSeconds.toFixed(1)} s (memory). Load average at the end: ${loadavg()[0].toFixed(2)}.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
