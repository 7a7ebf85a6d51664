import { ApiError } from '../errors';
import { compose, newRequest, withRequest, type Answer, type Ctx, type Stage } from '../context';
import { safeDict } from '../safety/dict';
import { finishResponse } from '../stages/finish';
import { rateLimit } from '../stages/rate-limit';
import type { RateLimiter } from '../stages/rate-limit/limiter';
import { readTarget } from './path';
import { EMPTY_BYTES } from '../web/bytes';

/**
 * One entry point of the server: the paths it serves and its stage list, built from the shared stages (finish:
 * the error serialiser, rate-limit and CORS headers; the bounded body reader; rate-limit; preflight) followed by
 * its own small handlers. `mocks/front-door/mounts.ts` holds the table.
 */
export type Mount = {
  name: string;
  /** Whether the mount serves this path (as sent: dot segments and encoded slashes never get this far). */
  matches(path: string): boolean;
  /** The path its stages see (the API's without its base path); the path itself by default. */
  within?(path: string): string;
  pipeline(ctx: Ctx): Answer;
};

export type FrontDoorDeps = {
  /** Tried in order; the first that matches serves the request. */
  mounts: Mount[];
  /** Serves every path no mount matches (404, after counting). */
  fallback: Mount;
  /** Refusals before any mount (bad path, no Host, Node-level) are counted in the client address's bucket. */
  limiter: RateLimiter;
  /** The configured public address (links never come from the request's Host). */
  originOf: () => string;
  /** How long `fault=hang` holds a connection (the request's workspace's setting). */
  hangMs: (ctx: Ctx) => number;
};

/**
 * The server's one front door: every request passes the same path check, then exactly one mount; every answer,
 * refusals included, is written by the same serialiser with the same headers. It speaks no transport: the Node
 * listener (`mocks/node/listener.ts`) and the web `handle` (`mocks/web/handle.ts`) each make the context and
 * write the answer.
 */
export function createFrontDoor(deps: FrontDoorDeps) {
  const refuse = (error: ApiError): ((ctx: Ctx) => Answer) =>
    compose([finishResponse({ limiter: deps.limiter }), rateLimit({ limiter: deps.limiter }), throwing(error)]);

  /**
   * The answer to one request: its context made by the adapter, its target as sent (origin-form `/v1/…?…`, or
   * absolute-form), and whether it came over HTTP/1.1 without Host (RFC 9112 §3.2: refused in the error shape).
   */
  const answer = (ctx: Ctx, sent: string, missingHost = false): Answer => {
    const target = readTarget(sent);
    if (target instanceof ApiError) return refuse(target)(ctx);
    // HTTP/1.1 requires Host (RFC 9112 §3.2); the refusal is answered like any other, counted and in the error shape.
    if (missingHost) return refuse(new ApiError(400, 'missing_host', 'Host: the header is required in HTTP/1.1.'))(ctx);
    const mount = deps.mounts.find((m) => m.matches(target.path)) ?? deps.fallback;
    ctx.req = withRequest(ctx.req, {
      path: mount.within ? mount.within(target.path) : target.path,
      query: target.query,
    });
    return mount.pipeline(ctx);
  };

  /** The answer to a request refused before any mount (a transport's own refusals), counted by the client address. */
  const answerRefusal = (remoteAddress: string, refusal: ApiError): Answer => {
    const ctx: Ctx = {
      req: newRequest('GET', safeDict<string>(), new URLSearchParams(), EMPTY_BYTES),
      source: { remoteAddress, body: noBody() },
      origin: deps.originOf(),
    };
    return refuse(refusal)(ctx);
  };

  return { answer, answerRefusal, originOf: deps.originOf, hangMs: deps.hangMs };
}

export type FrontDoor = ReturnType<typeof createFrontDoor>;

/** The body of a request refused before it was read: none is. */
async function* noBody(): AsyncIterable<Uint8Array> {}

function throwing(error: ApiError): Stage {
  return async () => {
    throw error;
  };
}
