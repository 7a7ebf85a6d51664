/**
 * The passive mode's door: a forwarding HTTP server that passes every request and response through unchanged to one
 * upstream origin, keeps at most `maxBytes` of each body for judging, and hands each exchange over when it ends.
 * Both sides are hostile to the proxy's health, never to its life: a client or upstream that resets or aborts
 * mid-body ends that exchange alone (recorded as aborted, not judged), never the proxy.
 */
import type { Duplex } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Exchange } from './http-client';

/** Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** How long closing waits for exchanges in flight before it cuts their connections. */
const CLOSE_GRACE_MS = 2000;

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  for (const name of Object.keys(headers)) if (HOP_BY_HOP.has(name.toLowerCase())) delete headers[name];
  return headers;
}

/** The first `maxBytes` of a stream's bytes, kept for judging while the whole stream passes on. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;
  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    const room = this.maxBytes - this.bytes;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }

  get buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** The kept bytes as text, decoded when the body was compressed (bounded too: a bomb is cut, not inflated whole). */
  text(encoding: string | undefined): { text: string; truncated: boolean } {
    const raw = this.buffer;
    const decode = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync }[
      (encoding ?? '').trim().toLowerCase()
    ];
    if (!decode || this.truncated) return { text: raw.toString('utf8'), truncated: this.truncated };
    try {
      return { text: decode(raw, { maxOutputLength: this.maxBytes }).toString('utf8'), truncated: false };
    } catch {
      return { text: '', truncated: true };
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The request as the checks see it: its path below the base path, its headers flattened, a JSON body parsed. */
function requestSeen(
  req: IncomingMessage,
  sent: Capture | undefined,
  target: URL,
  basePath: string,
): Exchange['request'] {
  const body = sent?.buffer;
  const rawBody = body && body.length > 0 ? body.toString('utf8') : undefined;
  const path = target.pathname.startsWith(basePath)
    ? target.pathname.slice(basePath.length) + target.search
    : target.pathname + target.search;
  return {
    method: req.method ?? 'GET',
    url: target.href,
    path,
    headers: flatten(req.headers),
    body: rawBody === undefined ? undefined : (parseJson(rawBody) ?? rawBody),
    rawBody,
  };
}

/** An upstream the proxy cannot reach: 502 in the contract's error shape. */
function answerBadGateway(res: ServerResponse, error: Error): void {
  answerError(res, 502, proxyError(`upstream unreachable (${error.message})`, 'bad_gateway'));
}

/** An error of the proxy's own, with its length (not chunked: a client reading up to the length has it whole). */
function answerError(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The proxy's own error body, in the API's error shape. */
const proxyError = (message: string, reason: string) =>
  JSON.stringify({ errorMessage: `conformance proxy: ${message}`, reason });

/** A request the proxy will not forward (its target is elsewhere, or no URL): the client's to mend, a 400. */
function answerRefused(res: ServerResponse, message: string): void {
  answerError(res, 400, proxyError(message, 'invalid_target'));
}

/**
 * The answer to a request Node refused before the proxy saw it (malformed HTTP, headers too large), written on
 * its socket: the error shape, as the mock answers them, where closing the socket left the client with nothing.
 */
function refusalText(error: NodeJS.ErrnoException): string {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return rawAnswer(
      431,
      'Request Header Fields Too Large',
      'headers_too_large',
      'the request line or headers are too large',
    );
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return rawAnswer(408, 'Request Timeout', 'request_timeout', 'the request did not arrive in time');
  return rawAnswer(400, 'Bad Request', 'malformed_http', 'the request is not valid HTTP');
}

/** A whole HTTP/1.1 answer in the error shape, closing the connection, for a socket no response object serves. */
function rawAnswer(status: number, text: string, reason: string, message: string, extra = ''): string {
  const body = proxyError(message, reason);
  return `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`;
}

export type ForwardHooks = {
  /** A request about to be forwarded: the exchange it becomes, its request as first seen (body still to come). */
  open(request: Exchange['request'], authorization: string | undefined): Exchange;
  /** The exchange ended: answered in full (`answered`, to judge), or broken off (`error` says how). */
  close(exchange: Exchange, answered: boolean): void;
};

export type Forwarder = { port: number; close(): Promise<void> };

type Upstream = { origin: string; host: string; basePath: string; maxBytes: number };

/** One exchange through the proxy, from the client's request to the end of the upstream's answer or a break. */
function forwardOne(req: IncomingMessage, res: ServerResponse, upstream: Upstream, hooks: ForwardHooks): void {
  const target = targetOf(req.url ?? '/', upstream.origin);
  // Only the upstream's origin is ever reached, whatever the request line says.
  if (target?.origin !== upstream.origin) {
    answerRefused(res, target ? 'the request names another origin than the upstream' : 'the request target is no URL');
    return;
  }
  const headers = withoutHopByHop<Record<string, string | string[] | undefined>>({
    ...req.headers,
    host: upstream.host,
  });
  const sent = new Capture(upstream.maxBytes);
  const answer = new Capture(upstream.maxBytes);
  const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
  const exchange = hooks.open(requestSeen(req, undefined, target, upstream.basePath), authorization);
  let ended = false;
  /** An exchange that broke off: recorded as aborted (not judged), both sides' connections closed. */
  const abort = (why: string) => {
    if (ended) return;
    ended = true;
    exchange.error = `aborted: ${why}`;
    exchange.request = requestSeen(req, sent, target, upstream.basePath);
    forward.destroy();
    if (!res.headersSent) answerBadGateway(res, new Error(why));
    else res.destroy();
    hooks.close(exchange, false);
  };
  const answered = (upstreamRes: IncomingMessage) => {
    if (ended) return;
    ended = true;
    res.end();
    const { text, truncated } = answer.text(upstreamRes.headers['content-encoding']);
    exchange.request = requestSeen(req, sent, target, upstream.basePath);
    exchange.response = {
      status: upstreamRes.statusCode ?? 0,
      headers: flatten(upstreamRes.headers),
      body: truncated ? undefined : parseJson(text),
      text,
    };
    if (truncated) exchange.response.truncated = true;
    hooks.close(exchange, true);
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  // The path goes on as it was sent: a URL resolves `/v1/%2e%2e/__mock` to `/__mock`, a path the client never sent.
  const path = (req.url ?? '/').startsWith('/') ? (req.url as string) : target.pathname + target.search;
  const forward = send({ ...urlToHttpOptions(target), path, method: req.method, headers }, (upstreamRes) => {
    // Unchanged for the client: status, headers and the body's bytes, streamed as they come.
    res.writeHead(upstreamRes.statusCode ?? 502, withoutHopByHop({ ...upstreamRes.headers }));
    upstreamRes.on('data', (chunk: Buffer) => {
      answer.add(chunk);
      // A slow client slows the upstream down instead of filling the proxy's memory.
      if (!res.write(chunk)) {
        upstreamRes.pause();
        res.once('drain', () => upstreamRes.resume());
      }
    });
    upstreamRes.on('end', () => answered(upstreamRes));
    upstreamRes.on('error', () => abort('the upstream reset the connection mid-body'));
    upstreamRes.on('close', () => {
      if (!upstreamRes.complete) abort('the upstream closed the connection mid-body');
    });
  });
  forward.on('error', (error) =>
    abort(
      res.headersSent
        ? `the upstream reset the connection mid-body (${error.message})`
        : `upstream unreachable (${error.message})`,
    ),
  );
  req.on('data', (chunk: Buffer) => sent.add(chunk));
  req.on('error', () => abort('the client reset the connection mid-request'));
  req.on('close', () => {
    if (!req.complete) abort('the client closed the connection mid-request');
  });
  const clientWent = (how: string) => `the client ${how} the connection mid-${req.complete ? 'answer' : 'request'}`;
  res.on('error', () => abort(clientWent('reset')));
  res.on('close', () => {
    if (!res.writableFinished) abort(clientWent('closed'));
  });
  req.pipe(forward);
}

/**
 * The request's target on the upstream, or undefined when it is no URL. A path (origin-form) is read as the
 * upstream's own, whatever it looks like: as a reference of its own, `//h/…` would name the host `h`, and a host a
 * URL parser refuses (`//a<b/`) would throw out of the server's 'request' event and end the proxy.
 */
function targetOf(sent: string, origin: string): URL | undefined {
  try {
    return sent.startsWith('/') ? new URL(`${origin}${sent}`) : new URL(sent, origin);
  } catch {
    return undefined;
  }
}

/** Listens on 127.0.0.1:`port` (0: any) and forwards to `upstream`, whose path is the base path requests are below. */
export async function startForwarder(
  upstream: URL,
  port: number | undefined,
  maxBytes: number,
  hooks: ForwardHooks,
): Promise<Forwarder> {
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const door: Upstream = { origin: upstream.origin, host: upstream.host, basePath, maxBytes };
  const server = createServer((req, res) => {
    try {
      forwardOne(req, res, door, hooks);
    } catch (error) {
      // Thrown out of the 'request' event, it would end the proxy and every exchange in flight with it.
      if (!res.headersSent) answerBadGateway(res, error as Error);
      else res.destroy();
    }
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // CONNECT asks for a tunnel, which Node hands to this event alone (unheard, it closes the socket unanswered).
  server.on('connect', (_req, socket: Duplex) => {
    // Node has taken its own listeners off this socket: a reset with none of ours would end the proxy.
    socket.on('error', () => socket.destroy());
    socket.end(
      rawAnswer(
        405,
        'Method Not Allowed',
        'method_not_allowed',
        'CONNECT: the proxy opens no tunnels',
        'allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n',
      ),
      () => socket.destroy(),
    );
  });
  // A malformed request or a socket error belongs to that connection alone: answered when the socket can take it
  // and no answer is on its way on it (a malformed request pipelined behind one: never written into its body).
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (socket.writable && !answering && error.code !== 'ECONNRESET') socket.end(refusalText(error));
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port ?? 0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      // Exchanges in flight get a moment to end; then their connections are cut (recorded as aborted).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, CLOSE_GRACE_MS);
      await closed;
      clearTimeout(cut);
    },
  };
}
