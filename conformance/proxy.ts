/**
 * Passive mode (`--proxy --upstream <url> [--port <p>]`): a forwarding proxy that passes every request and response
 * through unchanged and judges each exchange with the suite's per-response checks (hooks: response conformance,
 * rate-limit headers and their consistency per workspace, error shape, retirement headers, no 5xx, response time)
 * and its traffic judges (a 202's Location and the polls of it, terminal statuses staying terminal).
 * Findings are emitted as they happen; closing the proxy settles the checks and emits the run's end, so the same
 * reporters write the same reports.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadContract, type Contract } from '../spec/lib';
import type { Check } from './checks/registry';
import type { RunConfig } from './config';
import { CheckFailure } from './lib/failure';
import { HttpClient, type Exchange, type TokenLabel } from './lib/http-client';
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

export type PassiveProxy = { url: string; port: number; exchanges: number; close(): Promise<RunSummary> };

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
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
  config: RunConfig & { upstream: string; port?: number },
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
        if (error instanceof CheckFailure) contexts.get(check.id)!.report(error.input);
        else throw error;
      }
    }
  };

  const server = createServer(async (req, res) => {
    const body = await readAll(req);
    const path = req.url ?? '/';
    const target = new URL(path, upstream.origin);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: upstream.host };
    for (const name of Object.keys(headers)) if (HOP_BY_HOP.has(name.toLowerCase())) delete headers[name];
    if (body.length > 0) headers['content-length'] = String(body.length);
    const request = requestSeen(req, body, target, basePath);
    const exchange: Exchange = {
      id: nextId++,
      checkId: PASSIVE_TRAFFIC,
      operationId: contract.findOperation(request.method, request.path.split('?')[0])?.operationId,
      tokenLabel: labelOf(request.headers.authorization),
      request,
      sentAt: Date.now(),
      receivedAt: 0,
      sentTick: ++tick,
      receivedTick: 0,
    };
    count++;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const forward = send(target, { method: req.method, headers }, async (upstreamRes) => {
      const answer = await readAll(upstreamRes);
      const outHeaders = { ...upstreamRes.headers };
      for (const name of Object.keys(outHeaders)) if (HOP_BY_HOP.has(name.toLowerCase())) delete outHeaders[name];
      // Unchanged for the client: status, headers and the body's bytes.
      res.writeHead(upstreamRes.statusCode ?? 502, { ...outHeaders, 'content-length': String(answer.length) });
      res.end(answer);
      const text = answer.toString('utf8');
      exchange.response = {
        status: upstreamRes.statusCode ?? 0,
        headers: flatten(upstreamRes.headers),
        body: parseJson(text),
        text,
      };
      exchange.receivedAt = Date.now();
      exchange.receivedTick = ++tick;
      judge(exchange);
    });
    forward.on('error', (error) => {
      exchange.error = error.message;
      exchange.receivedAt = Date.now();
      exchange.receivedTick = ++tick;
      void emit({ type: 'exchange', exchange });
      answerBadGateway(res, error);
    });
    forward.end(body);
  });
  await new Promise<void>((resolve) => server.listen(config.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    port,
    get exchanges() {
      return count;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
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
      const ordered = checks.map((check) => results.get(check.id)!);
      const summary: RunSummary = {
        target: config.upstream,
        seed: config.seed,
        results: ordered,
        requests: count,
        durationMs: Date.now() - started,
        exitCode: ordered.some((r) => r.status === 'failed') ? 1 : 0,
        workers: 1,
        undescribed: [...undescribed].map(([endpoint, seen]) => ({ endpoint, seen })),
      };
      await emit({ type: 'run-end', summary });
      return summary;
    },
  };
}

/** The request as the checks see it: its path below the base path, its headers flattened, a JSON body parsed. */
function requestSeen(req: IncomingMessage, body: Buffer, target: URL, basePath: string): Exchange['request'] {
  const rawBody = body.length > 0 ? body.toString('utf8') : undefined;
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
