import type { LintRule } from '../types';
import { asObject, findHeader, RATE_LIMIT_HEADER_NAMES } from '../../../../spec/lib';

export const ratelimitHeaders: LintRule = {
  id: 'ratelimit-headers-on-every-response',
  contractRule: 'ratelimit-headers-every-response',
  description: 'Every response of every operation, errors included, declares the eight rate-limit headers.',
  check(ctx) {
    for (const op of ctx.operations) {
      for (const [status, response] of Object.entries(asObject(op.node.responses))) {
        const missing = RATE_LIMIT_HEADER_NAMES.filter((name) => !findHeader(asObject(response).headers, name));
        if (missing.length === 0) continue;
        ctx.report(
          op,
          ['responses', status],
          `response ${status} lacks ${missing.join(', ')}: add them under ` +
            `headers (e.g. ${missing[0]}: { $ref: '#/components/headers/${missing[0]}' })`,
        );
      }
    }
  },
};
