import type { Stage } from '../../context';

/** x-rules auth-required-401: no operation is served without a valid credential. */
export function requireCredential(): Stage {
  return async (ctx, next) => {
    if (!ctx.caller) throw ctx.authError!;
    // A body refused while reading is answered here: after counting, in the caller's own bucket.
    if (ctx.payloadError) throw ctx.payloadError;
    return next();
  };
}
