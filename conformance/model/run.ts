/**
 * The model-based phase: random sequences of the commands derived from the contract, run against the target with
 * fast-check's `asyncModelRun`, every stated rule that applies checked after each command. A failure shrinks to a
 * shorter sequence and replays with `--seed` and `--path model:<path>@<commands>`. The phase spends a bounded
 * share of the run's request budget, split over its executions, shrinking included.
 */
import fc from 'fast-check';
import type { CheckContext } from '../checks/registry';
import { CheckSkipped } from '../lib/failure';
import { commandArbitraries } from './commands';
import { CreateCommand } from './commands/create';
import { coverageSequence } from './coverage';
import { deriveRoles } from './derive';
import { learnFacts, newReal, type Facts } from './real';
import type { WorldModel } from './world';

export const MODEL_PROPERTY = 'model';

/** The model's share of the run's budget: at most this many requests, and this many left for the checks after it. */
const MAX_SHARE = 600;
const RESERVE = 150;
const MAX_EXECUTIONS = 12;
const MAX_COMMANDS = 20;
/** The coverage sequence's part of the share: a third, at most this many requests. */
const MAX_COVERAGE = 200;

export type ModelPhaseOptions = { maxExecutions?: number; maxCommands?: number; share?: number };

export async function runModelPhase(ctx: CheckContext, options: ModelPhaseOptions = {}): Promise<void> {
  const roles = deriveRoles(ctx.contract);
  if (roles.all.length === 0) throw new CheckSkipped('the selected contract has no operation');
  const share = Math.min(options.share ?? MAX_SHARE, ctx.client.remainingBudget - RESERVE);
  if (share < 60)
    throw new CheckSkipped(
      `${ctx.client.remainingBudget} requests of --max-requests left: too few for the model phase`,
    );
  const facts: Facts = await ctx.shared('model-facts', () => learnFacts(ctx));
  // Twice --runs sequences (at least 4, at most 12): each is short, and the defects it finds need several commands.
  const executions = Math.max(4, Math.min(2 * ctx.config.runs, options.maxExecutions ?? MAX_EXECUTIONS));
  const coverage = coverageSequence(ctx.contract, roles, facts.b !== undefined);
  const coverageShare = Math.min(MAX_COVERAGE, Math.floor(share / 3));
  const perExecution = Math.floor((share - coverageShare) / (executions - 1));
  const unjudged = new Set<string>(facts.notes);
  const phase: WorldModel['phase'] = {};
  let spent = 0;
  let sequences = 0;
  await ctx.property(
    MODEL_PROPERTY,
    fc.commands(commandArbitraries(ctx.contract, roles, facts.b !== undefined), {
      maxCommands: options.maxCommands ?? MAX_COMMANDS,
      size: 'max',
      replayPath: ctx.commandsReplayPath(MODEL_PROPERTY),
    }),
    async (commands) => {
      const allowance = Math.min(commands === coverage ? coverageShare : perExecution, share - spent);
      if (allowance <= 0) return;
      sequences++;
      const model: WorldModel = { records: [], failedKeys: [], allowance, phase };
      try {
        await fc.asyncModelRun(async () => {
          const real = newReal(ctx, facts, unjudged);
          // Every sequence starts from one keyed record of each create, so replays, reuses, polls and cancels
          // always have something to act on.
          for (const [index] of roles.creates.entries())
            await new CreateCommand(index, 'a', true, 2, false).run(model, real);
          return { model, real };
        }, commands);
      } finally {
        spent += allowance - model.allowance;
      }
    },
    // The coverage sequence first (one command of each kind for each role), then the drawn ones.
    { numRuns: executions, examples: [coverage] },
  );
  ctx.note(`${sequences} command sequences, ${spent} requests (a share of at most ${share})`);
  for (const line of unjudged) ctx.note(`not judged: ${line}`);
}
