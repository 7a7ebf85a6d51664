/**
 * x-rules: ratelimit-429-retry-after — Past the limit the server answers 429 in the error shape with `Retry-After`
 * in integer seconds (`retryAfter` in the body, given "for example", only warns when absent); after waiting `Retry-After` a request succeeds again.
 * Provoking the 429 stays within --max-requests and is skipped when the limit lies beyond it.
 * Proved by fixtures/broken/too-many-requests-without-retry-after.ts.
 */
import { answerOf } from './answer';
import { CheckSkipped } from '../lib/failure';
import { describe, errorShapeProblems } from '../lib/exchange';
import { parseInteger, RATE_LIMIT } from '../lib/headers';
import type { Exchange } from '../lib/http-client';
import { propertyAssumption } from '../lib/stated';
import { RATE_LIMIT_HEADERS } from './inputs';
import { defineCheck } from './registry';

const BATCH = 8;
/** Requests kept in reserve for the wait-and-retry step and for checks after this one. */
const RESERVE = 5;

export const tooManyRequestsCarryRetryAfter = defineCheck({
  id: 'too-many-requests-carry-retry-after',
  ruleId: 'ratelimit-429-retry-after',
  title: 'A 429 carries Retry-After in integer seconds and the error shape, and a request after waiting it succeeds.',
  fixture: 'too-many-requests-without-retry-after',
  covers: [
    'ratelimit-429-retry-after: Retry-After in integer seconds on 429',
    'response-conformance: listSuppressions 429',
  ],
  inputs: { operations: 'all', reads: { parts: ['operation'], responses: ['429'], headers: RATE_LIMIT_HEADERS } },
  runsAlone: true,
  async run(ctx) {
    const probe = ctx.contract.operations.find((op) => op.method === 'GET' && !op.path.includes('{'));
    if (!probe) throw new CheckSkipped('the contract has no GET operation without parameters to spend requests on');
    const cheap = () => ctx.send({ method: 'GET', path: probe.path, operationId: probe.operationId, pace: false });
    const started = Date.now();
    const first = await cheap();
    const headers = first.response?.headers ?? {};
    const remaining = parseInteger(headers[RATE_LIMIT.remaining] ?? headers[RATE_LIMIT.legacyRemaining]);
    const limit = parseInteger(headers[RATE_LIMIT.limit] ?? headers[RATE_LIMIT.legacyLimit]) ?? remaining ?? 0;
    const left = ctx.client.remainingBudget - RESERVE;
    if (first.response?.status !== 429) {
      if (remaining === undefined)
        throw new CheckSkipped('no RateLimit-Remaining header to size the request budget by');
      const needed = remaining + 1;
      if (needed > left)
        throw new CheckSkipped(
          `the limit lies beyond the request budget: reaching 429 needs ${needed} requests (RateLimit-Remaining ${remaining}), ${left} are left of --max-requests ${ctx.config.maxRequests}`,
        );
    }
    let limited: Exchange | undefined = first.response?.status === 429 ? first : undefined;
    let sent = 1;
    // Room for the window to reset once on the way (a slow machine, a short window) without running past the budget.
    const cap = Math.min(left, Math.max((remaining ?? 0) + 1, limit + 1) * 2 + BATCH);
    while (!limited && sent < cap) {
      const size = Math.min(BATCH, cap - sent);
      const batch = await Promise.all(Array.from({ length: size }, cheap));
      sent += size;
      limited = batch.find((exchange) => exchange.response?.status === 429);
    }
    // With a sliding window or a token bucket, requests slower than limit/window never spend the quota: only a burst
    // sent within one window proves a missing 429.
    const windowSeconds = parseWindow(headers[RATE_LIMIT.policy]);
    if (!limited && windowSeconds !== undefined && Date.now() - started > windowSeconds * 1000) {
      const took = `${sent} requests took ${((Date.now() - started) / 1000).toFixed(1)} s, longer than the ${windowSeconds} s window`;
      // An inconclusive reading is not a pass: it warns, and the run lists the rule as not judged.
      ctx.report({
        severity: 'warning',
        title: 'Inconclusive: no 429 within one window',
        expected: `429 within ${cap} requests sent inside one ${windowSeconds} s window`,
        received: `no 429, but ${took}`,
        exchange: first,
      });
      ctx.unjudged?.(
        'too many requests get 429 with Retry-After',
        `a faster link to the target, or a smaller limit (${took})`,
      );
      return;
    }
    if (!limited) {
      ctx.report({
        title: 'No 429 past the limit',
        expected: `429 within ${cap} requests (RateLimit-Remaining was ${remaining})`,
        received: `${sent} requests without 429`,
        exchange: first,
      });
      return;
    }
    const res = answerOf(limited);
    const retryAfter = parseInteger(res.headers['retry-after']);
    if (res.headers['retry-after'] === undefined)
      ctx.report({
        title: '429 without Retry-After',
        expected: 'Retry-After: <integer seconds>',
        received: 'no Retry-After header',
        exchange: limited,
      });
    else if (retryAfter === undefined)
      ctx.report({
        title: 'Retry-After is not integer seconds',
        expected: 'Retry-After: <integer seconds>',
        received: `Retry-After: ${res.headers['retry-after']}`,
        exchange: limited,
      });
    const problems = errorShapeProblems(limited);
    if (problems.length > 0)
      ctx.report({
        ruleId: 'error-shape',
        title: '429 not in the error shape',
        expected: '{ errorMessage: string, retryAfter: integer, ... }',
        received: problems.join('; '),
        exchange: limited,
      });
    // retryAfter is given "for example" of the open error object: its absence or another value is a reading, not a breach.
    const forExample = propertyAssumption(ctx.contract, 'Error', 'retryAfter');
    const bodyReport = (input: { title: string; expected: string; received: string }) =>
      ctx.report(
        forExample
          ? { ...input, severity: 'warning', assumption: forExample, exchange: limited }
          : { ...input, exchange: limited },
      );
    const bodyRetryAfter = (res.body as Record<string, unknown> | undefined)?.retryAfter;
    if (bodyRetryAfter === undefined)
      bodyReport({
        title: '429 body without retryAfter',
        expected: 'retryAfter (integer seconds) in the error body',
        received: describe(limited),
      });
    else if (!Number.isInteger(bodyRetryAfter))
      bodyReport({
        title: 'retryAfter in the 429 body is not an integer',
        expected: 'an integer',
        received: JSON.stringify(bodyRetryAfter),
      });
    else if (retryAfter !== undefined && Math.abs((bodyRetryAfter as number) - retryAfter) > 1)
      ctx.report({
        severity: 'warning',
        title: 'retryAfter in the body differs from Retry-After',
        expected: String(retryAfter),
        received: String(bodyRetryAfter),
        assumption: forExample,
        exchange: limited,
      });
    const waitSeconds = retryAfter ?? 1;
    if (waitSeconds * 1000 > ctx.config.maxWaitMs) {
      ctx.note(`Retry-After ${waitSeconds} s is beyond --max-wait; the request after the wait was not tried`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000 + 100));
    const after = await cheap();
    if (after.response?.status === 429)
      ctx.report({
        title: 'Still 429 after waiting Retry-After',
        expected: `a non-429 answer after ${waitSeconds} s`,
        received: describe(after),
        exchange: after,
      });
    ctx.note(`429 reached after ${sent} requests; retried after ${waitSeconds} s`);
  },
});

/** The window of `RateLimit-Policy: <limit>;w=<seconds>`, if it says one. */
function parseWindow(policy: string | undefined): number | undefined {
  const match = /;\s*w=(\d+)/.exec(policy ?? '');
  return match ? Number(match[1]) : undefined;
}
