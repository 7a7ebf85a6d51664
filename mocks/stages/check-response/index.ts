import type { ObservedResponse } from '../../../spec/lib';
import type { Stage } from '../../context';

/** One line per violation (see Contract.validateResponse and formatViolation). */
export type ResponseValidator = (observed: ObservedResponse) => string[];

/**
 * Development aid (x-rules response-conformance): checks each finished response against the spec and reports
 * violations, without changing the answer. On with MOCK_CHECK_RESPONSES=1 or the `onContractViolation` option.
 */
export function checkResponse(deps: { validate: ResponseValidator; report: (violations: string[]) => void }): Stage {
  return async (ctx, next) => {
    const response = await next();
    // CORS preflights belong to the browser's protocol, not to the contract.
    if (ctx.req.method === 'OPTIONS' && ctx.req.headers['access-control-request-method']) return response;
    const body = response.body === undefined ? undefined : JSON.parse(JSON.stringify(response.body));
    const violations = deps.validate({
      method: ctx.req.method === 'HEAD' ? 'GET' : ctx.req.method,
      path: ctx.req.path,
      status: response.status,
      headers: response.headers,
      body,
    });
    if (violations.length > 0) deps.report(violations);
    return response;
  };
}
