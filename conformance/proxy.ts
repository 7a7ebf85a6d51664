/**
 * Passive mode (`--proxy --upstream <url> [--port <p>]`): a forwarding proxy that passes every request and response
 * through unchanged (`lib/forward.ts`) and judges each exchange with the suite's per-response checks (hooks: response
 * conformance, rate-limit headers and their consistency per workspace, error shape, retirement headers, no 5xx,
 * response time) and its traffic judges (a 202's Location and the polls of it, terminal statuses staying terminal).
 * Findings are emitted as they happen; closing the proxy settles the checks and emits the run's end, so the same
 * reporters write the same reports. The reports are also written every `reportEverySeconds` (a snapshot: the checks
 * settled so far, the run going on), so a proxy killed outright loses at most that much. The run's lifecycle
 * (results, events, hooks, the summary) is `run/lifecycle.ts`, shared with the active runner.
 */
import { loadContract, type Contract } from '../spec/lib';
import type { Check } from './checks/registry';
import type { RunConfig } from './config';
import { startForwarder } from './lib/forward';
import {
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  HttpClient,
  LogBound,
  type Exchange,
  type TokenLabel,
} from './lib/http-client';
import { RunLifecycle, selectChecks } from './run/lifecycle';
import { checkBasePath } from './run/preflight';
import { WorkerPool } from './run/scheduler';
import { Selection } from './run/selection';
import { PASSIVE_TRAFFIC, type Reporter, type RunSummary } from './run/types';

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

/** Endpoints of undescribed traffic kept (ids folded); past it only those already seen are counted. */
const MAX_UNDESCRIBED = 1000;

/** The checks that judge exchanges without sending requests of their own: per-response hooks and traffic judges. */
export function passiveChecks(checks: Check[]): Check[] {
  return checks.filter((check) => check.onExchange || check.traffic);
}

/** What the proxy sees of the traffic: exchanges numbered and timed, tokens told apart, undescribed endpoints. */
class Traffic {
  count = 0;
  /** Endpoints the traffic reached that the contract does not describe (ids folded), with how often. */
  readonly undescribed = new Map<string, number>();
  private readonly labels = new Map<string, TokenLabel>();
  private nextId = 1;
  private tick = 0;

  constructor(private readonly contract: Contract) {}

  /** Tokens are told apart by order of first sight, so rate-limit readings stay per credential (per workspace). */
  private labelOf(authorization: string | undefined): TokenLabel {
    if (!authorization) return 'none';
    const known = this.labels.get(authorization);
    if (known) return known;
    const label = this.labels.size === 0 ? 'a' : this.labels.size === 1 ? 'b' : 'other';
    this.labels.set(authorization, label);
    return label;
  }

  open(request: Exchange['request'], authorization: string | undefined): Exchange {
    const exchange: Exchange = {
      id: this.nextId++,
      checkId: PASSIVE_TRAFFIC,
      tokenLabel: this.labelOf(authorization),
      request,
      sentAt: Date.now(),
      receivedAt: 0,
      sentTick: ++this.tick,
      receivedTick: 0,
    };
    exchange.operationId = this.contract.findOperation(request.method, request.path.split('?')[0])?.operationId;
    this.count++;
    return exchange;
  }

  received(exchange: Exchange): void {
    exchange.receivedAt = Date.now();
    exchange.receivedTick = ++this.tick;
    const path = exchange.request.path.split('?')[0];
    if (this.contract.findOperation(exchange.request.method, path)) return;
    const endpoint = `${exchange.request.method} ${foldIds(path)}`;
    if (this.undescribed.has(endpoint) || this.undescribed.size < MAX_UNDESCRIBED)
      this.undescribed.set(endpoint, (this.undescribed.get(endpoint) ?? 0) + 1);
  }
}

export async function startPassiveProxy(
  config: RunConfig & { upstream: string; port?: number; reportEverySeconds?: number },
  options: { checks: Check[]; reporters?: Reporter[]; contract?: Contract },
): Promise<PassiveProxy> {
  const started = Date.now();
  const contract = options.contract ?? (await loadContract(config.specPath));
  checkBasePath(config.upstream, contract);
  const upstream = new URL(config.upstream);
  const checks = passiveChecks(selectChecks(options.checks, config));
  // No request is sent through this client: it only anchors the checks' per-run state.
  const client = new HttpClient({
    baseUrl: config.upstream,
    tokenA: config.tokenA || 'passive',
    maxRequests: Number.MAX_SAFE_INTEGER,
  });
  const selection = new Selection(contract, config);
  const pool = new WorkerPool(1);
  const run = new RunLifecycle({
    config,
    contract,
    client,
    selection,
    pool,
    checks,
    startedAt: started,
    traffic: true,
    reporters: options.reporters ?? [],
  });
  await run.start({ target: config.upstream, specPath: config.specPath, contract, workers: 1 });
  for (const check of checks) await run.begin(check);

  const traffic = new Traffic(contract);
  const log = new LogBound(DEFAULT_MAX_LOG_BYTES);
  const forwarder = await startForwarder(upstream, config.port, config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, {
    open: (request, authorization) => traffic.open(request, authorization),
    close: (exchange, answered) => {
      traffic.received(exchange);
      void run.emit({ type: 'exchange', exchange });
      if (answered) run.observe(exchange, checks, 'report');
      log.add(exchange);
    },
  });

  /** The run so far, or at its end: undescribed endpoints with the rest. */
  const summarise = (results?: ReturnType<RunLifecycle['settledCopies']>) =>
    run.summary(
      { target: config.upstream, requests: traffic.count },
      { workers: 1, undescribed: [...traffic.undescribed].map(([endpoint, seen]) => ({ endpoint, seen })) },
      results,
    );
  const snapshot = () => run.snapshot(summarise(run.settledCopies()));
  const periodic = setInterval(
    () => void snapshot(),
    (config.reportEverySeconds ?? DEFAULT_REPORT_EVERY_SECONDS) * 1000,
  );
  periodic.unref();

  return {
    url: `http://127.0.0.1:${forwarder.port}${upstream.pathname.replace(/\/+$/, '')}`,
    port: forwarder.port,
    get exchanges() {
      return traffic.count;
    },
    snapshot,
    async close() {
      clearInterval(periodic);
      await forwarder.close();
      await run.finish();
      for (const check of checks) {
        run.result(check).durationMs = Date.now() - started;
        await run.end(check);
      }
      return run.close(summarise());
    },
  };
}
