/**
 * x-rules: response-conformance — Opt-in (`--max-response-time <ms>`): every response arrives within the bound the
 * team sets. The contract states no latency, so without the option the check is skipped; with it, each slow
 * operation is one failure counting its slow responses. A hook on every response of the run.
 * Proved by fixtures/broken/slow-responses.ts.
 */
import { CheckSkipped } from '../lib/failure';
import { defineCheck } from './registry';

export const responsesArriveWithinMaxResponseTime = defineCheck({
  id: 'responses-arrive-within-max-response-time',
  ruleId: 'response-conformance',
  title: 'Every response arrives within --max-response-time (opt-in).',
  fixture: 'slow-responses',
  inputs: { operations: 'all', reads: { parts: ['operation'] } },
  async run(ctx) {
    if (ctx.config.maxResponseTimeMs === undefined) throw new CheckSkipped('opt-in: set --max-response-time <ms>');
  },
  onExchange(exchange, ctx) {
    const bound = ctx.config.maxResponseTimeMs;
    if (bound === undefined || !exchange.response) return;
    const took = exchange.receivedAt - exchange.sentAt;
    if (took > bound)
      ctx.report({
        title: 'A response took longer than --max-response-time',
        expected: `at most ${bound} ms`,
        received: `${took} ms (${exchange.response.status})`,
        exchange,
      });
  },
});
