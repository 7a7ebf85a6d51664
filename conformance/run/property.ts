/**
 * A fast-check property against the target: cases are generated from the run's seed, a failing case is shrunk
 * (each step costs requests, so shrinking is capped), and the smallest failure is recorded with the requests of
 * its last execution (to reproduce it as a sequence) and the command line that replays it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { CheckFailure, type Failure, type FailureInput } from '../lib/failure';
import { BudgetExhausted, type Exchange } from '../lib/http-client';
import type { RunConfig } from '../config';
import { commandsReplayPath, replayCommand, type ReplayTarget } from './replay';
import type { CaseEvent } from './types';

/** Shrink steps (each one or more requests) tried after a property first fails. */
const MAX_SHRINK_STEPS = 60;

/** The exchanges of the property execution in progress (async-scoped, so concurrent properties stay apart). */
export const executionLog = new AsyncLocalStorage<Exchange[]>();

/** Errors that end a property at once and are rethrown to the check (budget spent, operation not selected). */
export function isRunStop(error: unknown): boolean {
  return error instanceof BudgetExhausted || (error instanceof Error && error.name === 'OperationNotSelected');
}

export function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash >>> 0;
}

export type PropertyEnv = {
  config: RunConfig;
  checkId: string;
  replay?: ReplayTarget;
  /** Marks the replayed property as reached. */
  onReplayReached(): void;
  record(input: FailureInput): Failure;
  note(message: string): void;
  onCase?(event: CaseEvent): void;
};

export async function runProperty<T>(
  env: PropertyEnv,
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options?: { numRuns?: number; examples?: T[] },
): Promise<void> {
  const replaying = env.replay !== undefined && env.replay.property === name;
  if (env.replay !== undefined && !replaying) return;
  if (replaying) env.onReplayReached();
  let stop: unknown;
  let failed = false;
  let shrinkSteps = 0;
  let index = 0;
  let lastFailing: Exchange[] = [];
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      if (stop !== undefined) return;
      // Every shrink step costs requests: past the cap the run is interrupted and the smallest failure so far stands.
      if (failed && ++shrinkSteps > MAX_SHRINK_STEPS) throw new fc.PreconditionFailure(true);
      const log: Exchange[] = [];
      const caseIndex = index++;
      try {
        await executionLog.run(log, () => predicate(value));
        env.onCase?.({
          type: 'case',
          checkId: env.checkId,
          property: name,
          index: caseIndex,
          passed: true,
          value: fc.stringify(value).slice(0, 500),
        });
      } catch (error) {
        if (isRunStop(error)) {
          stop = error;
          return;
        }
        env.onCase?.({
          type: 'case',
          checkId: env.checkId,
          property: name,
          index: caseIndex,
          passed: false,
          value: fc.stringify(value).slice(0, 500),
        });
        failed = true;
        lastFailing = log;
        throw error;
      }
    }),
    {
      seed: (env.config.seed + stringHash(`${env.checkId}/${name}`)) | 0,
      numRuns: options?.numRuns ?? env.config.runs,
      path: replaying ? env.replay?.path || undefined : undefined,
      // A replay shows the replayed case itself, not a further shrink of it.
      endOnFailure: replaying,
      examples: options?.examples?.map((example) => [example] as [typeof example]),
    },
  );
  if (details.failed) {
    const error = details.errorInstance;
    const base: FailureInput =
      error instanceof CheckFailure
        ? error.input
        : {
            title: `Property ${name} raised an error`,
            expected: 'no error',
            received: error instanceof Error ? error.message : String(error),
          };
    const target: ReplayTarget = {
      property: name,
      path: details.counterexamplePath ?? '',
      commands: commandsReplayPath(details.counterexample),
    };
    const failure = env.record({
      ...base,
      sequence: [...(base.sequence ?? []), ...lastFailing],
      seed: env.config.seed,
      path: `${name}:${target.path}`,
    });
    if (failure.path === `${name}:${target.path}`) failure.replay = replayCommand(env.config, env.checkId, target);
  } else if (replaying) env.note(`the replayed case of ${name} passed: the defect no longer reproduces`);
  if (stop !== undefined) throw stop;
}
