/**
 * One load run of the benchmark by either load generator, with the loaded server's CPU time read around it from
 * its own /proc entry (the server runs in a process of its own, so the generator's CPU is never counted):
 * `wrk` (C, one thread: the default) or autocannon (Node, the column kept beside it for the figures before).
 */
import { randomBytes } from 'node:crypto';
import { autocannonTimed, percentile, readCpuMs } from './processes';
import { runWrk, type LoadRequest } from './wrk';

export type Generator = 'wrk' | 'autocannon';

/** Requests, latencies and the server's CPU time of one load run. */
export type Sample = {
  requests: number;
  seconds: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** The server process's user and system time over the run (every thread), in ms. */
  cpuMs: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** Answers the generator counts as failed: status above 399 for wrk, any but 2xx for autocannon. */
  badStatus: number;
  /**
   * The generator's own CPU time over the run, in ms: wrk's process (its `os.clock()`), or this process for
   * autocannon (it runs here). Beside the server's, it shows whether the generator was the one saturated.
   */
  generatorCpuMs: number;
};

/** A new prefix for the fresh keys of one run (`bench-<12 hex>-`): no run replays another's keys. */
export const freshPrefix = () => `bench-${randomBytes(6).toString('hex')}-`;

/** A run of autocannon sending the same request, with the same fresh header per request. */
async function runAutocannon(url: string, request: LoadRequest, connections: number, seconds: number) {
  let counter = 0;
  const cpuBefore = process.cpuUsage();
  const { result, latencies } = await autocannonTimed({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: request.method,
        setupRequest: (sent) => ({
          ...sent,
          headers: request.fresh
            ? { ...request.headers, [request.fresh.header]: `${request.fresh.prefix}${counter++}` }
            : request.headers,
          body: request.body,
        }),
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: result.errors,
    status4xx5xx: result.non2xx,
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/** One load run of `seconds` (whole seconds) against `url`, served by the process `pid`. */
export async function loadOnce(
  generator: Generator,
  target: { url: string; pid: number | undefined; wrkBin?: string },
  request: LoadRequest,
  options: { connections: number; seconds: number },
): Promise<Sample> {
  const cpuBefore = readCpuMs(target.pid);
  let result;
  if (generator === 'wrk') {
    if (!target.wrkBin) throw new Error('wrk is needed for this run and was not found');
    result = await runWrk(target.wrkBin, target.url, request, options);
  } else {
    result = await runAutocannon(target.url, request, options.connections, options.seconds);
  }
  const { status4xx5xx, ...figures } = result;
  return { ...figures, badStatus: status4xx5xx, cpuMs: readCpuMs(target.pid) - cpuBefore };
}

/**
 * µs of the server's CPU per request over samples (their totals, so a short run weighs less); `generatorCpuMs`
 * for the generator's.
 */
export function cpuUsPerRequest(samples: Sample[], figure: 'cpuMs' | 'generatorCpuMs' = 'cpuMs'): number {
  const cpu = samples.reduce((total, sample) => total + sample[figure], 0);
  const requests = samples.reduce((total, sample) => total + sample.requests, 0);
  return (cpu * 1000) / Math.max(1, requests);
}
