/**
 * x-rules: async-poll-terminal — Polling sees only statuses of the run status set; the job reaches a terminal
 * status (success, error, cancelled, skipped) within a bounded wait that honours Retry-After, and once
 * terminal it stays terminal; waitUntilFinished answers 200 with the finished run.
 * Proved by fixtures/broken/run-leaves-terminal-status.ts. In passive mode it judges every run and batch the live
 * traffic shows: once seen terminal, never seen again in another status.
 */
import { carriesJob, judgeLiveStatuses } from './live-polling';
import { reportScenario } from './polling';
import { startsOrPollsJob } from './inputs';
import { defineCheck } from './registry';

export const polledJobEndsTerminalAndStaysTerminal = defineCheck({
  id: 'polled-job-ends-terminal-and-stays-terminal',
  ruleId: 'async-poll-terminal',
  title: 'A polled run or batch shows only run statuses, ends terminal and stays terminal.',
  fixture: 'run-leaves-terminal-status',
  covers: ['async-poll-terminal: *', 'async-no-repeat-create: *'],
  inputs: { operations: startsOrPollsJob, reads: { parts: ['operation'], responses: ['2XX'] } },
  run: (ctx) => reportScenario(ctx, 'async-poll-terminal'),
  traffic: { judge: judgeLiveStatuses, covers: carriesJob },
});
