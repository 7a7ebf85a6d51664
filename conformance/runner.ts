/**
 * The engine: loads the contract, checks the target is reachable, runs the selected checks in order
 * with one shared HTTP client, feeds every exchange to the hook checks, and emits events to reporters.
 */
import fc from 'fast-check';
import { ConfigError, type RunConfig } from './config';
import type { Check, CheckContext } from './checks/registry';
import { CheckFailure, CheckSkipped, toFailure, type Failure, type FailureInput } from './lib/failure';
import { BudgetExhausted, HttpClient } from './lib/http-client';
import { loadContract, type Contract } from './lib/spec';

export type CheckStatus = 'passed' | 'failed' | 'warned' | 'skipped';

export type CheckResult = {
  id: string;
  ruleId: string;
  title: string;
  fixture: string;
  status: CheckStatus;
  failures: Failure[];
  warnings: Failure[];
  notes: string[];
  skippedReason?: string;
  /** Requests the check sent (active checks) or responses it inspected (hooks). */
  requests: number;
  durationMs: number;
};

export type RunSummary = {
  target: string;
  seed: number;
  results: CheckResult[];
  requests: number;
  durationMs: number;
  exitCode: 0 | 1;
};

export type RunEvent =
  | { type: 'run-start'; target: string; seed: number; checks: Check[]; specPath: string }
  | { type: 'check-start'; check: Check }
  | { type: 'check-end'; result: CheckResult }
  | { type: 'run-end'; summary: RunSummary };

export type Reporter = { onEvent(event: RunEvent): void | Promise<void> };

/** Shrink steps (each one or more requests) tried after a property first fails. */
const MAX_SHRINK_STEPS = 60;

function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash >>> 0;
}

function newResult(check: Check): CheckResult {
  return { id: check.id, ruleId: check.ruleId, title: check.title, fixture: check.fixture, status: 'passed', failures: [], warnings: [], notes: [], requests: 0, durationMs: 0 };
}

function settle(result: CheckResult): void {
  if (result.skippedReason !== undefined && result.failures.length === 0) result.status = 'skipped';
  else if (result.failures.length > 0) result.status = 'failed';
  else if (result.warnings.length > 0) result.status = 'warned';
  else result.status = 'passed';
}

/** Builds the replay command line of a property failure. */
function replayLine(config: RunConfig, checkId: string, property: string, path: string): string {
  return `npm run conformance -- --target ${config.target} --token "$CONFORMANCE_TOKEN"${config.tokenB ? ' --token-b "$CONFORMANCE_TOKEN_B"' : ''} --seed ${config.seed} --only ${checkId} --path '${property}:${path}'${config.allowWrites ? ' --allow-writes' : ''}`;
}

export type RunOptions = { checks: Check[]; reporters?: Reporter[]; contract?: Contract };

export async function runConformance(config: RunConfig, options: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  const contract = options.contract ?? (await loadContract(config.specPath));
  const client = new HttpClient({ baseUrl: config.target, tokenA: config.tokenA, tokenB: config.tokenB, maxRequests: config.maxRequests, timeoutMs: config.timeoutMs, maxWaitMs: config.maxWaitMs });
  const reporters = options.reporters ?? [];
  const emit = async (event: RunEvent) => {
    for (const reporter of reporters) await reporter.onEvent(event);
  };

  const selected = options.checks.filter((check) => (!config.only || config.only.includes(check.id)) && !config.skip?.includes(check.id));
  if (config.only) {
    const unknown = config.only.filter((id) => !options.checks.some((check) => check.id === id));
    if (unknown.length > 0) throw new ConfigError(`unknown check id(s) in --only: ${unknown.join(', ')}`);
  }

  await preflight(client, contract);

  const results = new Map<string, CheckResult>(selected.map((check) => [check.id, newResult(check)]));
  const sharedValues = new Map<string, Promise<unknown>>();
  const seen = new Map<string, Failure>();

  const contextFor = (check: Check): CheckContext => {
    const result = results.get(check.id)!;
    const record = (failure: Failure) => {
      // Warnings are about a reading of the contract, so one per title is enough; failures are kept per endpoint and status.
      const where = failure.severity === 'warning' ? '' : `|${failure.request?.method} ${failure.request?.url.split('?')[0]}|${failure.response?.status}`;
      const key = `${check.id}|${failure.severity}|${failure.ruleId}|${failure.title}${where}`;
      const earlier = seen.get(key);
      if (earlier) {
        earlier.occurrences = (earlier.occurrences ?? 1) + 1;
        return;
      }
      seen.set(key, failure);
      (failure.severity === 'failure' ? result.failures : result.warnings).push(failure);
    };
    const ctx: CheckContext = {
      config,
      contract,
      client,
      send: (sendOptions) => client.send(sendOptions),
      report: (input: FailureInput) => record(toFailure(input, check.id, check.ruleId)),
      note: (message) => result.notes.push(message),
      shared: <T>(key: string, compute: () => Promise<T>) => {
        if (!sharedValues.has(key)) sharedValues.set(key, compute());
        return sharedValues.get(key) as Promise<T>;
      },
      async property(name, arbitrary, predicate, propertyOptions) {
        const [replayName, ...replayPath] = config.path?.split(':') ?? [];
        const replaying = config.path !== undefined && replayName === name;
        if (config.path !== undefined && !replaying) return;
        let budgetSpent = false;
        let failed = false;
        let shrinkSteps = 0;
        const details = await fc.check(
          fc.asyncProperty(arbitrary, async (value) => {
            // Every shrink step costs requests: past the cap the run is interrupted and the smallest failure so far stands.
            if (failed && ++shrinkSteps > MAX_SHRINK_STEPS) throw new fc.PreconditionFailure(true);
            try {
              await predicate(value);
            } catch (error) {
              if (error instanceof BudgetExhausted) {
                budgetSpent = true;
                return;
              }
              failed = true;
              throw error;
            }
          }),
          {
            seed: (config.seed + stringHash(`${check.id}/${name}`)) | 0,
            numRuns: propertyOptions?.numRuns ?? config.runs,
            path: replaying ? replayPath.join(':') : undefined,
            examples: propertyOptions?.examples?.map((example) => [example] as [typeof example]),
          },
        );
        if (details.failed) {
          const path = details.counterexamplePath ?? '';
          const error = details.errorInstance;
          const base: FailureInput =
            error instanceof CheckFailure
              ? error.input
              : { title: `Property ${name} raised an error`, expected: 'no error', received: error instanceof Error ? error.message : String(error) };
          record(toFailure({ ...base, seed: config.seed, path: `${name}:${path}` }, check.id, check.ruleId));
          const last = result.failures[result.failures.length - 1] ?? result.warnings[result.warnings.length - 1];
          if (last && last.path === `${name}:${path}`) last.replay = replayLine(config, check.id, name, path);
        }
        if (budgetSpent) throw new BudgetExhausted(config.maxRequests);
      },
    };
    return ctx;
  };

  const contexts = new Map(selected.map((check) => [check.id, contextFor(check)]));
  const hooks = selected.filter((check) => check.onExchange);
  client.onExchange((exchange) => {
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

  await emit({ type: 'run-start', target: config.target, seed: config.seed, checks: selected, specPath: config.specPath });
  let budgetSpent = false;
  for (const check of selected.filter((c) => c.run)) {
    const result = results.get(check.id)!;
    await emit({ type: 'check-start', check });
    const checkStarted = Date.now();
    const before = client.count;
    client.currentCheck = check.id;
    if (budgetSpent) result.skippedReason = `request budget of ${config.maxRequests} (--max-requests) spent before this check`;
    else {
      try {
        await check.run!(contexts.get(check.id)!);
      } catch (error) {
        if (error instanceof CheckSkipped) result.skippedReason = error.message;
        else if (error instanceof BudgetExhausted) {
          budgetSpent = true;
          result.skippedReason = `request budget of ${config.maxRequests} (--max-requests) spent during this check`;
          result.notes.push(result.skippedReason);
        } else if (error instanceof CheckFailure) contexts.get(check.id)!.report(error.input);
        else contexts.get(check.id)!.report({ title: 'Check raised an error', expected: 'the check to run to its end', received: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
    }
    if (!check.onExchange) result.requests = client.count - before;
    result.durationMs = Date.now() - checkStarted;
    if (!check.onExchange) {
      settle(result);
      await emit({ type: 'check-end', result });
    }
  }
  client.currentCheck = '';
  for (const check of selected) await check.finish?.(contexts.get(check.id)!);
  for (const check of hooks) {
    const result = results.get(check.id)!;
    if (!check.run) await emit({ type: 'check-start', check });
    settle(result);
    await emit({ type: 'check-end', result });
  }
  for (const check of selected) if (!check.run && !check.onExchange) settle(results.get(check.id)!);

  const ordered = selected.map((check) => results.get(check.id)!);
  const summary: RunSummary = {
    target: config.target,
    seed: config.seed,
    results: ordered,
    requests: client.count,
    durationMs: Date.now() - started,
    exitCode: ordered.some((result) => result.status === 'failed') ? 1 : 0,
  };
  await emit({ type: 'run-end', summary });
  return summary;
}

/** An unreachable target or a token the target rejects is bad configuration (exit 2), not a failed check. */
async function preflight(client: HttpClient, contract: Contract): Promise<void> {
  const probe = contract.operations.find((op) => op.method === 'GET' && !op.path.includes('{')) ?? contract.operations[0];
  if (!probe) throw new ConfigError('the contract has no operations');
  const exchange = await client.send({ method: 'GET', path: probe.path, operationId: probe.operationId, pace: false });
  if (exchange.error) throw new ConfigError(`target ${client.options.baseUrl} is unreachable: ${exchange.error}`);
  if (exchange.response?.status === 401) throw new ConfigError(`target rejected --token with 401 on GET ${probe.path}`);
  if (client.options.tokenB) {
    const b = await client.send({ method: 'GET', path: probe.path, operationId: probe.operationId, auth: 'b', pace: false });
    if (b.response?.status === 401) throw new ConfigError(`target rejected --token-b with 401 on GET ${probe.path}`);
  }
}
