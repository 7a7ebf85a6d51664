import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import { compose, type Ctx, type Stage } from '../context';
import { safeDict } from '../safety/dict';
import { writeFault } from '../faults';
import { finishResponse, renderError } from '../stages/finish';
import { rateLimit } from '../stages/rate-limit';
import type { RateLimiter } from '../stages/rate-limit/limiter';
import { serialise, serialiseToText } from '../stages/serialise';
import type { MockResponse } from '../types';
import { readTarget } from './path';

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
  pipeline(ctx: Ctx): Promise<MockResponse>;
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
 * Node-level refusals included, is written by the same serialiser with the same headers.
 */
export function createFrontDoor(deps: FrontDoorDeps) {
  const refuse = (error: ApiError): ((ctx: Ctx) => Promise<MockResponse>) =>
    compose([finishResponse({ limiter: deps.limiter }), rateLimit({ limiter: deps.limiter }), throwing(error)]);

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const target = readTarget(req.url ?? '/');
    const method = req.method ?? 'GET';
    const ctx = requestContext(req, res, deps.originOf());
    let answer: Promise<MockResponse>;
    if (target instanceof ApiError) answer = refuse(target)(ctx);
    // HTTP/1.1 requires Host (RFC 9112 §3.2); the refusal is answered like any other, counted and in the error shape.
    else if (req.httpVersion === '1.1' && req.headers.host === undefined)
      answer = refuse(new ApiError(400, 'missing_host', 'Host: the header is required in HTTP/1.1.'))(ctx);
    else {
      const mount = deps.mounts.find((m) => m.matches(target.path)) ?? deps.fallback;
      ctx.req.path = mount.within ? mount.within(target.path) : target.path;
      ctx.req.query = target.query;
      answer = mount.pipeline(ctx);
    }
    answer
      .then((response) => {
        if (response.fault) writeFault(res, response, response.fault, { hangMs: deps.hangMs(ctx) });
        else serialise(res, response, method);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) serialise(res, renderError(error), method);
        else res.destroy();
      });
  };

  /** A whole HTTP answer (closing the connection) for a request Node refused before any handler ran. */
  const answerRefusal = async (remoteAddress: string, refusal: ApiError): Promise<string> => {
    const ctx: Ctx = {
      req: { method: 'GET', path: '/', query: new URLSearchParams(), headers: safeDict<string>(), rawBody: EMPTY },
      source: { remoteAddress, body: noBody() },
      origin: deps.originOf(),
    };
    return serialiseToText(await refuse(refusal)(ctx));
  };

  return { listener, answerRefusal };
}

const EMPTY = Buffer.alloc(0);

/** The body of a request Node refused: none is read. */
async function* noBody(): AsyncIterable<Buffer> {}

function throwing(error: ApiError): Stage {
  return async () => {
    throw error;
  };
}

function requestContext(req: IncomingMessage, res: ServerResponse, origin: string): Ctx {
  const headers = safeDict<string>();
  // Node's own headers object, read by its own keys (no pair made per header; never an inherited key).
  const sent = req.headers;
  for (const name of Object.keys(sent)) {
    // dictionary-lookup: the names are the object's own keys, as listed by the loop
    const value = sent[name];
    if (value !== undefined) headers[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return new NodeRequestContext(
    { method: req.method ?? 'GET', path: '/', query: EMPTY_QUERY, headers, rawBody: EMPTY },
    { remoteAddress: req.socket.remoteAddress ?? 'unknown', body: req },
    // Links (Location, downloads) come from the configured public address, never from the request's Host.
    origin,
    res,
  );
}

/** A request's context in the server: its abort signal is made when a stage first asks (few do), not per request. */
class NodeRequestContext implements Ctx {
  #signal: AbortSignal | undefined;
  constructor(
    readonly req: Ctx['req'],
    readonly source: Ctx['source'],
    readonly origin: string,
    readonly res: ServerResponse,
  ) {}
  get signal(): AbortSignal {
    return (this.#signal ??= abortedWhenGone(this.res));
  }
}

/** Replaced before any stage runs (the mount's own query); never written to. */
const EMPTY_QUERY = new URLSearchParams();

/** Aborted when the client goes away before its answer is written (long work such as SQL queries stops then). */
function abortedWhenGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  // Asked for after the client went away: aborted already.
  if (res.closed && !res.writableFinished) controller.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}
