/**
 * x-rules: idempotency-replay — A POST retried with the same Idempotency-Key and the same request returns the
 * original status and body and creates no second record; with --token-b, one workspace's keys do not affect
 * another's. Model-based (fast-check commands). Proved by fixtures/broken/replay-creates-new-record.ts.
 */
import { runIdempotencyModel, type CommandName } from '../lib/idempotency-model';
import type { Check } from './registry';

export const replayedRequestReturnsOriginalResponse: Check = {
  id: 'replayed-request-returns-original-response',
  ruleId: 'idempotency-replay',
  title: 'A request replayed with its Idempotency-Key gets the original status and body and creates no second record.',
  fixture: 'replay-creates-new-record',
  async run(ctx) {
    const commands: CommandName[] = ['create', 'replay'];
    if (ctx.config.tokenB) commands.push('otherWorkspace');
    else ctx.note('without --token-b, keys are not tried across workspaces');
    await runIdempotencyModel(ctx, 'replay', commands);
  },
};
