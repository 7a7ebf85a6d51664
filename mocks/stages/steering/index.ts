import type { Stage } from '../../context';
import type { Steering } from '../../control/settings-types';

/**
 * Reads the control plane's settings for the caller's workspace (the defaults for a request without one) from
 * the store, through its short cache, so every replica steers the request alike: its rate limit, faults,
 * latency, and how the runs it creates end. An unreachable store is answered 503 like any other read.
 */
export function loadSteering(deps: {
  steering: (workspaceUuid: string | undefined) => Promise<Steering>;
  /** The settings when they are known without waiting (read and cached already), if the source can tell. */
  steeringKnown?: (workspaceUuid: string | undefined) => Steering | undefined;
}): Stage {
  return (ctx, next) => {
    const caller = ctx.identity && 'caller' in ctx.identity ? ctx.identity.caller : undefined;
    // Known already (the usual case): no turn waited, no promise of this stage's own.
    const known = deps.steeringKnown?.(caller?.workspaceUuid);
    if (known !== undefined) {
      ctx.steering = known;
      return next();
    }
    return deps.steering(caller?.workspaceUuid).then((steering) => {
      ctx.steering = steering;
      return next();
    });
  };
}
