/**
 * x-rules: request-validation — Every request the suite sends is either one the server must accept or a bad request
 * it must refuse with a 4xx; a 5xx answers neither, so any 5xx fails, even a declared 500 in the error shape.
 * A hook on every response of the run. Proved by fixtures/broken/suppressions-answer-500.ts.
 */
import { describe } from '../lib/exchange';
import { defineCheck } from './registry';

export const noRequestGetsAServerError = defineCheck({
  id: 'no-request-gets-a-server-error',
  ruleId: 'request-validation',
  title: 'No request of the suite, valid or not, is answered with a 5xx server error.',
  fixture: 'suppressions-answer-500',
  inputs: { operations: 'all', reads: { parts: ['operation', 'parameter', 'request-body'] } },
  onExchange(exchange, ctx) {
    const status = exchange.response?.status;
    if (status === undefined || status < 500) return;
    ctx.report({
      title: `Server error ${status}`,
      expected: 'an answer to the request: 2xx, or a 4xx refusing it',
      received: describe(exchange),
      exchange,
    });
  },
});
