import type { Ctx, Stage } from '../../context';
import { whenKnown } from '../../maybe-promise';
import type { Fault } from '../../prefer';
import { renderError } from '../finish';

/**
 * Marks the answer with a network fault (`Prefer: fault=…` or a control-plane rule); the server then breaks the
 * connection that way instead of sending it (mocks/faults). The request itself is processed: the answer is lost
 * on the way back, as when a network drops it.
 */
export function injectFault(deps: { pickFault: (ctx: Ctx) => Fault | undefined }): Stage {
  return (ctx, next) => {
    const fault = deps.pickFault(ctx);
    if (!fault) return next();
    return whenKnown(
      next(),
      (response) => ({ ...response, fault }),
      (error: unknown) => ({ ...renderError(error), fault }),
    );
  };
}
