/**
 * x-rules: idempotency-replay — A POST retried with the same Idempotency-Key and the same request returns the
 * original status, body and headers (an async create's Location) and creates no second record; with --token-b, one workspace's keys do not affect
 * another's. Model-based (fast-check commands). Proved by fixtures/broken/replay-creates-new-record.ts.
 */
import { IDEMPOTENCY_OPERATION, runIdempotencyModel, type CommandName } from '../lib/idempotency-model';
import { deepEqual, describe } from '../lib/exchange';
import { conformanceName } from '../lib/operations';
import { declaresIdempotencyKey } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck, type CheckContext } from './registry';

/**
 * The original response is its status, body and headers: replaying an async create must give the same 202 and the
 * same Location (resolved against the request URL, RFC 3986), not a 200 or a response without it.
 */
async function replayAsyncCreate(ctx: CheckContext): Promise<void> {
  const key = conformanceName(40);
  const body = { ...(ctx.config.createRunBody as Record<string, unknown>), recordTitle: conformanceName() };
  const send = () =>
    ctx.send({ method: 'POST', path: ctx.config.createRunPath, body, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
  const first = await send();
  if (!first.response || first.response.status >= 300) {
    ctx.note(`the async create at ${ctx.config.createRunPath} answered ${describe(first)}; its replay was not tried`);
    return;
  }
  const again = await send();
  const resolved = (exchange: typeof first) => {
    const location = exchange.response?.headers.location;
    return location === undefined ? undefined : new URL(location, exchange.request.url).toString();
  };
  const problems: string[] = [];
  if (again.response?.status !== first.response.status)
    problems.push(`status ${String(again.response?.status)} instead of ${first.response.status}`);
  if (!deepEqual(again.response?.body, first.response.body)) problems.push('another body');
  if (resolved(first) !== resolved(again))
    problems.push(
      `Location ${String(again.response?.headers.location)} instead of ${String(first.response.headers.location)}`,
    );
  if (problems.length > 0)
    ctx.report({
      title: 'A replayed async create did not return the original response',
      expected: `${first.response.status} with the original body and Location ${String(first.response.headers.location)}`,
      received: `${problems.join('; ')}: ${describe(again)}`,
      exchange: again,
    });
}

export const replayedRequestReturnsOriginalResponse = defineCheck({
  id: 'replayed-request-returns-original-response',
  ruleId: 'idempotency-replay',
  title: 'A request replayed with its Idempotency-Key gets the original status and body and creates no second record.',
  fixture: 'replay-creates-new-record',
  covers: ['idempotency-replay: createMcpServer'],
  needs: [IDEMPOTENCY_OPERATION],
  inputs: {
    operations: declaresIdempotencyKey,
    reads: { parts: ['operation', 'request-body'], responses: ['2XX'], headers: [IDEMPOTENCY_KEY_HEADER] },
  },
  async run(ctx) {
    const commands: CommandName[] = ['create', 'replay'];
    if (ctx.config.tokenB) commands.push('otherWorkspace');
    else {
      ctx.note('without --token-b, keys are not tried across workspaces');
      ctx.unjudged?.(
        'an Idempotency-Key of workspace A reused by workspace B',
        'run with --token-b (a second workspace)',
      );
    }
    await runIdempotencyModel(ctx, 'replay', commands, 'replay');
    await replayAsyncCreate(ctx);
  },
});
