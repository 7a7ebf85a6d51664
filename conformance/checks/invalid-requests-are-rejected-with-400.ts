/**
 * x-rules: request-validation — A request breaking one stated rule (limit 0 or 1001, an over-long or
 * `<`-containing name, a bad uuid, a wrong type, a query over 10000 characters, ...) is refused in the error
 * shape: 400 passes; another 4xx the operation names (404 for a malformed path id, 422, 413) is the other reading
 * of an open point (the status per failure is not shown) and warns, quoting the assumption; 2xx, 5xx and 4xx the
 * contract does not name fail. Cases come from generators/arbitraries (invalidRequests).
 * Proved by fixtures/broken/limit-1001-accepted.ts.
 */
import { describe, errorShapeProblems } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';
import { changesExistingState, hasPathParameters, unknownUuid } from '../lib/operations';
import { invalidRequestsOf, shapeRequest, targetOf } from '../lib/requests';
import type { Operation } from '../../spec/lib';
import {
  assumedAt,
  namedClientErrors,
  ruleAssumption,
  statedAt as stated,
  statedStatuses,
  STATUSES_NOT_SHOWN,
} from '../lib/stated';
import { ERROR_STATUSES, hasRequestBody } from './inputs';
import { defineCheck, type CheckContext } from './registry';

export const invalidRequestsAreRejectedWith400 = defineCheck({
  id: 'invalid-requests-are-rejected-with-400',
  ruleId: 'request-validation',
  title: 'A request breaking one stated rule gets 400 in the error shape.',
  fixture: 'limit-1001-accepted',
  covers: ['request-validation: *'],
  inputs: {
    operations: (op) => hasRequestBody(op) || op.parameters.length > 0,
    reads: { parts: ['operation', 'parameter', 'request-body'], responses: ERROR_STATUSES },
  },
  async run(ctx) {
    const skipped: string[] = [];
    let cases = 0;
    for (const op of ctx.contract.operations) {
      if (changesExistingState(op) && !hasPathParameters(op) && !ctx.config.allowWrites) {
        skipped.push(op.operationId);
        continue;
      }
      for (const invalid of invalidRequestsOf(op)) {
        const request = shapeRequest(op, invalid.request, ctx.config.allowWrites, false);
        // Only the broken spot is broken: a valid path id elsewhere is one of nothing, so nothing existing is touched.
        if (changesExistingState(op) && invalid.location !== 'path')
          for (const name of Object.keys(request.pathParams)) request.pathParams[name] = unknownUuid();
        cases++;
        const exchange = await ctx.send({
          method: op.method,
          path: targetOf(op, request),
          headers: request.headers,
          body: request.body,
          operationId: op.operationId,
        });
        const why = `breaks ${invalid.breaks} at ${invalid.path || 'the body'}`;
        const assumed = assumedAt(op, invalid.location, invalid.path);
        const status = exchange.response?.status ?? 0;
        // A parameter whose very name is assumed may be unknown to the server, which then ignores it.
        if (assumed && status >= 200 && status < 300) {
          ctx.report({
            severity: 'warning',
            title: `${op.operationId} accepted ${invalid.description}`,
            expected: `400 (${why})`,
            received: describe(exchange),
            assumption: assumed,
            exchange,
          });
          continue;
        }
        judgeRefusal(ctx, op, exchange, `${invalid.description}`, why, stated(op, invalid.location, invalid.path));
      }
    }
    ctx.note(`${cases} invalid cases sent`);
    if (skipped.length > 0) {
      ctx.note(`not sent without --allow-writes: ${skipped.join(', ')}`);
      ctx.unjudged?.(`invalid requests to ${skipped.join(', ')}`, 'run with --allow-writes (they change what exists)');
    }
  },
});

/** What an answer did with a request to refuse, for a title: a 5xx refused nothing, but it did not accept either. */
export function answered(status: number | undefined): string {
  if (status === undefined) return 'gave no answer to';
  if (status >= 200 && status < 300) return `accepted (${status})`;
  if (status >= 500) return `answered ${status}, a server error, to`;
  if (status >= 400) return `refused with ${status}, a status it does not name,`;
  return `answered ${status} to`;
}

/**
 * How an invalid request was answered: 400 in the error shape passes; another 4xx the operation names, in the error
 * shape, is another reading (a warning quoting the assumption); anything else fails.
 */
export function judgeRefusal(
  ctx: Pick<CheckContext, 'report' | 'contract'>,
  op: Operation,
  exchange: Exchange,
  what: string,
  why: string,
  statedWords?: string,
): void {
  const status = exchange.response?.status;
  const problems = status !== undefined && status >= 400 ? errorShapeProblems(exchange) : [];
  if (status !== undefined && status >= 400 && status < 500 && problems.length > 0) {
    ctx.report({
      ruleId: 'error-shape',
      title: `${status} for ${op.operationId} not in the error shape`,
      expected: '{ errorMessage: string }',
      received: problems.join('; '),
      exchange,
    });
    return;
  }
  if (status === 400) return;
  // A refusal with another 4xx is another reading where the failure statuses are not shown; where the description
  // names them (the suppressions list), one it does not name fails. 401 and 429 do not judge the request itself.
  const refusal = status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 429;
  if (refusal && (namedClientErrors(op).includes(status) || !statedStatuses(op))) {
    ctx.report({
      severity: 'warning',
      title: `${op.operationId} refused an invalid request with ${status}, not 400`,
      expected: `400 (${why})`,
      received: describe(exchange),
      assumption: namedClientErrors(op).includes(status)
        ? ruleAssumption(ctx.contract, 'request-validation')
        : STATUSES_NOT_SHOWN,
      exchange,
    });
    return;
  }
  ctx.report({
    title: `${op.operationId} ${answered(status)} ${what}`,
    // One defect (the operation validates nothing, or answers 5xx) is one failure, whichever field showed it.
    cause: `${op.operationId} ${answered(status)} an invalid request`,
    expected: `400, or another 4xx the operation names (${why})`,
    received: describe(exchange),
    stated: statedWords,
    exchange,
  });
}
