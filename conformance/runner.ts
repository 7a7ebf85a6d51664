/**
 * The active run: loads the contract, checks the configuration against it and the target, selects operations and
 * checks, schedules the checks in phases on the worker pool with one shared HTTP client, and stops at --max-time.
 * The run's lifecycle (results, events to reporters, hooks, the summary) is `run/lifecycle.ts`, shared with the
 * passive proxy.
 */
import { ConfigError, type RunConfig } from './config';
import type { Check } from './checks/registry';
import { CheckFailure, CheckSkipped } from './lib/failure';
import { BudgetExhausted, HttpClient, TimeBudgetSpent, type Exchange } from './lib/http-client';
import { loadContract, type Contract } from '../spec/lib';
import { RunLifecycle, selectChecks } from './run/lifecycle';
import { checkBasePath, preflight } from './run/preflight';
import { executionLog } from './run/property';
import { parseReplayPath } from './run/replay';
import { phases, WorkerPool } from './run/scheduler';
import { OperationNotSelected, Selection } from './run/selection';
import type { Reporter, RunSummary } from './run/types';

export type { CaseEvent, CheckResult, CheckStatus, Reporter, RunEvent, RunSummary } from './run/types';

/** How long a check still busy at --max-time may take to end before the run reports without it. */
export const DEADLINE_GRACE_MS = 2000;

export type RunOptions = { checks: Check[]; reporters?: Reporter[]; contract?: Contract };

/** Why a check cannot run under the selection (an operation it needs is filtered out or absent), else undefined. */
export function unmetNeed(check: Check, selection: Selection): string | undefined {
  for (const id of check.needs ?? []) {
    if (!selection.full.operation(id)) return `needs ${id}, which the contract does not have`;
    if (!selection.has(id))
      return `needs ${id}, which is outside the selected operations (--operations, --tags, --skip-tags)`;
  }
  return undefined;
}

/** The run's time, from the command's start when it gave one, else from the run's own. */
function deadlineOf(config: RunConfig, started: number): number {
  return (config.startedAt ?? started) + config.maxTimeSeconds * 1000;
}

const timeSpent = (config: RunConfig) => `the run's time of ${config.maxTimeSeconds} s (--max-time) was spent`;

/**
 * At --max-time every exchange in flight is cut and every later request refused; a check still busy without the
 * client (a wait of its own) is given DEADLINE_GRACE_MS to end, then `passed` resolves and the run settles what it has.
 */
class Deadline {
  reason?: string;
  readonly passed: Promise<void>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly config: RunConfig,
    private readonly client: HttpClient,
    started: number,
  ) {
    let onPassed = () => {};
    this.passed = new Promise<void>((resolve) => (onPassed = resolve));
    this.timer = setTimeout(
      () => {
        this.reason = timeSpent(config);
        client.stop();
        setTimeout(onPassed, DEADLINE_GRACE_MS).unref();
      },
      deadlineOf(config, started) - Date.now(),
    );
    this.timer.unref();
  }

  /** Why the run stopped, if it did: the deadline may have been met by an exchange before the timer's turn. */
  clear(): string | undefined {
    clearTimeout(this.timer);
    if (this.client.stopReason) this.reason ??= timeSpent(this.config);
    return this.reason;
  }
}

/** Runs one active check to its end; every way it can stop becomes part of its result. */
async function runCheck(run: RunLifecycle, check: Check, budget: { spent?: string }): Promise<void> {
  const { config, selection } = run.state;
  const result = run.result(check);
  const ctx = run.context(check);
  if (budget.spent) {
    result.skippedReason = `${budget.spent} before this check`;
    return;
  }
  const missing = unmetNeed(check, selection);
  if (missing) {
    result.skippedReason = missing;
    return;
  }
  try {
    await check.run?.(ctx);
  } catch (error) {
    if (error instanceof CheckSkipped) result.skippedReason = error.message;
    else if (error instanceof OperationNotSelected)
      result.skippedReason = `${error.message} (--operations, --tags, --skip-tags)`;
    else if (error instanceof BudgetExhausted) {
      budget.spent =
        error instanceof TimeBudgetSpent
          ? `not judged: ${timeSpent(config)}`
          : `request budget of ${config.maxRequests} (--max-requests) spent`;
      result.skippedReason = `${budget.spent} during this check`;
      result.notes.push(result.skippedReason);
    } else if (error instanceof CheckFailure) ctx.report(error.input);
    else
      ctx.report({
        title: 'Check raised an error',
        expected: 'the check to run to its end',
        received: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
  }
}

/** One active check from its start event to its end (a hook's end waits for the whole run's traffic). */
async function runOne(run: RunLifecycle, check: Check, budget: { spent?: string }): Promise<void> {
  const { config, client, selection } = run.state;
  const result = run.result(check);
  await run.begin(check);
  const checkStarted = Date.now();
  if (selection.checkInShard(check.id)) await runCheck(run, check, budget);
  else if (config.shard) result.skippedReason = `in another shard than ${config.shard.index}/${config.shard.count}`;
  if (!check.onExchange) result.requests = client.exchanges.filter((exchange) => exchange.checkId === check.id).length;
  result.durationMs = Date.now() - checkStarted;
  if (!check.onExchange) await run.end(check);
}

/** Runs the active checks phase by phase; returns when all ended. `unfinished` holds those that did not (yet). */
async function schedule(run: RunLifecycle, active: Check[], unfinished: Set<Check>): Promise<void> {
  const budget: { spent?: string } = {};
  const one = async (check: Check) => {
    await runOne(run, check, budget);
    unfinished.delete(check);
  };
  for (const phase of phases(active)) {
    // One worker keeps the registry's order exactly; more run the phase's checks on the pool.
    if (run.state.config.workers === 1) for (const check of phase) await run.state.pool.run(() => one(check));
    else await Promise.all(phase.map((check) => run.state.pool.run(() => one(check))));
  }
}

function clientOf(config: RunConfig, started: number): HttpClient {
  return new HttpClient({
    baseUrl: config.target,
    tokenA: config.tokenA,
    tokenB: config.tokenB,
    maxRequests: config.maxRequests,
    timeoutMs: config.timeoutMs,
    maxWaitMs: config.maxWaitMs,
    maxResponseBytes: config.maxResponseBytes,
    deadline: deadlineOf(config, started),
    maxTimeSeconds: config.maxTimeSeconds,
  });
}

/** The first request; a target that does not answer it before --max-time is a configuration error. */
async function preflightOrRefuse(run: RunLifecycle): Promise<void> {
  const { config, client, selection } = run.state;
  await preflight(client, selection.operations).catch((error: unknown) => {
    throw error instanceof TimeBudgetSpent
      ? new ConfigError(
          `target ${config.target} did not answer the first request within --max-time ${config.maxTimeSeconds} s`,
        )
      : error;
  });
}

/** After the scheduled checks: those the deadline left unfinished, `finish`, and the hooks, each given its verdict. */
async function settleChecks(run: RunLifecycle, unfinished: Set<Check>, stopped: string | undefined): Promise<void> {
  for (const check of unfinished) {
    run.result(check).skippedReason ??= `not judged: ${stopped ?? 'the run stopped'} before this check ended`;
    if (!check.onExchange) await run.end(check);
  }
  await run.finish();
  for (const check of run.checks.filter((c) => c.onExchange)) {
    if (!check.run) await run.begin(check);
    await run.end(check);
  }
  // A check with neither part is settled (skipped: it judged nothing) without events of its own.
  for (const check of run.checks) if (!check.run && !check.onExchange) run.settle(check);
}

export async function runConformance(config: RunConfig, options: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  const contract = options.contract ?? (await loadContract(config.specPath));
  checkBasePath(config.target, contract);
  const selection = new Selection(contract, config);
  const checks = selectChecks(options.checks, config);
  const replay = parseReplayPath(config.path);
  const client = clientOf(config, started);
  const pool = new WorkerPool(config.workers);
  const run = new RunLifecycle({
    config,
    contract,
    client,
    selection,
    pool,
    replay,
    checks,
    startedAt: started,
    reporters: options.reporters ?? [],
  });
  const deadline = new Deadline(config, client, started);
  const shard = config.shard && `${config.shard.index}/${config.shard.count}`;
  await run.start({
    target: config.target,
    specPath: config.specPath,
    contract,
    operations: selection.restricted ? selection.operations.map((op) => op.operationId) : undefined,
    shard,
    workers: config.workers,
  });
  // Reports see every exchange, the preflight's included; hooks judge the checks' traffic.
  client.onExchange((exchange: Exchange) => void run.emit({ type: 'exchange', exchange }));
  await preflightOrRefuse(run);
  const hooks = checks.filter((check) => check.onExchange);
  client.onExchange((exchange: Exchange) => {
    executionLog.getStore()?.push(exchange);
    run.observe(exchange, hooks, 'throw');
  });

  const active = checks.filter((check) => check.run);
  selection.deal(active.filter((check) => !check.splits).map((check) => check.id));
  const unfinished = new Set(active);
  await Promise.race([schedule(run, active, unfinished), deadline.passed]);
  const stopped = deadline.clear();
  await settleChecks(run, unfinished, stopped);
  client.close();
  if (replay && !run.state.replayReached && !stopped)
    throw new ConfigError(
      `--path names the property "${replay.property}", which no selected check ran (is --only the check printed with it?)`,
    );
  const summary = run.summary(
    { target: config.target, requests: client.count, stopped },
    { stopped, operations: selection.operations.map((op) => op.operationId), shard, workers: config.workers },
  );
  return run.close(summary);
}
