import type { Stage } from '../../context';
import type { Steering } from '../../store/repositories/settings';

/**
 * Reads the control plane's settings for the caller's workspace (the defaults for a request without one) from
 * the store, through its short cache, so every replica steers the request alike: its rate limit, faults,
 * latency, and how the runs it creates end. An unreachable store is answered 503 like any other read.
 */
export function loadSteering(deps: { steering: (workspaceUuid: string | undefined) => Promise<Steering> }): Stage {
  return async (ctx, next) => {
    const caller = ctx.identity && 'caller' in ctx.identity ? ctx.identity.caller : undefined;
    ctx.steering = await deps.steering(caller?.workspaceUuid);
    return next();
  };
}
