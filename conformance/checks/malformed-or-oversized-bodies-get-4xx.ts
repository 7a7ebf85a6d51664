/**
 * x-rules: request-validation — Bodies are JSON: a malformed JSON body, a body sent as a form (a non-JSON
 * Content-Type) and an oversized body are bad requests, refused with a 4xx (400, 413 or 415 alike) in the error
 * shape, with the rate-limit headers — not the web framework's own default error page, not a 5xx, never accepted.
 * Sent to the operations that create (never to ones changing what exists, without --allow-writes); the oversized
 * body (2 MiB, past the stated 1000-character description) only to the idempotency operation.
 * Proved by fixtures/broken/malformed-json-gets-framework-500.ts.
 */
import { describe, errorShapeProblems } from '../lib/exchange';
import { RATE_LIMIT_HEADERS } from '../lib/headers';
import type { Exchange } from '../lib/http-client';
import { changesExistingState, conformanceName, fillPath, requestBodySchema } from '../lib/operations';
import { answered } from './invalid-requests-are-rejected-with-400';
import { ERROR_STATUSES, hasRequestBody } from './inputs';
import { defineCheck, type CheckContext } from './registry';

const OVERSIZED_BYTES = 2 * 1024 * 1024;

type Probe = { name: string; contentType: string; body: () => string };

const PROBES: Probe[] = [
  { name: 'a malformed JSON body', contentType: 'application/json', body: () => `{"name": "${conformanceName()}", ` },
  {
    name: 'a form body (non-JSON Content-Type)',
    contentType: 'application/x-www-form-urlencoded',
    body: () => `name=${conformanceName()}&description=form`,
  },
];

const OVERSIZED: Probe = {
  name: `an oversized body (${OVERSIZED_BYTES} bytes)`,
  contentType: 'application/json',
  body: () => JSON.stringify({ name: conformanceName(), description: 'x'.repeat(OVERSIZED_BYTES) }),
};

function judge(ctx: CheckContext, exchange: Exchange, where: string): void {
  const res = exchange.response;
  if (!res || res.status < 400 || res.status >= 500) {
    ctx.report({
      title: `${res ? answered(res.status).replace(/^./, (c) => c.toUpperCase()) : 'No answer to'} ${where}`,
      expected: '4xx (400, 413 or 415) in the error shape',
      received: describe(exchange),
      exchange,
    });
    return;
  }
  const problems = errorShapeProblems(exchange);
  if (problems.length > 0)
    ctx.report({
      ruleId: 'error-shape',
      title: `${res.status} not in the error shape for ${where}`,
      expected: '{ errorMessage: string, ... } as JSON',
      received: problems.join('; '),
      exchange,
    });
  const missing = RATE_LIMIT_HEADERS.filter((name) => res.headers[name] === undefined);
  if (missing.length > 0)
    ctx.report({
      ruleId: 'ratelimit-headers-every-response',
      title: `${res.status} without rate-limit headers for ${where}`,
      expected: RATE_LIMIT_HEADERS.join(', '),
      received: `missing ${missing.join(', ')}`,
      exchange,
    });
}

export const malformedOrOversizedBodiesGet4xx = defineCheck({
  id: 'malformed-or-oversized-bodies-get-4xx',
  ruleId: 'request-validation',
  title:
    'Malformed JSON, a non-JSON Content-Type and an oversized body get a 4xx in the error shape with the rate-limit headers.',
  fixture: 'malformed-json-gets-framework-500',
  inputs: { operations: hasRequestBody, reads: { parts: ['operation', 'request-body'], responses: ERROR_STATUSES } },
  async run(ctx) {
    const targets = ctx.contract.operations.filter(
      (op) => requestBodySchema(op) && (ctx.config.allowWrites || !changesExistingState(op)),
    );
    for (const op of targets) {
      const probes = op.operationId === 'createMcpServer' ? [...PROBES, OVERSIZED] : PROBES;
      for (const probe of probes) {
        const exchange = await ctx.send({
          method: op.method,
          path: fillPath(op, {}),
          headers: { 'Content-Type': probe.contentType },
          body: probe.body(),
          operationId: op.operationId,
        });
        judge(ctx, exchange, `${probe.name} on ${op.operationId}`);
      }
    }
  },
});
