/**
 * Passive judgement of async work from live traffic only (x-rules async-202-location, async-poll-terminal): the
 * Location of every 202 the contract declares with one, the client's later GETs of that Location, and every status
 * of a run or batch seen after a terminal one. The judgements are the active scenario's (polling.ts), made on
 * requests the suite did not send. Memory is bounded: at most TRACKED_JOBS Locations and jobs, the oldest forgotten.
 */
import { createHash } from 'node:crypto';
import {
  asObject,
  findHeader,
  IDEMPOTENCY_KEY_FIELD,
  isObject,
  jsonContent,
  TERMINAL_STATUSES,
  type Contract,
  type Operation,
} from '../../spec/lib';
import { BoundedMap } from '../lib/bounded-map';
import { envelope } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';
import { hasPathParameters } from '../lib/operations';
import { judgeAcceptedLocation, judgeLocationPoll, leftTerminalStatus, type Job } from './polling';
import type { CheckContext, TrafficJudge } from './registry';

/** Locations and jobs each judge remembers at most. */
export const TRACKED_JOBS = 10_000;

/** Statuses seen per job, kept for the failure's account of what happened. */
const HISTORY = 8;

const KINDS = ['run', 'batch'] as const;

/** Operations whose answers carry a run or a batch (create, fetch, cancel): those the judges see. */
export function carriesJob(op: Operation): boolean {
  return Object.values(op.responses).some((response) =>
    KINDS.some((kind) => isObject(asObject(jsonContent(response.content)?.schema?.properties)[kind])),
  );
}

/** Runs and batches live in a workspace: the same uuid under another credential is another job (or none). */
function credentialOf(exchange: Exchange): string {
  const authorization = exchange.request.headers.authorization;
  return authorization ? createHash('sha256').update(authorization).digest('base64url').slice(0, 16) : 'none';
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/**
 * The job a 202 accepted, when the contract declares that 202 with a Location (createRun, createBatch, cancelRun)
 * or the request is the create operation named by --create-run-path; undefined for any other exchange.
 */
export function acceptedJob(contract: Contract, createRunPath: string, exchange: Exchange): Job | undefined {
  const res = exchange.response;
  if (res?.status !== 202) return undefined;
  const path = exchange.request.path.split('?')[0];
  const op = contract.findOperation(exchange.request.method, path);
  const declared = op?.responses['202'] && findHeader(op.responses['202'].headers, 'Location');
  if (!declared && !(exchange.request.method === 'POST' && path === createRunPath)) return undefined;
  const declaresBatch = op && isObject(asObject(jsonContent(op.responses['202']?.content)?.schema?.properties).batch);
  const kind = envelope(res.body, 'batch') || (!envelope(res.body, 'run') && declaresBatch) ? 'batch' : 'run';
  // A 202 of an operation on an existing job (cancel) accepts its ending, not a new job.
  return { kind, name: op && hasPathParameters(op) ? `cancelled ${kind}` : kind };
}

/** Statuses that say something about the Location: 200 (which job), 404 and 410 (none), 5xx (broken). */
function judgesLocation(status: number): boolean {
  return status === 200 || status === 404 || status === 410 || status >= 500;
}

type Accepted = { job: Job; url: string; uuid?: string; accepted: Exchange };

/** async-202-location on live traffic: each 202's Location, then every GET of it the traffic sends. */
export function judgeLiveLocations(ctx: CheckContext): TrafficJudge {
  const locations = new BoundedMap<string, Accepted>(TRACKED_JOBS);
  const counts = { accepted: 0, polls: 0, elsewhere: 0 };
  const polledOnce = new BoundedMap<string, true>(TRACKED_JOBS);
  return {
    see(exchange) {
      const res = exchange.response;
      if (!res) return;
      const job = acceptedJob(ctx.contract, ctx.config.createRunPath, exchange);
      if (job) {
        counts.accepted++;
        const { url, uuid, findings } = judgeAcceptedLocation(ctx.contract, exchange, job);
        for (const finding of findings) ctx.report(finding);
        if (url === undefined) return;
        if (new URL(url).origin !== new URL(exchange.request.url).origin) counts.elsewhere++;
        locations.set(`${credentialOf(exchange)} ${pathAndQuery(url)}`, { job, url, uuid, accepted: exchange });
        return;
      }
      if (exchange.request.method !== 'GET') return;
      const key = `${credentialOf(exchange)} ${pathAndQuery(exchange.request.url)}`;
      const polled = locations.get(key);
      // 401, 403 and 429 answer the credential or the quota, not the Location.
      if (!polled || !judgesLocation(res.status)) return;
      counts.polls++;
      polledOnce.set(key, true);
      const finding = judgeLocationPoll(exchange, polled.job, polled.url, polled.uuid);
      if (finding) ctx.report({ ...finding, sequence: [polled.accepted] });
      // Polling ends at a terminal status: later GETs of the Location are no longer polls.
      else {
        const status = envelope(res.body, polled.job.kind)?.status;
        if (typeof status === 'string' && TERMINAL_STATUSES.includes(status)) locations.delete(key);
      }
    },
    end() {
      ctx.note(
        `${plural(counts.accepted, 'accepted (202) answer')} judged, ${plural(counts.polls, 'poll')} of their` +
          ` Locations (${plural(polledOnce.size, 'Location')} polled through the proxy)` +
          (counts.elsewhere > 0
            ? `; ${plural(counts.elsewhere, 'Location')} naming another address than the upstream's, polled around the proxy unless the client keeps its path`
            : ''),
      );
    },
  };
}

type Seen = { statuses: string[]; terminal?: { status: string; exchange: Exchange } };

/**
 * async-poll-terminal on live traffic: once a run or batch was seen in a terminal status, every later answer
 * showing it is in that status. "Later" is causal: the request was sent after the terminal answer arrived.
 */
export function judgeLiveStatuses(ctx: CheckContext): TrafficJudge {
  const jobs = new BoundedMap<string, Seen>(TRACKED_JOBS);
  const counts = { jobs: 0, terminal: 0, after: 0 };
  const see = (exchange: Exchange) => {
    const res = exchange.response;
    if (!res || res.status < 200 || res.status > 299) return;
    // A retry with the same Idempotency-Key answers the original response (x-rules idempotency-replay): an earlier state.
    const current = exchange.request.method === 'GET' || exchange.request.headers[IDEMPOTENCY_KEY_FIELD] === undefined;
    for (const kind of KINDS) {
      const job = envelope(res.body, kind);
      if (typeof job?.uuid !== 'string' || typeof job.status !== 'string') continue;
      const key = `${credentialOf(exchange)} ${kind} ${job.uuid}`;
      const seen = jobs.get(key) ?? (counts.jobs++, { statuses: [] });
      const { terminal } = seen;
      if (current) {
        const after = terminal !== undefined && exchange.sentTick > terminal.exchange.receivedTick;
        if (after) counts.after++;
        if (after && job.status !== terminal.status)
          ctx.report({
            ...leftTerminalStatus({ kind, name: kind }, terminal.status, [...seen.statuses, job.status], exchange),
            sequence: [terminal.exchange],
          });
        if (seen.statuses[seen.statuses.length - 1] !== job.status)
          seen.statuses = [...seen.statuses, job.status].slice(-HISTORY);
      }
      // A terminal status, even replayed, was reached: the job stays in it from then on.
      if (!terminal && TERMINAL_STATUSES.includes(job.status)) {
        counts.terminal++;
        seen.terminal = { status: job.status, exchange };
        if (!current) seen.statuses = [...seen.statuses, job.status].slice(-HISTORY);
      }
      jobs.set(key, seen);
    }
  };
  return {
    see,
    end: () =>
      ctx.note(
        `${plural(counts.jobs, 'run or batch', 'runs and batches')} seen, ${counts.terminal} in a terminal status,` +
          ` ${plural(counts.after, 'later answer')} judged against it`,
      ),
  };
}
