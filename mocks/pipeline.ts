import { compose, type Answer, type Ctx, type Stage } from './context';
import type { MockHooks } from './types';
import { finishResponse } from './stages/finish';
import { runHooks } from './stages/hooks';
import { API_CORS, answerPreflight } from './stages/cors';
import { checkResponse, type ResponseValidator } from './stages/check-response';
import { route, outsideBase } from './stages/route';
import { readBody, type BodyLimits } from './stages/read-body';
import type { Router } from '../spec/lib';
import { authenticate, type AuthenticateDeps } from './stages/authenticate';
import { rateLimit } from './stages/rate-limit';
import { loadSteering } from './stages/steering';
import type { Steering } from './control/settings-types';
import type { RateLimiter } from './stages/rate-limit/limiter';
import { requireCredential } from './stages/require-credential';
import { idempotency, type KeyLength } from './stages/idempotency';
import { allOrNothing } from './stages/all-or-nothing';
import type { IdempotencyStore } from './store/repositories/idempotency';
import { validateRequest, type ValidateRequestDeps } from './stages/validate-request';
import { simulateLatency } from './stages/latency';
import { checkPrefer } from './stages/check-prefer';
import { injectFault } from './stages/fault';
import type { Fault } from './prefer';
import { handle } from './stages/handle';
import type { Handlers } from './handlers';
import type { PrismResponder } from './prism';

export type PipelineDeps = AuthenticateDeps &
  ValidateRequestDeps & {
    route: Router;
    /** Bytes, time, nesting and array bounds of a body (`mocks/limits.ts`). */
    bodyLimits: BodyLimits;
    limiter: RateLimiter;
    idempotencyStore: IdempotencyStore;
    /** The Idempotency-Key bounds the contract's parameter schema states (`contract.constants`). */
    idempotencyKeyLength: KeyLength;
    /** The control plane's settings for a workspace (or for none): read from the store, cached briefly. */
    steering: (workspaceUuid: string | undefined) => Promise<Steering>;
    /** The same settings when they are known without waiting (cached), if the source can tell. */
    steeringKnown?: (workspaceUuid: string | undefined) => Steering | undefined;
    sleep: (ms: number) => Promise<void>;
    handlers: Handlers;
    prism: PrismResponder;
    hooks?: MockHooks;
    /** The network fault this request gets, if any (Prefer: fault, control-plane rules). */
    pickFault?: (ctx: Ctx) => Fault | undefined;
    /** Counts every answer by operation, status and outcome (mocks/control/usage: `GET /__mock/usage`). */
    usage?: Stage;
    /** When set, every finished response is checked against the spec (development aid). */
    responseCheck?: { validate: ResponseValidator; report: (violations: string[]) => void };
    /** Wraps each stage when the pipeline is built (`npm run bench -- --stages`: the time each stage takes). */
    stageProbe?: StageProbe;
  };

/** Given each stage with its name, in order, when a pipeline is built; returns the stage to run instead. */
export type StageProbe = (name: string, stage: Stage) => Stage;

/** A stage of the list with its name (the name is for `stageProbe`, and the benchmark's table of stages). */
type Step = readonly [name: string, stage: Stage];
const step = (name: string, stage: Stage): Step => [name, stage];

/**
 * The API's stages, and the one place their order is written: the request goes down this list in the order it
 * travels (authenticate → rate-limit → route → body → idempotency → validate → handle), the response comes back
 * up through it, and the front door serialises it. Documentation refers here instead of repeating it. `outside`
 * names the base path when the list serves paths no mount serves: every one of them answers 404, after counting,
 * with or without a credential (`GET /` is not the API: a 401 there would send a person after their token).
 */
export function createPipeline(deps: PipelineDeps, outside?: string): (ctx: Ctx) => Answer {
  const stages: Step[] = [
    step('hooks', runHooks(deps.hooks)), // beforeRequest first on the way in; beforeSend last on the way out
    // the usage report's counts, of the finished answer; only below the base path (a path outside it that reads
    // like an operation's, /mailboxManagement/suppressions without /v1, is no answer of that operation)
    ...(deps.usage && outside === undefined ? [step('usage', deps.usage)] : []),
    ...(deps.responseCheck ? [step('check-response', checkResponse(deps.responseCheck))] : []), // dev: response vs the spec
    step('finish', finishResponse({ limiter: deps.limiter, cors: API_CORS })), // errors in the contract's shape, rate-limit + CORS headers
    step('authenticate', authenticate(deps)), // who is calling: the caller, or the 401 to answer once counted
    step('steering', loadSteering(deps)), // the control plane's settings for its workspace (rate limit, faults, latency, outcomes)
    step('preflight', answerPreflight(API_CORS)), // CORS preflight: uncounted, with the bucket of its credential (usually none: per address)
    step('rate-limit', rateLimit({ ...deps, countAhead: true })), // per workspace, or per address without a credential; 429
    // 401 / 404 / 405; outside the base path there is nothing to guard: 404 whatever the credential
    ...(outside === undefined
      ? [step('require-credential', requireCredential()), step('route', route(deps))]
      : [step('outside-base', outsideBase(outside))]),
    step('read-body', readBody(deps.bodyLimits)), // 413, body_timeout, json_too_deep, json_array_too_long, malformed_json
    step('check-prefer', checkPrefer()), // Prefer values the mock knows but cannot read → 400
    step('fault', injectFault({ pickFault: deps.pickFault ?? (() => undefined) })), // Prefer: fault=…, control-plane fault rules
    step('all-or-nothing', allOrNothing()), // a request that fails takes back what it wrote
    step('idempotency', idempotency({ store: deps.idempotencyStore, keyLength: deps.idempotencyKeyLength })), // replay / 409 / 422 / 400
    step('validate-request', validateRequest(deps)), // parameters and body against the contract → 400
    step('latency', simulateLatency(deps)), // Prefer: latency=…, MOCK_LATENCY_MS
    step('handle', handle(deps)), // state, async runs, or Prism
  ];
  const probe = deps.stageProbe;
  return compose(probe ? stages.map(([name, stage]) => probe(name, stage)) : stages.map(([, stage]) => stage));
}
