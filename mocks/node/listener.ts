import type { IncomingMessage, ServerResponse } from 'node:http';
import { newRequest, type Answer, type Ctx } from '../context';
import { writeFault } from '../faults';
import type { FrontDoor } from '../front-door';
import { safeDict } from '../safety/dict';
import { renderError } from '../stages/finish';
import type { RateLimitState } from '../stages/rate-limit/limiter';
import { serialise } from '../stages/serialise';
import type { MockResponse } from '../types';
import { EMPTY_BYTES } from '../web/bytes';

/**
 * The core's front door on `node:http`: the request becomes a context (headers as Node parsed them, the body
 * read from the request stream by the core's bounded reader), and the answer is written to the socket, streamed
 * in chunks when large, or broken the way a fault names. The web-standard `handle` (`mocks/web/handle.ts`) is
 * the same door for a `Request`; both hand every request to `door.answer`.
 */
export function createNodeListener(door: FrontDoor) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const ctx = requestContext(req, res, door.originOf());
    // An answer known at once (nothing on its way waited) is written at once, in the turn that read the request.
    // The callbacks are inline arrows, not named ones: under tsx a named closure made per request is named at run
    // time (`in-process.test.ts`).
    let answer: Answer;
    try {
      answer = door.answer(ctx, req.url ?? '/', req.httpVersion === '1.1' && req.headers.host === undefined);
    } catch (error) {
      // Every refusal is an answer, so nothing should throw here; if something does, it is this request's 500.
      // Thrown out of Node's 'request' event it would end the process, and every client's connection with it.
      writeFailure(res, method, error);
      return;
    }
    if (answer instanceof Promise)
      answer.then(
        (response) => write(door, ctx, res, method, response),
        (error: unknown) => writeFailure(res, method, error),
      );
    else write(door, ctx, res, method, answer);
  };
}

/** The answer written to the socket, or broken the way its fault names; a failure to write it is a 500. */
function write(door: FrontDoor, ctx: Ctx, res: ServerResponse, method: string, response: MockResponse): void {
  try {
    if (response.fault) writeFault(res, response, response.fault, { hangMs: door.hangMs(ctx) });
    else serialise(res, response, method);
  } catch (error) {
    writeFailure(res, method, error);
  }
}

/** An error in the contract's shape, when nothing of the answer was sent yet; else the connection is closed. */
function writeFailure(res: ServerResponse, method: string, error: unknown): void {
  if (!res.headersSent) serialise(res, renderError(error), method);
  else res.destroy();
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
    newRequest(req.method ?? 'GET', headers, EMPTY_QUERY, EMPTY_BYTES),
    { remoteAddress: req.socket.remoteAddress ?? 'unknown', body: req },
    // Links (Location, downloads) come from the configured public address, never from the request's Host.
    origin,
    res,
  );
}

/** A request's context in the server: its abort signal is made when a stage first asks (few do), not per request. */
class NodeRequestContext implements Ctx {
  #signal: AbortSignal | undefined;
  // Every field a stage sets, present from the start: each request's context has one shape as it goes down the
  // stages (one added later moves the object to another shape, and the stages reading it see several).
  identity: Ctx['identity'] = undefined;
  steering: Ctx['steering'] = undefined;
  caller: Ctx['caller'] = undefined;
  rateLimit: RateLimitState | undefined = undefined;
  counting: Ctx['counting'] = undefined;
  route: Ctx['route'] = undefined;
  bodyRead: Ctx['bodyRead'] = undefined;
  undo: Ctx['undo'] = undefined;
  withAnswer: Ctx['withAnswer'] = undefined;
  input: Ctx['input'] = undefined;
  constructor(
    public req: Ctx['req'],
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
