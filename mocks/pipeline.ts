import { compose, type Ctx, type Stage } from './context';
import type { MockHooks, MockResponse } from './types';
import { finishResponse, answerPreflight, runBeforeSend } from './stages/finish';
import { checkResponse, type ResponseValidator } from './stages/check-response';
import { parse, type ParseDeps } from './stages/parse';
import { authenticate, type AuthenticateDeps } from './stages/authenticate';
import { rateLimit } from './stages/rate-limit';
import type { RateLimiter } from './stages/rate-limit/limiter';
import { requireCredential } from './stages/require-credential';
import { idempotency, type KeyLength } from './stages/idempotency';
import { allOrNothing } from './stages/all-or-nothing';
import type { IdempotencyStore } from './stages/idempotency/store';
import { validateRequest, type ValidateRequestDeps } from './stages/validate-request';
import { simulateLatency } from './stages/latency';
import { checkPrefer } from './stages/check-prefer';
import { injectFault } from './stages/fault';
import type { Fault } from './prefer';
import { handle } from './stages/handle';
import type { Handlers } from './handlers';
import type { PrismResponder } from './prism';

export type PipelineDeps = ParseDeps &
  AuthenticateDeps &
  ValidateRequestDeps & {
    limiter: RateLimiter;
    idempotencyStore: IdempotencyStore;
    /** The Idempotency-Key bounds the contract's parameter schema states (`contract.constants`). */
    idempotencyKeyLength: KeyLength;
    latencyMs: number;
    sleep: (ms: number) => Promise<void>;
    handlers: Handlers;
    prism: PrismResponder;
    hooks?: MockHooks;
    /** The network fault this request gets, if any (Prefer: fault, control-plane rules). */
    pickFault?: (ctx: Ctx) => Fault | undefined;
    /** When set, every finished response is checked against the spec (development aid). */
    responseCheck?: { validate: ResponseValidator; report: (violations: string[]) => void };
  };

function beforeRequest(hooks?: MockHooks): Stage {
  return async (ctx, next) => {
    await hooks?.beforeRequest?.(ctx.req);
    return next();
  };
}

/**
 * The request pipeline, and the one place its order is written: the request goes down this list, the response
 * comes back up through it, and the server serialises it. Documentation refers here instead of repeating it.
 */
export function createPipeline(deps: PipelineDeps): (ctx: Ctx) => Promise<MockResponse> {
  return compose([
    runBeforeSend(deps.hooks), // last on the way out, before the server serialises
    ...(deps.responseCheck ? [checkResponse(deps.responseCheck)] : []), // dev: response vs the spec
    finishResponse(deps), // on the way out: errors in the contract's shape, rate-limit + CORS headers
    parse(deps), // body (413), JSON, route
    beforeRequest(deps.hooks),
    authenticate(deps), // who is calling (a failure is answered after counting)
    answerPreflight(), // CORS preflight: answered uncounted, with the bucket of its credential (usually none: per address)
    rateLimit(deps), // per workspace, or per address without a credential; 429
    requireCredential(), // 401
    checkPrefer(), // Prefer values the mock knows but cannot read → 400
    injectFault({ pickFault: deps.pickFault ?? (() => undefined) }), // Prefer: fault=…, control-plane fault rules
    allOrNothing(), // a request that fails takes back what it wrote
    idempotency({ store: deps.idempotencyStore, keyLength: deps.idempotencyKeyLength }), // replay / 409 / 422 / 400
    validateRequest(deps), // 404 / 405, malformed JSON, schema → 400
    simulateLatency(deps), // Prefer: latency=…, MOCK_LATENCY_MS
    handle(deps), // state, async runs, or Prism
  ]);
}
