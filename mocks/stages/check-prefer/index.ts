import { ApiError } from '../../errors';
import type { Stage } from '../../context';
import { parsePrefer } from '../../prefer';

/**
 * A preference the mock knows with a value it cannot read (`Prefer: latency=abc`) is a 400 in the error shape,
 * not silently ignored: the client meant something. Unknown preferences pass (RFC 7240 §2).
 */
export function checkPrefer(): Stage {
  return (ctx, next) => {
    const header = ctx.req.headers.prefer;
    const problems = header ? parsePrefer(header).problems : undefined;
    if (problems) return Promise.reject(new ApiError(400, 'invalid_prefer', problems.join(' '), { problems }));
    return next();
  };
}
