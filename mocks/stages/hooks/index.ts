import type { Stage } from '../../context';
import type { MockHooks } from '../../types';
import { renderError } from '../finish';
import { forgetJsonText } from '../../json-text';

/**
 * The caller's hooks around everything else: `beforeRequest` first on the way in (before authenticate; the body
 * is not read yet), `beforeSend` last on the way out, on the finished response, which it may replace.
 */
export function runHooks(hooks?: MockHooks): Stage {
  // Without hooks the stage passes the request on as it is (no await that waits for nothing).
  if (!hooks?.beforeRequest && !hooks?.beforeSend) return (_ctx, next) => next();
  return async (ctx, next) => {
    let response;
    try {
      await hooks?.beforeRequest?.(ctx.req);
    } catch (error) {
      return renderError(error);
    }
    response = await next();
    if (!hooks?.beforeSend) return response;
    // Hooks may edit the body in place; a shared (frozen) body is handed over as a copy.
    if (response.body && typeof response.body === 'object' && Object.isFrozen(response.body))
      response = { ...response, body: structuredClone(response.body) };
    else forgetJsonText(response.body);
    try {
      return hooks.beforeSend(ctx.req, response) ?? response;
    } catch (error) {
      return renderError(error);
    }
  };
}
