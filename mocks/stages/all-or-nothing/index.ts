import type { Ctx, Stage } from '../../context';
import { whenKnown } from '../../maybe-promise';
import { reportProblem } from '../../web/report';

/**
 * All or nothing: a request that fails applies nothing. Each write is one guarded commit in the store; a write
 * that something later in the request can still fail after (storing the idempotent answer, a wait for a run, a
 * later stage) registers here how to take it back, and a failed request takes back its writes, newest first,
 * before its Idempotency-Key is freed.
 */
export function undoOnFailure(ctx: Ctx, undo: () => Promise<unknown>): void {
  (ctx.undo ??= []).push(undo);
}

/** Takes back every write the request registered, newest first, once. An undo that fails is reported. */
export async function rollBack(ctx: Ctx): Promise<void> {
  const undos = ctx.undo;
  ctx.undo = undefined;
  for (const undo of (undos ?? []).reverse()) {
    await undo().catch((error: unknown) =>
      reportProblem(`mock: could not take back a write of a failed request: ${(error as Error)?.message}`),
    );
  }
}

/** The stage: a thrown error or an error answer (4xx, 5xx) takes back what the request wrote. */
export function allOrNothing(): Stage {
  // Taken when known rather than awaited: a request that wrote nothing waits for nothing, and an answer known at once
  // goes on at once (the hot path).
  return (ctx, next) =>
    whenKnown(
      next(),
      (response) => (response.status >= 400 && ctx.undo ? rollBack(ctx).then(() => response) : response),
      (error: unknown) => (ctx.undo ? rollBack(ctx).then(() => Promise.reject(error)) : Promise.reject(error)),
    );
}
