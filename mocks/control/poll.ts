/**
 * Polling a created job by its `Location` (x-rules async-202-location, async-poll-terminal), typed: a 202's
 * `Location` read as the operation it points at, and polled until the job's status is terminal. Standalone (plain
 * `fetch`, types only), exported with the control client. With openapi-fetch, `readRunLocation` and
 * `readBatchLocation` give the path and parameters of the typed `GET`; `pollRun`, `pollBatch` and `pollLocation`
 * poll with `fetch` themselves, backing off by `Retry-After` on a 429 as the contract asks.
 */
import type { components, paths } from '../../generators/generated/openapi';

export type Run = components['schemas']['Run'];
export type Batch = components['schemas']['Batch'];
type TerminalStatus = components['schemas']['TerminalRunStatus'];

/** The terminal statuses of a run or batch, as the contract's `TerminalRunStatus` lists them. */
export const TERMINAL_JOB_STATUSES = ['success', 'error', 'cancelled', 'skipped'] as const satisfies TerminalStatus[];
// Every terminal status of the contract is listed: a status added there is a compile error here until it is.
const everyTerminal: Exclude<TerminalStatus, (typeof TERMINAL_JOB_STATUSES)[number]> extends never ? true : never =
  true;
void everyTerminal;

const RUN_PATH = '/orchestration/runs/{uuid}' satisfies keyof paths;
const BATCH_PATH = '/orchestration/batches/{uuid}' satisfies keyof paths;

/** A `Location` read as the typed `GET` it names: `api.GET(location.path, { params: location.params })`. */
export type JobLocation<P extends typeof RUN_PATH | typeof BATCH_PATH> = {
  path: P;
  params: { path: { uuid: string } };
  /** The absolute URL as given (resolved against `base` when it was relative). */
  url: string;
};

const JOB_URL = /\/orchestration\/(runs|batches)\/([^/?#]+)$/;

function readLocation(location: string | null | undefined, base?: string) {
  if (!location) throw new Error('Location: the answer has none (a create answers 202 with one)');
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    throw new Error(`Location: ${JSON.stringify(location)} is not a URL (give the base URL for a relative one)`);
  }
  const match = JOB_URL.exec(url.pathname);
  if (!match) throw new Error(`Location: ${JSON.stringify(location)} names neither a run nor a batch`);
  return { kind: match[1] === 'runs' ? ('run' as const) : ('batch' as const), uuid: decodeURIComponent(match[2]), url };
}

/** A run's `Location` (from `createRun` or `cancelRun`) as the typed `GET /orchestration/runs/{uuid}`. */
export function readRunLocation(location: string | null | undefined, base?: string): JobLocation<typeof RUN_PATH> {
  const read = readLocation(location, base);
  if (read.kind !== 'run') throw new Error(`Location: ${JSON.stringify(location)} names a batch, not a run`);
  return { path: RUN_PATH, params: { path: { uuid: read.uuid } }, url: read.url.href };
}

/** A batch's `Location` (from `createBatch`) as the typed `GET /orchestration/batches/{uuid}`. */
export function readBatchLocation(location: string | null | undefined, base?: string): JobLocation<typeof BATCH_PATH> {
  const read = readLocation(location, base);
  if (read.kind !== 'batch') throw new Error(`Location: ${JSON.stringify(location)} names a run, not a batch`);
  return { path: BATCH_PATH, params: { path: { uuid: read.uuid } }, url: read.url.href };
}

export type PollOptions = {
  /** Sent as `Authorization: Bearer <token>` (or give `headers`). */
  token?: string;
  headers?: Record<string, string>;
  /** Base URL for a relative `Location`. */
  base?: string;
  /** Between polls (default 250 ms); a 429 waits its `Retry-After` instead. */
  intervalMs?: number;
  /** Give up after this long (default 60 s) with an error naming the last status. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Stop before the job is terminal, e.g. `(job) => job.status === 'running'`. */
  until?: (job: Run | Batch) => boolean;
};

/** A non-2xx answer while polling: the status and the error body (the contract's shape). */
export class PollError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    url: string,
  ) {
    const reason = (body as { errorMessage?: unknown } | undefined)?.errorMessage;
    super(`poll ${url}: ${status}${typeof reason === 'string' ? ` ${reason}` : ''}`);
    this.name = 'PollError';
  }
}

const isTerminal = (status: unknown) => (TERMINAL_JOB_STATUSES as readonly unknown[]).includes(status);

async function poll<K extends 'run' | 'batch'>(
  kind: K,
  url: string,
  options: PollOptions,
): Promise<K extends 'run' ? Run : Batch> {
  const doFetch = options.fetch ?? fetch;
  const headers = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let last: unknown;
  for (;;) {
    const response = await doFetch(url, { headers });
    const text = await response.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    let wait = options.intervalMs ?? 250;
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : wait;
    } else if (!response.ok) throw new PollError(response.status, body, url);
    else {
      const job = body?.[kind] as (Run & Batch) | undefined;
      if (!job || typeof job !== 'object') throw new PollError(response.status, body, url);
      last = job.status;
      if (isTerminal(job.status) || options.until?.(job)) return job as K extends 'run' ? Run : Batch;
    }
    if (Date.now() + wait > deadline)
      throw new Error(
        `poll ${url}: not terminal after ${options.timeoutMs ?? 60_000} ms (last status ${String(last)})`,
      );
    await sleep(wait);
  }
}

/** Polls a run's `Location` until the run is terminal (or `until`); resolves with the typed run. */
export function pollRun(location: string | null | undefined, options: PollOptions = {}): Promise<Run> {
  return poll('run', readRunLocation(location, options.base).url, options);
}

/** Polls a batch's `Location` until the batch is terminal (or `until`); resolves with the typed batch. */
export function pollBatch(location: string | null | undefined, options: PollOptions = {}): Promise<Batch> {
  return poll('batch', readBatchLocation(location, options.base).url, options);
}

/** Polls whichever job a `Location` names: `{ kind: 'run', run }` or `{ kind: 'batch', batch }`. */
export async function pollLocation(
  location: string | null | undefined,
  options: PollOptions = {},
): Promise<{ kind: 'run'; run: Run } | { kind: 'batch'; batch: Batch }> {
  const { kind, url } = readLocation(location, options.base);
  return kind === 'run'
    ? { kind, run: await poll('run', url.href, options) }
    : { kind, batch: await poll('batch', url.href, options) };
}
