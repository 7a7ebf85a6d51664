/**
 * x-rules: error-shape — A method the contract does not declare on a known path is refused with a 4xx in the error
 * shape. 405 with an Allow header naming the declared methods (RFC 9110 §15.5.6) is preferred; since the description
 * names no 405, another 4xx (404, 400) is accepted with a warning. Accepting the request, a 5xx or no answer fails.
 * Without --allow-writes a method that could change something is sent only to paths with ids, filled with uuids of
 * nothing; GET is always safe. Proved by fixtures/broken/undeclared-method-served.ts.
 */
import { describe, errorShapeProblems } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';
import { fillPath, hasPathParameters } from '../lib/operations';
import { defineCheck } from './registry';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Undeclared methods tried per path. */
const PER_PATH = 2;

export const undeclaredMethodsAreRefused = defineCheck({
  id: 'undeclared-methods-are-refused',
  ruleId: 'error-shape',
  title:
    'A method the contract does not declare on a path is refused with a 4xx in the error shape (405 with Allow preferred).',
  fixture: 'undeclared-method-served',
  inputs: { operations: 'all', reads: { parts: ['operation'] } },
  async run(ctx) {
    const byPath = new Map<string, typeof ctx.contract.operations>();
    for (const op of ctx.contract.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
    // One defect (routing by path alone) shows on every path: it is reported once, with the paths it was seen on.
    const served: Array<{ where: string; exchange: Exchange }> = [];
    for (const [template, ops] of byPath) {
      const declared = ops.map((op) => op.method);
      const path = fillPath(ops[0], {});
      const safe = (method: string) => method === 'GET' || hasPathParameters(ops[0]) || ctx.config.allowWrites;
      // A method another template declares for this concrete path (GET /runs/download is GET /runs/{uuid}) is no probe.
      const undeclared = METHODS.filter(
        (m) => !declared.includes(m) && safe(m) && !ctx.contract.findOperation(m, path),
      );
      for (const method of undeclared.slice(0, PER_PATH)) {
        const exchange = await ctx.send({
          method,
          path,
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        const res = exchange.response;
        if (!res || res.status < 400 || res.status >= 500) {
          served.push({ where: `${method} ${template} → ${res?.status ?? exchange.error}`, exchange });
          continue;
        }
        const problems = errorShapeProblems(exchange);
        if (problems.length > 0)
          ctx.report({
            title: `${res.status} for an undeclared method not in the error shape`,
            expected: '{ errorMessage: string, ... } as JSON',
            received: problems.join('; '),
            exchange,
          });
        if (res.status !== 405) {
          ctx.report({
            severity: 'warning',
            title: `An undeclared method got ${res.status}, not 405`,
            expected: `405 with Allow: ${declared.join(', ')} (the description names no 405, so any 4xx is accepted)`,
            received: describe(exchange),
            exchange,
          });
          continue;
        }
        const allow = (res.headers.allow ?? '')
          .split(',')
          .map((m) => m.trim().toUpperCase())
          .filter(Boolean);
        const missing = declared.filter((m) => !allow.includes(m));
        if (missing.length > 0)
          ctx.report({
            severity: 'warning',
            title: '405 without an Allow header naming the declared methods',
            expected: `Allow: ${declared.join(', ')} (RFC 9110 §15.5.6)`,
            received: res.headers.allow === undefined ? 'no Allow header' : `Allow: ${res.headers.allow}`,
            exchange,
          });
      }
    }
    if (served.length > 0)
      ctx.report({
        title: 'An undeclared method was not refused',
        expected: '405 with Allow naming the declared methods (or another 4xx) in the error shape',
        received: `${served.length} undeclared method(s) answered: ${served
          .slice(0, 5)
          .map((s) => s.where)
          .join('; ')}${served.length > 5 ? '; …' : ''}`,
        exchange: served[0].exchange,
      });
  },
});
