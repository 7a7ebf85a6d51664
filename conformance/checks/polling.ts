/**
 * The async scenario the polling checks observe, run once per run: a run created and polled to its end, a
 * run created with waitUntilFinished, a batch created and polled, and a run cancelled. Every create is sent
 * exactly once (x-rules: async-no-repeat-create); every wait is bounded and honours Retry-After.
 */
import { answerOf } from './answer';
import { assumptionOf, type Contract } from '../../spec/lib';
import type { CheckContext } from './registry';
import type { FailureInput } from '../lib/failure';
import { describe, envelope } from '../lib/exchange';
import { parseInteger } from '../lib/headers';
import { originOf, type Exchange } from '../lib/http-client';
import { conformanceName, RUN_STATUSES, TERMINAL_STATUSES } from '../lib/operations';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';

export type Finding = FailureInput & { ruleId: string };
export type PollScenario = {
  findings: Finding[];
  notes: string[];
  creates: number;
  createPaths: Set<string>;
  checkId: string;
};

/**
 * Follows a Location (absolute, or a reference relative to the request URL: RFC 3986 section 5) to the URL a
 * client polls; undefined when it is no URI reference at all.
 */
export function resolveLocation(exchange: Exchange, location: string): string | undefined {
  try {
    return new URL(location, exchange.request.url).toString();
  } catch {
    return undefined;
  }
}

export type Job = { kind: 'run' | 'batch'; name: string };

/**
 * Judges the Location of a 202 (x-rules async-202-location): present and a URI reference, else a failure; not
 * naming the job's uuid is another reading of where the job lives (a warning quoting the operation's assumption).
 * Gives the URL to poll and the job's uuid from the answer's body.
 */
export function judgeAcceptedLocation(
  contract: Contract,
  accepted: Exchange,
  job: Job,
): { url?: string; uuid?: string; findings: Finding[] } {
  const res = answerOf(accepted);
  const body = envelope(res.body, job.kind)?.uuid;
  const uuid = typeof body === 'string' ? body : undefined;
  const location = res.headers.location;
  if (!location)
    return {
      uuid,
      findings: [
        {
          ruleId: 'async-202-location',
          title: `The 202 for a ${job.name} has no Location`,
          expected: 'a Location header pointing at the job',
          received: 'no Location header',
          exchange: accepted,
        },
      ],
    };
  const url = resolveLocation(accepted, location);
  if (url === undefined)
    return {
      uuid,
      findings: [
        {
          ruleId: 'async-202-location',
          title: `The Location of the ${job.name} is not a URI reference`,
          expected: `a URL, absolute or relative to ${accepted.request.url} (RFC 3986 section 5)`,
          received: `Location: ${location}`,
          exchange: accepted,
        },
      ],
    };
  const findings: Finding[] = [];
  if (uuid !== undefined && !url.includes(uuid))
    findings.push({
      ruleId: 'async-202-location',
      severity: 'warning',
      title: `The Location of the ${job.name} does not name its uuid`,
      expected: `a URL containing ${uuid}`,
      received: location,
      assumption: assumptionOf(
        contract.findOperation(accepted.request.method, accepted.request.path.split('?')[0])?.node,
      ),
      exchange: accepted,
    });
  return { url, uuid, findings };
}

/**
 * A Location on another origin than the API's (scheme, host and port) is judged, never followed: the suite sends no
 * request and no credential off the target's origin. The description says the Location points at the run or batch,
 * not on which host, so it is a warning (a server behind a gateway may name its public address); the job is then
 * polled by uuid on the target ("the client polls GET of the run or batch by uuid, or the Location URL").
 */
export function judgeLocationOrigin(accepted: Exchange, job: Job, url: string): Finding | undefined {
  const origin = originOf(accepted.request.url);
  if (originOf(url) === origin) return undefined;
  return {
    ruleId: 'async-202-location',
    severity: 'warning',
    title: `The Location of the ${job.name} names another origin than the API's (not followed)`,
    expected: `a URL on ${origin}, where the ${job.kind} was created`,
    received: `Location: ${accepted.response?.headers.location ?? url}`,
    assumption:
      "The description states that the Location points at the run or batch, not on which host; the suite sends no request and no credential to another origin than the target's, so it polls the job by uuid instead.",
    exchange: accepted,
  };
}

/** Where the suite polls a job: its Location on the target's origin; else the job's own GET by uuid on the target. */
function pollUrl(ctx: CheckContext, job: Job, url: string, uuid: string | undefined): string | undefined {
  if (ctx.client.isTargetOrigin(url)) return url;
  const get = ctx.contract.operation(job.kind === 'batch' ? 'getBatch' : 'getRun');
  return get && uuid !== undefined ? get.path.replace('{uuid}', encodeURIComponent(uuid)) : undefined;
}

/**
 * Judges a GET of a job's Location (x-rules async-202-location): it must answer 200 with that job (`uuid`, when
 * the 202 named one), not another. Undefined when it does.
 */
export function judgeLocationPoll(
  exchange: Exchange,
  job: Job,
  location: string,
  uuid: string | undefined,
): Finding | undefined {
  const res = exchange.response;
  if (!res || res.status !== 200)
    return {
      ruleId: 'async-202-location',
      title: `The Location of the ${job.name} does not resolve`,
      expected: `200 from GET ${location}`,
      received: describe(exchange),
      exchange,
    };
  const polled = envelope(res.body, job.kind);
  if (uuid !== undefined && typeof polled?.uuid === 'string' && polled.uuid !== uuid)
    return {
      ruleId: 'async-202-location',
      title: `The Location of the ${job.name} points at another ${job.kind}`,
      expected: `the ${job.kind} ${uuid} from GET ${location}`,
      received: `${job.kind} ${polled.uuid}`,
      exchange,
    };
  return undefined;
}

/** A job seen again after its terminal status, in another status (x-rules async-poll-terminal: a terminal status is final). */
export function leftTerminalStatus(job: Job, terminal: string, seen: string[], exchange: Exchange): Finding {
  return {
    ruleId: 'async-poll-terminal',
    title: `The ${job.name} left its terminal status`,
    expected: `${terminal} (a terminal status is final)`,
    received: `${seen[seen.length - 1]} (statuses seen: ${seen.join(' → ')})`,
    exchange,
  };
}

/**
 * Polls a Location until a terminal status, then twice more to see that it stays terminal. `uuid` is the job's
 * own (from the create answer): the Location points at that job, so a poll answering another one is a failure.
 */
async function poll(
  ctx: CheckContext,
  scenario: PollScenario,
  job: Job,
  location: string,
  create: Exchange,
  uuid: string | undefined,
): Promise<string | undefined> {
  const started = Date.now();
  const deadline = started + ctx.config.pollTimeoutMs;
  let delay = 200;
  let terminal: string | undefined;
  let extraPolls = 0;
  const seen: string[] = [];
  while (Date.now() < deadline) {
    const exchange = await ctx.send({ method: 'GET', path: location });
    const unresolved = judgeLocationPoll(exchange, job, location, uuid);
    if (unresolved) {
      scenario.findings.push(unresolved);
      return undefined;
    }
    const res = answerOf(exchange);
    const polled = envelope(res.body, job.kind);
    const status = polled?.status;
    if (typeof status !== 'string') {
      scenario.findings.push({
        ruleId: 'async-poll-terminal',
        title: `The polled ${job.name} has no status`,
        expected: `{ ${job.kind}: { status } }`,
        received: describe(exchange),
        exchange,
      });
      return undefined;
    }
    seen.push(status);
    // A job that says it finished (finishedAt) is in a terminal status: "job finishes | one of success, error, cancelled, skipped".
    if (terminal === undefined && typeof polled?.finishedAt === 'string' && !TERMINAL_STATUSES.includes(status)) {
      scenario.findings.push({
        ruleId: 'async-poll-terminal',
        title: `The ${job.name} finished in a status outside the terminal set`,
        expected: `one of ${TERMINAL_STATUSES.join(', ')} once finishedAt is set`,
        received: `status ${status}, finishedAt ${String(polled.finishedAt)}`,
        exchange,
      });
      return undefined;
    }
    if (!RUN_STATUSES.includes(status)) {
      const finding: Finding = {
        ruleId: 'async-poll-terminal',
        title: `The polled ${job.name} has a status outside the run status set`,
        expected: RUN_STATUSES.join(', '),
        received: status,
        exchange,
      };
      // The run status set is stated in full; the batch's is not (only `pending` is listed).
      scenario.findings.push(job.kind === 'run' ? finding : { ...finding, severity: 'warning' });
    }
    if (terminal !== undefined) {
      if (status !== terminal) {
        scenario.findings.push(leftTerminalStatus(job, terminal, seen, exchange));
        return terminal;
      }
      if (++extraPolls >= 2) return terminal;
      await ctx.client.wait(150);
      continue;
    }
    if (TERMINAL_STATUSES.includes(status)) {
      terminal = status;
      await ctx.client.wait(150);
      continue;
    }
    // Retry-After is honoured up to --max-wait; the client's wait never passes the run's deadline either.
    const retryAfter = parseInteger(res.headers['retry-after']);
    const wait = Math.min(retryAfter !== undefined ? retryAfter * 1000 : delay, ctx.config.maxWaitMs);
    delay = Math.min(delay * 1.5, 2000);
    if (Date.now() + wait > deadline) break;
    await ctx.client.wait(wait);
  }
  // Waiting out 429s is the client's duty (Retry-After): a poll budget spent that way is reported as such, not as a stuck job.
  const waited = ctx.client.exchanges
    .filter((ex) => ex.sentAt >= started && ex.response?.status === 429)
    .reduce((sum, ex) => sum + (parseInteger(ex.response?.headers['retry-after']) ?? 1), 0);
  if (waited * 1000 * 3 >= ctx.config.pollTimeoutMs) {
    scenario.findings.push({
      ruleId: 'async-poll-terminal',
      severity: 'warning',
      title: `Polling the ${job.name} was cut short: --poll-timeout went on waiting out 429 Retry-After`,
      expected: `one of ${TERMINAL_STATUSES.join(', ')} within ${ctx.config.pollTimeoutMs} ms`,
      received: `${waited} s of Retry-After waits; statuses seen: ${seen.join(' → ') || 'none'} (raise --poll-timeout or --max-requests pacing)`,
      exchange: create,
    });
    return undefined;
  }
  scenario.findings.push({
    ruleId: 'async-poll-terminal',
    title: `The ${job.name} did not reach a terminal status within --poll-timeout`,
    expected: `one of ${TERMINAL_STATUSES.join(', ')} within ${ctx.config.pollTimeoutMs} ms`,
    received: `statuses seen: ${seen.join(' → ') || 'none'}`,
    exchange: create,
  });
  return undefined;
}

/** The URL to poll after a 202, judging a Location on another origin (never followed); undefined when none is left. */
function pollAt(
  ctx: CheckContext,
  scenario: PollScenario,
  accepted: Exchange,
  job: Job,
  url: string,
  uuid: string | undefined,
): string | undefined {
  const elsewhere = judgeLocationOrigin(accepted, job, url);
  if (elsewhere) scenario.findings.push(elsewhere);
  const polled = pollUrl(ctx, job, url, uuid);
  if (polled === undefined)
    scenario.notes.push(
      `the ${job.name}'s Location names another origin and its answer no uuid to poll on the target: its polling was not judged`,
    );
  return polled;
}

async function createAndPoll(
  ctx: CheckContext,
  scenario: PollScenario,
  job: Job,
  path: string,
  body: unknown,
): Promise<{ location?: string; uuid?: string; terminal?: string }> {
  scenario.creates++;
  scenario.createPaths.add(path);
  const create = await ctx.send({
    method: 'POST',
    path,
    body,
    headers: { [IDEMPOTENCY_KEY_HEADER]: conformanceName(40) },
  });
  const res = create.response;
  if (!res || res.status !== 202) {
    scenario.findings.push({
      ruleId: 'async-202-location',
      title: `Creating a ${job.name} did not answer 202`,
      expected: '202 with a Location header',
      received: describe(create),
      exchange: create,
    });
    return {};
  }
  const { url, uuid, findings } = judgeAcceptedLocation(ctx.contract, create, job);
  scenario.findings.push(...findings);
  if (url === undefined) return {};
  const polled = pollAt(ctx, scenario, create, job, url, uuid);
  if (polled === undefined) return {};
  const terminal = await poll(ctx, scenario, job, polled, create, uuid);
  return { location: polled, uuid, terminal };
}

export function pollScenario(ctx: CheckContext): Promise<PollScenario> {
  return ctx.shared('poll-scenario', async () => {
    const scenario: PollScenario = {
      findings: [],
      notes: [],
      creates: 0,
      createPaths: new Set(),
      checkId: ctx.client.currentCheck,
    };
    const createRunPath = ctx.config.createRunPath;
    const usesContractRun = ctx.contract.findOperation('POST', createRunPath)?.operationId === 'createRun';
    const tasks: Array<Promise<unknown>> = [
      createAndPoll(ctx, scenario, { kind: 'run', name: 'run' }, createRunPath, ctx.config.createRunBody).then(
        (polled) => (usesContractRun ? cancelFinishedRun(ctx, scenario, polled) : undefined),
      ),
    ];
    if (usesContractRun) {
      tasks.push(waitUntilFinished(ctx, scenario, createRunPath));
      tasks.push(notWaitingUntilFinished(ctx, scenario, createRunPath));
      tasks.push(cancelOwnRun(ctx, scenario, createRunPath));
      const batch = ctx.contract.operation('createBatch');
      if (batch) tasks.push(createAndPoll(ctx, scenario, { kind: 'batch', name: 'batch' }, batch.path, {}));
    }
    await Promise.all(tasks);
    // async-no-repeat-create: the suite itself never repeats a create (a 429 was not processed, so its retry is no repeat).
    const sent = ctx.client.exchanges.filter(
      (ex) =>
        ex.checkId === scenario.checkId &&
        ex.request.method === 'POST' &&
        scenario.createPaths.has(ex.request.path.split('?')[0]) &&
        ex.response?.status !== 429,
    ).length;
    if (sent > scenario.creates)
      scenario.findings.push({
        ruleId: 'async-no-repeat-create',
        title: 'The suite repeated a create request',
        expected: `${scenario.creates} create requests`,
        received: `${sent}`,
      });
    else
      scenario.notes.push(
        `${sent} create requests, none repeated; every wait bounded by ${ctx.config.pollTimeoutMs} ms and honouring Retry-After`,
      );
    return scenario;
  });
}

/** With waitUntilFinished the create answers 200 with a finished run instead of 202. */
async function waitUntilFinished(ctx: CheckContext, scenario: PollScenario, path: string): Promise<void> {
  scenario.creates++;
  const exchange = await ctx.send({
    method: 'POST',
    path,
    body: { ...(ctx.config.createRunBody as object), waitUntilFinished: true },
    headers: { [IDEMPOTENCY_KEY_HEADER]: conformanceName(40) },
  });
  const status = envelope(exchange.response?.body, 'run')?.status;
  if (exchange.response?.status !== 200 || typeof status !== 'string' || !TERMINAL_STATUSES.includes(status))
    scenario.findings.push({
      ruleId: 'async-poll-terminal',
      title: 'waitUntilFinished did not answer 200 with a finished run',
      expected: `200 with a run in ${TERMINAL_STATUSES.join(', ')}`,
      received: describe(exchange),
      exchange,
    });
}

/** With waitUntilFinished false the create is an ordinary one: 202 with a Location, not a finished run. */
async function notWaitingUntilFinished(ctx: CheckContext, scenario: PollScenario, path: string): Promise<void> {
  scenario.creates++;
  const exchange = await ctx.send({
    method: 'POST',
    path,
    body: { ...(ctx.config.createRunBody as object), recordTitle: conformanceName(), waitUntilFinished: false },
    headers: { [IDEMPOTENCY_KEY_HEADER]: conformanceName(40) },
  });
  if (exchange.response?.status !== 202 || !exchange.response.headers.location)
    scenario.findings.push({
      ruleId: 'async-202-location',
      title: 'waitUntilFinished false was answered as if true (not 202 with a Location)',
      expected: '202 with a Location header, as any create of a run',
      received: describe(exchange),
      exchange,
    });
}

/**
 * Cancels a run the suite polled to its terminal status: the answer and the polls after it keep that status (a
 * terminal status is final; cancelling a finished run must not reopen it).
 */
async function cancelFinishedRun(
  ctx: CheckContext,
  scenario: PollScenario,
  polled: { location?: string; uuid?: string; terminal?: string },
): Promise<void> {
  const cancel = ctx.contract.operation('cancelRun');
  if (!cancel || !polled.location || !polled.uuid || !polled.terminal) return;
  const job: Job = { kind: 'run', name: 'finished run after a cancel' };
  const exchange = await ctx.send({
    method: 'POST',
    path: cancel.path.replace('{uuid}', polled.uuid),
    headers: { [IDEMPOTENCY_KEY_HEADER]: conformanceName(40) },
    operationId: cancel.operationId,
  });
  const seen = [polled.terminal];
  const answered = envelope(exchange.response?.body, 'run')?.status;
  if (exchange.response && exchange.response.status < 300 && typeof answered === 'string') seen.push(answered);
  for (let i = 0; i < 2 && seen.every((status) => status === polled.terminal); i++) {
    const poll = await ctx.send({ method: 'GET', path: polled.location });
    const status = envelope(poll.response?.body, 'run')?.status;
    if (poll.response?.status === 200 && typeof status === 'string') seen.push(status);
  }
  if (seen.some((status) => status !== polled.terminal))
    scenario.findings.push(leftTerminalStatus(job, polled.terminal, seen, exchange));
}

/** Cancels a run the suite created itself: 202 (cancelling) with a Location, ending in a terminal status. */
async function cancelOwnRun(ctx: CheckContext, scenario: PollScenario, path: string): Promise<void> {
  scenario.creates++;
  const create = await ctx.send({
    method: 'POST',
    path,
    body: ctx.config.createRunBody,
    headers: { [IDEMPOTENCY_KEY_HEADER]: conformanceName(40) },
  });
  const uuid = envelope(create.response?.body, 'run')?.uuid;
  if (create.response?.status !== 202 || typeof uuid !== 'string') return; // reported by the main scenario
  const cancel = ctx.contract.operation('cancelRun');
  if (!cancel) return;
  const exchange = await ctx.send({
    method: 'POST',
    path: cancel.path.replace('{uuid}', uuid),
    headers: { [IDEMPOTENCY_KEY_HEADER]: conformanceName(40) },
    operationId: cancel.operationId,
  });
  const res = exchange.response;
  // 200 answers a run that had already finished (returned unchanged); a run still going was accepted: 202.
  const answered = envelope(res?.body, 'run')?.status;
  if (res?.status === 200 && typeof answered === 'string' && TERMINAL_STATUSES.includes(answered)) return;
  if (res?.status !== 202 || !res.headers.location) {
    scenario.findings.push({
      ruleId: 'async-202-location',
      title: 'Cancelling a running run did not answer 202 with a Location',
      expected: '202 with Location',
      received: describe(exchange),
      exchange,
    });
    return;
  }
  const job: Job = { kind: 'run', name: 'cancelled run' };
  const { url, findings } = judgeAcceptedLocation(ctx.contract, exchange, job);
  scenario.findings.push(...findings);
  if (url === undefined) return;
  const polled = pollAt(ctx, scenario, exchange, job, url, uuid);
  if (polled === undefined) return;
  const terminal = await poll(ctx, scenario, job, polled, exchange, uuid);
  if (terminal !== undefined && terminal !== 'cancelled')
    scenario.findings.push({
      ruleId: 'async-poll-terminal',
      severity: 'warning',
      title: 'A cancelled run ended in another terminal status',
      expected: 'cancelled',
      received: terminal,
      exchange,
    });
}

/** Reports the scenario's findings of one rule, and counts creates against the requests sent (never repeated). */
export async function reportScenario(ctx: CheckContext, ruleId: string): Promise<void> {
  const scenario = await pollScenario(ctx);
  if (scenario.checkId !== ctx.client.currentCheck)
    ctx.note(
      `judged the async scenario run by ${scenario.checkId} (${ctx.client.exchanges.filter((ex) => ex.checkId === scenario.checkId).length} requests there)`,
    );
  for (const finding of scenario.findings)
    if (finding.ruleId === ruleId || (ruleId === 'async-poll-terminal' && finding.ruleId === 'async-no-repeat-create'))
      ctx.report(finding);
  if (ruleId === 'async-poll-terminal') for (const note of scenario.notes) ctx.note(note);
}
