/**
 * Passive mode (`--proxy --upstream <url> [--port <p>]`): a forwarding proxy that passes every request and response
 * through unchanged and judges each exchange with the suite's per-response checks (hooks: response conformance,
 * rate-limit headers and their consistency per workspace, error shape, retirement headers, no 5xx, response time)
 * and its traffic judges (a 202's Location and the polls of it, terminal statuses staying terminal).
 * Findings are emitted as they happen; closing the proxy settles the checks and emits the run's end, so the same
 * reporters write the same reports. The reports are also written every `reportEverySeconds` (a snapshot: the checks
 * settled so far, the run going on), so a proxy killed outright loses at most that much.
 *
 * Both sides are hostile to the proxy's health, never to its life: bodies stream through unchanged with at most
 * `maxResponseBytes` of each kept for judging, and a client or upstream that resets or aborts mid-body ends that
 * exchange alone (recorded as aborted, not judged), never the proxy.
 */
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
import { loadContract, type Contract } from '../spec/lib';
import type { Check } from './checks/registry';
import type { RunConfig } from './config';
import { CheckFailure } from './lib/failure';
import {
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  HttpClient,
  LogBound,
  type Exchange,
  type TokenLabel,
} from './lib/http-client';
import { createContext, type RunState } from './run/context';
import { FailureGroups } from './run/grouping';
import { checkBasePath } from './run/preflight';
import { WorkerPool } from './run/scheduler';
import { Selection } from './run/selection';
import {
  newResult,
  PASSIVE_TRAFFIC,
  settle,
  type CheckResult,
  type Reporter,
  type RunEvent,
  type RunSummary,
} from './run/types';

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

/** A concrete path with its ids (uuids, numbers, long hex) folded to `{id}`, so one endpoint is one line. */
export function foldIds(path: string): string {
  return path
    .split('/')
    .map((segment) =>
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment) ||
      /^\d+$/.test(segment) ||
      /^[0-9a-f]{16,}$/i.test(segment)
        ? '{id}'
        : segment,
    )
    .join('/');
}

export type PassiveProxy = {
  url: string;
  port: number;
  exchanges: number;
  /** Writes the reports as they stand; the run goes on. */
  snapshot(): Promise<void>;
  close(): Promise<RunSummary>;
};

/** How often a passive run writes its reports by default (`--report-every`, seconds). */
export const DEFAULT_REPORT_EVERY_SECONDS = 60;

/** How long closing waits for exchanges in flight before it cuts their connections. */
const CLOSE_GRACE_MS = 2000;

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
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

/** The checks that judge exchanges without sending requests of their own: per-response hooks and traffic judges. */
export function passiveChecks(checks: Check[]): Check[] {
  return checks.filter((check) => check.onExchange || check.traffic);
}

export async function startPassiveProxy(
  config: RunConfig & { upstream: string; port?: number; reportEverySeconds?: number },
  options: { checks: Check[]; reporters?: Reporter[]; contract?: Contract },
): Promise<PassiveProxy> {
  const started = Date.now();
  const contract = options.contract ?? (await loadContract(config.specPath));
  checkBasePath(config.upstream, contract);
  const upstream = new URL(config.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const checks = passiveChecks(options.checks).filter(
    (check) => (!config.only || config.only.includes(check.id)) && !config.skip?.includes(check.id),
  );
  let chain = Promise.resolve();
  const emit = (event: RunEvent) =>
    (chain = chain.then(async () => {
      for (const reporter of options.reporters ?? []) await reporter.onEvent(event);
    }));
  // No request is sent through this client: it only anchors the checks' per-run state.
  const client = new HttpClient({
    baseUrl: config.upstream,
    tokenA: config.tokenA || 'passive',
    maxRequests: Number.MAX_SAFE_INTEGER,
  });
  const results = new Map<string, CheckResult>(checks.map((check) => [check.id, newResult(check)]));
  const state: RunState = {
    config,
    contract,
    client,
    selection: new Selection(contract, config),
    groups: new FailureGroups(contract, config.credentials, (failure) => void emit({ type: 'finding', failure })),
    pool: new WorkerPool(1),
    replayReached: false,
    sharedValues: new Map(),
  };
  const contexts = new Map(checks.map((check) => [check.id, createContext(state, check, results.get(check.id)!)]));
  const judges = new Map(checks.map((check) => [check.id, check.traffic?.judge(contexts.get(check.id)!)]));
  await emit({
    type: 'run-start',
    target: config.upstream,
    seed: config.seed,
    checks,
    specPath: config.specPath,
    contract,
    workers: 1,
  });
  for (const check of checks) await emit({ type: 'check-start', check });

  // Tokens are told apart by order of first sight, so rate-limit readings stay per credential (per workspace).
  const labels = new Map<string, TokenLabel>();
  const labelOf = (authorization: string | undefined): TokenLabel => {
    if (!authorization) return 'none';
    if (!labels.has(authorization))
      labels.set(authorization, labels.size === 0 ? 'a' : labels.size === 1 ? 'b' : 'other');
    return labels.get(authorization)!;
  };
  let nextId = 1;
  let tick = 0;
  let count = 0;

  // Endpoints the traffic reached that the contract does not describe (ids folded), with how often.
  const undescribed = new Map<string, number>();
  const judge = (exchange: Exchange) => {
    void emit({ type: 'exchange', exchange });
    const path = exchange.request.path.split('?')[0];
    if (!contract.findOperation(exchange.request.method, path)) {
      const endpoint = `${exchange.request.method} ${foldIds(path)}`;
      if (undescribed.has(endpoint) || undescribed.size < 1000)
        undescribed.set(endpoint, (undescribed.get(endpoint) ?? 0) + 1);
    }
    for (const check of checks) {
      results.get(check.id)!.requests++;
      try {
        check.onExchange?.(exchange, contexts.get(check.id)!);
        judges.get(check.id)?.see(exchange);
      } catch (error) {
        // Whatever a check raises on one exchange is that check's finding, never the proxy's end.
        contexts.get(check.id)!.report(
          error instanceof CheckFailure
            ? error.input
            : {
                title: 'Check raised an error',
                expected: 'the check to judge the exchange',
                received: error instanceof Error ? error.message : String(error),
              },
        );
      }
    }
  };

  const maxBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const log = new LogBound(DEFAULT_MAX_LOG_BYTES);
  const finish = (exchange: Exchange, judged: boolean) => {
    exchange.receivedAt = Date.now();
    exchange.receivedTick = ++tick;
    if (judged) judge(exchange);
    else void emit({ type: 'exchange', exchange });
    log.add(exchange);
  };

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const target = new URL(path, upstream.origin);
    // Only the upstream's origin is ever reached, whatever the request line says.
    if (target.origin !== upstream.origin) {
      answerBadGateway(res, new Error('the request names another origin than the upstream'));
      return;
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: upstream.host };
    for (const name of Object.keys(headers)) if (HOP_BY_HOP.has(name.toLowerCase())) delete headers[name];
    const sent = new Capture(maxBytes);
    const answer = new Capture(maxBytes);
    const exchange: Exchange = {
      id: nextId++,
      checkId: PASSIVE_TRAFFIC,
      tokenLabel: labelOf(typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined),
      request: requestSeen(req, undefined, target, basePath),
      sentAt: Date.now(),
      receivedAt: 0,
      sentTick: ++tick,
      receivedTick: 0,
    };
    exchange.operationId = contract.findOperation(
      exchange.request.method,
      exchange.request.path.split('?')[0],
    )?.operationId;
    count++;
    let ended = false;
    /** An exchange that broke off: recorded as aborted (not judged), both sides' connections closed. */
    const abort = (why: string) => {
      if (ended) return;
      ended = true;
      exchange.error = `aborted: ${why}`;
      exchange.request = requestSeen(req, sent, target, basePath);
      forward.destroy();
      if (!res.headersSent) answerBadGateway(res, new Error(why));
      else res.destroy();
      finish(exchange, false);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const forward = send(target, { method: req.method, headers }, (upstreamRes) => {
      const outHeaders = { ...upstreamRes.headers };
      for (const name of Object.keys(outHeaders)) if (HOP_BY_HOP.has(name.toLowerCase())) delete outHeaders[name];
      // Unchanged for the client: status, headers and the body's bytes, streamed as they come.
      res.writeHead(upstreamRes.statusCode ?? 502, outHeaders);
      upstreamRes.on('data', (chunk: Buffer) => {
        answer.add(chunk);
        // A slow client slows the upstream down instead of filling the proxy's memory.
        if (!res.write(chunk)) {
          upstreamRes.pause();
          res.once('drain', () => upstreamRes.resume());
        }
      });
      upstreamRes.on('end', () => {
        if (ended) return;
        ended = true;
        res.end();
        const { text, truncated } = answer.text(upstreamRes.headers['content-encoding']);
        exchange.request = requestSeen(req, sent, target, basePath);
        exchange.response = {
          status: upstreamRes.statusCode ?? 0,
          headers: flatten(upstreamRes.headers),
          body: truncated ? undefined : parseJson(text),
          text,
        };
        if (truncated) exchange.response.truncated = true;
        finish(exchange, true);
      });
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
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A malformed request or a socket error belongs to that connection alone.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(config.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** The run so far: each check settled on a copy, so the live results go on collecting. */
  const summarise = (from: Map<string, CheckResult>): RunSummary => {
    const ordered = checks.map((check) => from.get(check.id)!);
    return {
      target: config.upstream,
      seed: config.seed,
      results: ordered,
      requests: count,
      durationMs: Date.now() - started,
      exitCode: ordered.some((r) => r.status === 'failed') ? 1 : 0,
      workers: 1,
      undescribed: [...undescribed].map(([endpoint, seen]) => ({ endpoint, seen })),
    };
  };
  const snapshot = async () => {
    const copies = new Map<string, CheckResult>();
    for (const [id, result] of results) {
      const copy = { ...result, durationMs: Date.now() - started };
      settle(copy);
      copies.set(id, copy);
    }
    await emit({ type: 'snapshot', summary: summarise(copies) });
  };
  const periodic = setInterval(
    () => void snapshot(),
    (config.reportEverySeconds ?? DEFAULT_REPORT_EVERY_SECONDS) * 1000,
  );
  periodic.unref();

  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    port,
    get exchanges() {
      return count;
    },
    snapshot,
    async close() {
      clearInterval(periodic);
      // Exchanges in flight get a moment to end; then their connections are cut (recorded as aborted).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, CLOSE_GRACE_MS);
      await closed;
      clearTimeout(cut);
      for (const check of checks) {
        judges.get(check.id)?.end?.();
        await check.finish?.(contexts.get(check.id)!);
      }
      for (const check of checks) {
        const result = results.get(check.id)!;
        result.durationMs = Date.now() - started;
        settle(result);
        await emit({ type: 'check-end', result });
      }
      const summary = summarise(results);
      await emit({ type: 'run-end', summary });
      return summary;
    },
  };
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
  res.writeHead(502, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      errorMessage: `conformance proxy: upstream unreachable (${error.message})`,
      reason: 'bad_gateway',
    }),
  );
}
