/**
 * One run's lifecycle, the same for the active runner and the passive proxy: which checks run (`--only`, `--skip`),
 * each check's result and context, the events reporters receive and their order, the judging of exchanges by hooks
 * and traffic judges, the checks' `finish`, and the summary with its exit code. What differs stays with its owner:
 * the runner schedules checks and sends requests; the proxy forwards traffic and observes it.
 */
import type { Check, CheckContext, TrafficJudge } from '../checks/registry';
import { ConfigError, type RunConfig } from '../config';
import { CheckFailure } from '../lib/failure';
import { BudgetExhausted, type Exchange } from '../lib/http-client';
import { createContext, type RunState } from './context';
import { FailureGroups } from './grouping';
import { newResult, settle, type CheckResult, type Reporter, type RunEvent, type RunSummary } from './types';

/** `--only` / `--skip`: the checks a run keeps. An id no check has is a configuration error, never an empty run. */
export function selectChecks(checks: Check[], config: Pick<RunConfig, 'only' | 'skip'>): Check[] {
  for (const [flag, ids] of [
    ['--only', config.only],
    ['--skip', config.skip],
  ] as const) {
    const unknown = (ids ?? []).filter((id) => !checks.some((check) => check.id === id));
    if (unknown.length > 0) throw new ConfigError(`unknown check id(s) in ${flag}: ${unknown.join(', ')}`);
  }
  return checks.filter((check) => (!config.only || config.only.includes(check.id)) && !config.skip?.includes(check.id));
}

export type Emit = (event: RunEvent) => Promise<void>;

/** Reporters receive events in order; a slow reporter never reorders them, and none gets an event after the run's end. */
export function emitter(reporters: Reporter[]): Emit {
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

/** 1 when a check failed; else 2 when the run stopped before it judged everything; else 0. */
export function exitCodeOf(results: CheckResult[], stopped?: string): RunSummary['exitCode'] {
  return results.some((result) => result.status === 'failed') ? 1 : stopped ? 2 : 0;
}

/** What a check raised on one exchange beyond a CheckFailure: thrown on (active runs), or the check's finding. */
export type HookErrors = 'throw' | 'report';

type RunStart = Extract<RunEvent, { type: 'run-start' }>;

export type LifecycleOptions = Pick<RunState, 'config' | 'contract' | 'client' | 'selection' | 'pool' | 'replay'> & {
  /** The checks of the run, already selected (`selectChecks`), in the order they are reported. */
  checks: Check[];
  reporters: Reporter[];
  /** When the run started (epoch ms): durations count from it. */
  startedAt: number;
  /** Passive runs: each check's traffic judge sees every exchange `observe` is given. */
  traffic?: boolean;
};

export class RunLifecycle {
  readonly checks: Check[];
  readonly state: RunState;
  readonly emit: Emit;
  readonly startedAt: number;
  private readonly results = new Map<string, CheckResult>();
  private readonly contexts = new Map<string, CheckContext>();
  private readonly judges = new Map<string, TrafficJudge>();

  constructor(options: LifecycleOptions) {
    const { checks, reporters, startedAt, traffic, ...shared } = options;
    this.checks = checks;
    this.startedAt = startedAt;
    const emit = emitter(reporters);
    this.emit = emit;
    this.state = {
      ...shared,
      groups: new FailureGroups(shared.contract, shared.config.credentials, (failure) => {
        void emit({ type: 'finding', failure });
      }),
      replayReached: false,
      sharedValues: new Map(),
      onCase: (event) => void emit(event),
    };
    for (const check of checks) {
      const result = newResult(check);
      const context = createContext(this.state, check, result);
      this.results.set(check.id, result);
      this.contexts.set(check.id, context);
      const judge = traffic ? check.traffic?.judge(context) : undefined;
      if (judge) this.judges.set(check.id, judge);
    }
  }

  /** A check's result as it stands (live: the run goes on filling it). */
  result(check: Check): CheckResult {
    const result = this.results.get(check.id);
    if (!result) throw new Error(`check "${check.id}" is not part of this run`);
    return result;
  }

  context(check: Check): CheckContext {
    const context = this.contexts.get(check.id);
    if (!context) throw new Error(`check "${check.id}" is not part of this run`);
    return context;
  }

  /** Every result in the run's order of checks. */
  get ordered(): CheckResult[] {
    return this.checks.map((check) => this.result(check));
  }

  /** Tells the reporters the run began, with the run's checks. */
  start(event: Omit<RunStart, 'type' | 'checks' | 'seed'>): Promise<void> {
    const { target, ...rest } = event;
    return this.emit({ type: 'run-start', target, seed: this.state.config.seed, checks: this.checks, ...rest });
  }

  begin(check: Check): Promise<void> {
    return this.emit({ type: 'check-start', check });
  }

  /** Gives a check its verdict from what it recorded. */
  settle(check: Check): CheckResult {
    const result = this.result(check);
    settle(result);
    return result;
  }

  /** Gives a check its verdict and tells the reporters. */
  end(check: Check): Promise<void> {
    return this.emit({ type: 'check-end', result: this.settle(check) });
  }

  /**
   * Hands one exchange to the given checks' hooks (and, in a passive run, their traffic judges); each counts it. A
   * CheckFailure raised is that check's finding; anything else is thrown on or reported, as `errors` says.
   */
  observe(exchange: Exchange, checks: Check[], errors: HookErrors): void {
    for (const check of checks) {
      this.result(check).requests++;
      const context = this.context(check);
      try {
        check.onExchange?.(exchange, context);
        this.judges.get(check.id)?.see(exchange);
      } catch (error) {
        if (error instanceof CheckFailure) context.report(error.input);
        else if (errors === 'throw') throw error;
        else
          context.report({
            title: 'Check raised an error',
            expected: 'the check to judge the exchange',
            received: error instanceof Error ? error.message : String(error),
          });
      }
    }
  }

  /** Traffic judges write what they judged; then each check's `finish` runs (a spent budget ends it quietly). */
  async finish(): Promise<void> {
    for (const check of this.checks) {
      this.judges.get(check.id)?.end?.();
      try {
        await check.finish?.(this.context(check));
      } catch (error) {
        if (!(error instanceof BudgetExhausted)) throw error;
      }
    }
  }

  /** The results as they would be settled now, on copies: the live ones go on collecting (a passive run's snapshot). */
  settledCopies(): CheckResult[] {
    return this.ordered.map((result) => {
      const copy = { ...result, durationMs: Date.now() - this.startedAt };
      settle(copy);
      return copy;
    });
  }

  /**
   * The run's summary: its results, the exit code they and `stopped` give, and what the mode adds (`extra`, in the
   * order reports print it).
   */
  summary(
    run: { target: string; requests: number; stopped?: string },
    extra: Partial<RunSummary>,
    results: CheckResult[] = this.ordered,
  ): RunSummary {
    return {
      target: run.target,
      seed: this.state.config.seed,
      results,
      requests: run.requests,
      durationMs: Date.now() - this.startedAt,
      exitCode: exitCodeOf(results, run.stopped),
      ...extra,
    };
  }

  /** The report so far, written while the run goes on. */
  snapshot(summary: RunSummary): Promise<void> {
    return this.emit({ type: 'snapshot', summary });
  }

  /** The run's end: the last event any reporter gets. */
  async close(summary: RunSummary): Promise<RunSummary> {
    await this.emit({ type: 'run-end', summary });
    return summary;
  }
}
