import { withRequest, type Stage } from '../../context';
import { unauthorized } from '../authenticate';

/**
 * x-rules auth-required-401: no operation is served without a valid credential. Runs after the request is
 * counted, so the 401 carries the quota of the bucket it was counted in.
 */
export function requireCredential(): Stage {
  return (ctx, next) => {
    const identity = ctx.identity;
    if (!identity) return Promise.reject(new Error('require-credential runs after authenticate'));
    if ('unidentified' in identity) return Promise.reject(unauthorized(identity.unidentified));
    ctx.caller = identity.caller;
    ctx.req = withRequest(ctx.req, { workspaceUuid: identity.caller.workspaceUuid });
    return next();
  };
}
