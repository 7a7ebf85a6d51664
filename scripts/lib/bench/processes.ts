/** Helpers of the benchmark scripts: child processes on free loopback ports, readiness, autocannon runs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The part of autocannon's programmatic API used here (the package ships no types). */
export type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
export type AutocannonOptions = {
  url: string;
  connections?: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  requests?: (AutocannonRequest & { setupRequest?: (request: AutocannonRequest) => AutocannonRequest })[];
};
export type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  duration: number;
};
/** A run in progress: awaited for its result; `response` reports each response's time in fractional milliseconds. */
export type AutocannonRun = PromiseLike<AutocannonResult> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const autocannon = require('autocannon') as (options: AutocannonOptions) => AutocannonRun;

export const ROOT = join(__dirname, '..', '..', '..');
export const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a child process in the project's root (or `cwd`: another checkout, for a baseline), its stderr shown. */
export function launch(command: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): ChildProcess {
  return spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

/**
 * An autocannon run that also keeps every 2xx response time as measured (fractions of a millisecond), since
 * autocannon's own histogram counts whole milliseconds; `percentile(latencies, 99)` reads them.
 */
export async function autocannonTimed(
  options: AutocannonOptions,
): Promise<{ result: AutocannonResult; latencies: Float64Array }> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const run = autocannon(options);
  run.on('response', (_client, status, _bytes, ms) => {
    if (status < 200 || status > 299) return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  const result = await run;
  return { result, latencies: latencies.slice(0, count).sort() };
}

/** The p-th percentile (nearest rank) of sorted values; NaN for none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The median of values (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * CPU time (user + system, every thread: the event loop, workers, GC) a process has used so far, in ms, from
 * Linux's /proc (fields 14 and 15 of `stat`, in clock ticks of 10 ms); 0 where it cannot be read.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    return readCpuMs(pid);
  } catch {
    return 0;
  }
}

/** As `cpuMs`, but an error that says why where the process's CPU time cannot be read (the benchmark's column). */
export function readCpuMs(pid: number | undefined): number {
  if (pid === undefined) throw new Error('no process to read the CPU time of (it did not start)');
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the CPU time of process ${pid} from /proc (Linux only): ${(error as Error).message}`);
  }
  // The command name, in parentheses, may hold spaces: fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`process ${pid}'s /proc stat has no utime and stime: ${stat}`);
  return ticks * 10;
}

/**
 * CPU time each thread of a process has used so far, in ms, with the thread's name (Linux's `comm`: `node` for
 * Node's own threads, `sql-worker` for the mock's SQL workers); empty where /proc cannot be read.
 */
export function threadCpuMs(pid: number | undefined): Map<number, { name: string; ms: number }> {
  const threads = new Map<number, { name: string; ms: number }>();
  let ids: string[] = [];
  try {
    ids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const id of ids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${id}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      threads.set(Number(id), { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // The thread ended in between.
    }
  }
  return threads;
}

/** A process's resident set in MB, from /proc; 0 where it cannot be read. */
export function rssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Polls until the URL answers 200 with the token; returns the milliseconds it took. */
export async function waitFor200(url: string, token: string, timeoutMs = 60_000): Promise<number> {
  const start = performance.now();
  for (;;) {
    try {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - start;
    } catch {
      // not listening yet
    }
    if (performance.now() - start > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
