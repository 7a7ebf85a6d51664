import { newRequest, type Ctx } from '../context';
import type { FrontDoor } from '../front-door';
import { jsonText } from '../json-text';
import type { Fault } from '../prefer';
import { safeDict } from '../safety/dict';
import { renderError } from '../stages/finish';
import type { MockResponse } from '../types';
import { EMPTY_BYTES, utf8Encode, utf8Length } from './bytes';

/** Where a request came from, when the caller knows (the rate limit counts callers without a credential by it). */
export type RequestInfo = { remoteAddress?: string };

/** A caller without an address (an in-process `fetch`) is counted as the loopback client. */
const LOCAL_ADDRESS = '127.0.0.1';

/**
 * The core's front door for a web `Request`: the same door the Node listener uses (`mocks/node/listener.ts`),
 * with the context made from the request and the answer made a `Response`. A fault breaks the exchange as a
 * `fetch` sees a broken connection: a network error (`Response.error()`), or a body that fails midway.
 */
export function createWebHandler(door: FrontDoor) {
  return async function handle(request: Request, info: RequestInfo = {}): Promise<Response> {
    const ctx = requestContext(request, info, door.originOf());
    let response: MockResponse;
    try {
      response = await door.answer(ctx, request.url);
    } catch (error) {
      response = renderError(error);
    }
    if (response.fault) return faultResponse(response, response.fault, door.hangMs(ctx), request.signal);
    return toResponse(response, request.method);
  };
}

function requestContext(request: Request, info: RequestInfo, origin: string): Ctx {
  const headers = safeDict<string>();
  request.headers.forEach((value, name) => (headers[name] = value));
  // A body of unknown length (a `fetch` Request computes Content-Length only on the wire) is read as an
  // HTTP/1.1 client sends it: chunked, through the same bounded reader.
  if (request.body && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
    headers['transfer-encoding'] = 'chunked';
  return {
    req: newRequest(request.method, headers, new URLSearchParams(), EMPTY_BYTES),
    source: { remoteAddress: info.remoteAddress ?? LOCAL_ADDRESS, body: chunksOf(request) },
    origin,
    signal: request.signal,
  };
}

/** The request's body a chunk at a time, so the reader's byte bound stops it early. */
async function* chunksOf(request: Request): AsyncIterable<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Statuses whose responses carry no body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** The answer as a Response: its JSON text (or text) with its length, headers as given. */
export function toResponse(response: MockResponse, method: string): Response {
  const text = response.text ?? (response.body === undefined ? undefined : jsonText(response.body));
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) headers.set(name, String(value));
  if (text !== undefined) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    headers.set('content-length', String(utf8Length(text)));
  } else if (!NO_BODY.has(response.status)) headers.set('content-length', '0');
  const body = method === 'HEAD' || NO_BODY.has(response.status) ? null : (text ?? null);
  return new Response(body, { status: response.status, headers });
}

/**
 * A fault as `fetch` meets it (the socket faults of `mocks/faults`): reset and empty are network errors, hang
 * one after `hangMs` (or when the caller aborts), truncated a body that fails after half its bytes, malformed-json
 * a complete answer whose body is not JSON.
 */
function faultResponse(response: MockResponse, fault: Fault, hangMs: number, signal: AbortSignal): Promise<Response> {
  const text = response.body === undefined ? '' : JSON.stringify(response.body);
  const headers = { ...response.headers, 'content-type': 'application/json' };
  delete (headers as Record<string, string>)['content-length'];
  switch (fault) {
    case 'reset':
    case 'empty':
      return Promise.resolve(Response.error());
    case 'hang':
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve(Response.error());
        };
        const timer = setTimeout(done, hangMs);
        signal.addEventListener('abort', done, { once: true });
      });
    case 'truncated': {
      const bytes = utf8Encode(text || '{}');
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)));
          controller.error(new TypeError('The connection was reset before the body ended.'));
        },
      });
      return Promise.resolve(
        new Response(body, {
          status: response.status,
          headers: { ...headers, 'content-length': String(bytes.length) },
        }),
      );
    }
    case 'malformed-json': {
      const body = `${text.slice(0, Math.ceil(text.length / 2))}<html><body>502 Bad Gateway</body></html>`;
      return Promise.resolve(
        new Response(body, {
          status: response.status,
          headers: { ...headers, 'content-length': String(utf8Length(body)) },
        }),
      );
    }
  }
}
