/**
 * x-rules: error-shape — Every 4xx and 5xx response is a JSON object with a string `errorMessage` (and a string
 * `reason` where present); the object is open. A hook on every response of the run, not only targeted tests.
 * Proved by fixtures/broken/error-without-error-message.ts.
 */
import { errorShapeProblems } from '../lib/exchange';
import { ERROR_STATUSES } from './inputs';
import { defineCheck } from './registry';

export const errorResponsesUseTheErrorShape = defineCheck({
  id: 'error-responses-use-the-error-shape',
  ruleId: 'error-shape',
  title: 'Every 4xx and 5xx response is a JSON object with a string errorMessage.',
  fixture: 'error-without-error-message',
  covers: ['error-shape: *'],
  inputs: { operations: 'all', reads: { parts: ['operation'], responses: ERROR_STATUSES } },
  onExchange(exchange, ctx) {
    const status = exchange.response?.status;
    if (status === undefined || status < 400) return;
    const problems = errorShapeProblems(exchange);
    if (problems.length > 0)
      ctx.report({
        title: `Error response ${status} is not in the error shape`,
        expected: '{ errorMessage: string, reason?: string, ... } as JSON',
        received: problems.join('; '),
        exchange,
      });
  },
});
