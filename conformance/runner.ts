/**
 * The engine: loads the contract, checks the configuration against it and the target, selects operations and
 * checks, runs the checks in phases on the worker pool with one shared HTTP client, feeds every exchange to the
 * hook checks, and emits events to reporters.
 */
import { ConfigError, type RunConfig } from './config';
import type { Check, CheckContext } from './checks/registry';
import { CheckFailure, CheckSkipped } from './lib/failure';
import { BudgetExhausted, HttpClient, TimeBudgetSpent, type Exchange } from './lib/http-client';
import { loadContract, type Contract } from '../spec/lib';
import { createContext, type RunState } from './run/context';
import { FailureGroups } from './run/grouping';
import { checkBasePath, preflight } from './run/preflight';
import { executionLog } from './run/property';
import { parseReplayPath } from './run/replay';
import { phases, WorkerPool } from './run/scheduler';
import { OperationNotSelected, Selection } from './run/selection';
import { newResult, settle, type CheckResult, type Reporter, type RunEvent, type RunSummary } from './run/types';

export type { CaseEvent, CheckResult, CheckStatus, Reporter, RunEvent, RunSummary } from './run/types';

/** How long a check still busy at --max-time may take to end before the run reports without it. */
export const DEADLINE_GRACE_MS = 2000;

export type RunOptions = { checks: Check[]; reporters?: Reporter[]; contract?: Contract };

/** Reporters receive events in order; a slow reporter never reorders them, and none gets an event after the run's end. */
function emitter(reporters: Reporter[]): (event: RunEvent) => Promise<void> {
  let chain = Promise.resolve();
  let ended = false;
  return (event) => {
    // A check the deadline left running may still end after the run did: its late events go nowhere.
    if (ended) return chain;
    if (event.type === 'run-end') ended = true;
    chain = chain.then(async () => {
      for (const reporter of reporters) await reporter.onEvent(event);
    });
    return chain;
  };
}

function selectChecks(config: RunConfig, checks: Check[]): Check[] {
  for (const [flag, ids] of [
    ['--only', config.only],
    ['--skip', config.skip],
  ] as const) {
    const unknown = (ids ?? []).filter((id) => !checks.some((check) => check.id === id));
    if (unknown.length > 0) throw new ConfigError(`unknown check id(s) in ${flag}: ${unknown.join(', ')}`);
  }
  return checks.filter((check) => (!config.only || config.only.includes(check.id)) && !config.skip?.includes(check.id));
}

/** Why a check cannot run under the selection (an operation it needs is filtered out or absent), else undefined. */
export function unmetNeed(check: Check, selection: Selection): string | undefined {
  for (const id of check.needs ?? []) {
    if (!selection.full.operation(id)) return `needs ${id}, which the contract does not have`;
    if (!selection.has(id))
      return `needs ${id}, which is outside the selected operations (--operations, --tags, --skip-tags)`;
  }
  return undefined;
}

/** Runs one active check to its end; every way it can stop becomes part of its result. */
async function runCheck(
  check: Check,
  ctx: CheckContext,
  result: CheckResult,
  config: RunConfig,
  budget: { spent?: string },
  selection: Selection,
): Promise<void> {
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
    await check.run!(ctx);
  } catch (error) {
    if (error instanceof CheckSkipped) result.skippedReason = error.message;
    else if (error instanceof OperationNotSelected)
      result.skippedReason = `${error.message} (--operations, --tags, --skip-tags)`;
    else if (error instanceof BudgetExhausted) {
      budget.spent =
        error instanceof TimeBudgetSpent
          ? `not judged: the run's time of ${config.maxTimeSeconds} s (--max-time) was spent`
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

export async function runConformance(config: RunConfig, options: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  const contract = options.contract ?? (await loadContract(config.specPath));
  checkBasePath(config.target, contract);
  const selection = new Selection(contract, config);
  const selected = selectChecks(config, options.checks);
  const replay = parseReplayPath(config.path);
  const client = new HttpClient({
    baseUrl: config.target,
    tokenA: config.tokenA,
    tokenB: config.tokenB,
    maxRequests: config.maxRequests,
    timeoutMs: config.timeoutMs,
    maxWaitMs: config.maxWaitMs,
    maxResponseBytes: config.maxResponseBytes,
    deadline: (config.startedAt ?? started) + config.maxTimeSeconds * 1000,
    maxTimeSeconds: config.maxTimeSeconds,
  });
  const emit = emitter(options.reporters ?? []);
  // At --max-time every exchange in flight is cut and every later request refused; a check still busy without the
  // client (a wait of its own) is given DEADLINE_GRACE_MS to end, then the run settles what it has and reports.
  let stopped: string | undefined;
  let onStop = () => {};
  const stoppedAt = new Promise<void>((resolve) => (onStop = resolve));
  const watchdog = setTimeout(
    () => {
      stopped = `the run's time of ${config.maxTimeSeconds} s (--max-time) was spent`;
      client.stop();
      setTimeout(onStop, DEADLINE_GRACE_MS).unref();
    },
    (config.startedAt ?? started) + config.maxTimeSeconds * 1000 - Date.now(),
  );
  watchdog.unref();

  await emit({
    type: 'run-start',
    target: config.target,
    seed: config.seed,
    checks: selected,
    specPath: config.specPath,
    contract,
    operations: selection.restricted ? selection.operations.map((op) => op.operationId) : undefined,
    shard: config.shard && `${config.shard.index}/${config.shard.count}`,
    workers: config.workers,
  });
  // Reports see every exchange, the preflight's included; hooks judge the checks' traffic.
  client.onExchange((exchange: Exchange) => void emit({ type: 'exchange', exchange }));
  await preflight(client, selection.operations).catch((error: unknown) => {
    throw error instanceof TimeBudgetSpent
      ? new ConfigError(
          `target ${config.target} did not answer the first request within --max-time ${config.maxTimeSeconds} s`,
        )
      : error;
  });

  const results = new Map<string, CheckResult>(selected.map((check) => [check.id, newResult(check)]));
  const state: RunState = {
    config,
    contract,
    client,
    selection,
    groups: new FailureGroups(contract, config.credentials, (failure) => void emit({ type: 'finding', failure })),
    pool: new WorkerPool(config.workers),
    replay,
    replayReached: false,
    sharedValues: new Map(),
    onCase: (event) => void emit(event),
  };
  const contexts = new Map(selected.map((check) => [check.id, createContext(state, check, results.get(check.id)!)]));

  const hooks = selected.filter((check) => check.onExchange);
  client.onExchange((exchange: Exchange) => {
    executionLog.getStore()?.push(exchange);
    for (const hook of hooks) {
      results.get(hook.id)!.requests++;
      try {
        hook.onExchange!(exchange, contexts.get(hook.id)!);
      } catch (error) {
        if (error instanceof CheckFailure) contexts.get(hook.id)!.report(error.input);
        else throw error;
      }
    }
  });

  const active = selected.filter((check) => check.run);
  selection.deal(active.filter((check) => !check.splits).map((check) => check.id));

  const budget: { spent?: string } = {};
  const runOne = async (check: Check) => {
    const result = results.get(check.id)!;
    await emit({ type: 'check-start', check });
    const checkStarted = Date.now();
    if (selection.checkInShard(check.id))
      await runCheck(check, contexts.get(check.id)!, result, config, budget, selection);
    else result.skippedReason = `in another shard than ${config.shard!.index}/${config.shard!.count}`;
    if (!check.onExchange)
      result.requests = client.exchanges.filter((exchange) => exchange.checkId === check.id).length;
    result.durationMs = Date.now() - checkStarted;
    if (!check.onExchange) {
      settle(result);
      await emit({ type: 'check-end', result });
    }
  };
  const unfinished = new Set(active);
  const allPhases = (async () => {
    for (const phase of phases(active)) {
      // One worker keeps the registry's order exactly; more run the phase's checks on the pool.
      const one = async (check: Check) => {
        await runOne(check);
        unfinished.delete(check);
      };
      if (config.workers === 1) for (const check of phase) await state.pool.run(() => one(check));
      else await Promise.all(phase.map((check) => state.pool.run(() => one(check))));
    }
  })();
  await Promise.race([allPhases, stoppedAt]);
  clearTimeout(watchdog);
  // The deadline may have been met by an exchange before the watchdog's turn: the run stopped all the same.
  if (client.stopReason) stopped ??= `the run's time of ${config.maxTimeSeconds} s (--max-time) was spent`;
  for (const check of unfinished) {
    const result = results.get(check.id)!;
    result.skippedReason ??= `not judged: ${stopped ?? 'the run stopped'} before this check ended`;
    if (!check.onExchange) {
      settle(result);
      await emit({ type: 'check-end', result });
    }
  }

  for (const check of selected)
    try {
      await check.finish?.(contexts.get(check.id)!);
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
    }
  for (const check of hooks) {
    const result = results.get(check.id)!;
    if (!check.run) await emit({ type: 'check-start', check });
    settle(result);
    await emit({ type: 'check-end', result });
  }
  for (const check of selected) if (!check.run && !check.onExchange) settle(results.get(check.id)!);
  client.close();
  if (replay && !state.replayReached && !stopped)
    throw new ConfigError(
      `--path names the property "${replay.property}", which no selected check ran (is --only the check printed with it?)`,
    );

  const ordered = selected.map((check) => results.get(check.id)!);
  const summary: RunSummary = {
    target: config.target,
    seed: config.seed,
    results: ordered,
    requests: client.count,
    durationMs: Date.now() - started,
    exitCode: ordered.some((result) => result.status === 'failed') ? 1 : stopped ? 2 : 0,
    stopped,
    operations: selection.operations.map((op) => op.operationId),
    shard: config.shard && `${config.shard.index}/${config.shard.count}`,
    workers: config.workers,
  };
  await emit({ type: 'run-end', summary });
  return summary;
}
