import type { LintRule } from '../types';
import { asObject, findHeader } from '../../spec/openapi';

export const RATE_LIMIT_HEADERS = [
  'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy',
  'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset',
];

export const ratelimitHeaders: LintRule = {
  id: 'ratelimit-headers-on-every-response',
  contractRule: 'ratelimit-headers-every-response',
  description: 'Every response of every operation, errors included, declares the eight rate-limit headers.',
  check(ctx) {
    for (const op of ctx.operations) {
      for (const [status, response] of Object.entries(asObject(op.operation.responses))) {
        const missing = RATE_LIMIT_HEADERS.filter((name) => !findHeader(asObject(response).headers, name));
        if (missing.length === 0) continue;
        ctx.report(op, ['responses', status], `response ${status} lacks ${missing.join(', ')}: add them under `
          + `headers (e.g. ${missing[0]}: { $ref: '#/components/headers/${missing[0]}' })`);
      }
    }
  },
};
