import type { LintRule } from '../types';
import { asObject, findHeader, formatDate, MINIMUM_SUNSET_GAP_DAYS } from '../../../../spec/lib';

const DAY_MS = 24 * 60 * 60 * 1000;

export const deprecationHeaders: LintRule = {
  id: 'deprecated-operations-declare-deprecation-and-sunset',
  contractRule: 'deprecation-sunset',
  description:
    'A deprecated operation declares Deprecation and Sunset on every response, x-sunset at least 180 days after x-deprecation; others declare neither.',
  check(ctx) {
    for (const op of ctx.operations) {
      const responses = Object.entries(asObject(op.node.responses));
      if (!op.deprecated) {
        for (const [status, response] of responses) {
          const carried = ['Deprecation', 'Sunset'].filter((h) => findHeader(asObject(response).headers, h));
          if (carried.length > 0) {
            ctx.report(
              op,
              ['responses', status, 'headers'],
              `response ${status} declares ${carried.join(' and ')} but the operation ` +
                'is not deprecated: add deprecated: true (with x-deprecation and x-sunset) or remove the headers',
            );
          }
        }
        continue;
      }
      for (const [status, response] of responses) {
        const missing = ['Deprecation', 'Sunset'].filter((h) => !findHeader(asObject(response).headers, h));
        if (missing.length > 0) {
          ctx.report(
            op,
            ['responses', status],
            `deprecated operation's response ${status} lacks ${missing.join(' and ')}: add ` +
              missing.map((h) => `${h}: { $ref: '#/components/headers/${h}' }`).join(' and ') +
              ' under headers',
          );
        }
      }
      const { deprecation, sunset } = op.retirement ?? {};
      if (!deprecation)
        ctx.report(
          op,
          ['deprecated'],
          'deprecated operation has no x-deprecation date: add x-deprecation: YYYY-MM-DD (the date Deprecation announces)',
        );
      if (!sunset)
        ctx.report(
          op,
          ['deprecated'],
          'deprecated operation has no x-sunset date: add x-sunset: YYYY-MM-DD, at least 180 days after x-deprecation',
        );
      if (deprecation && sunset && sunset.getTime() - deprecation.getTime() < MINIMUM_SUNSET_GAP_DAYS * DAY_MS) {
        ctx.report(
          op,
          ['x-sunset'],
          `x-sunset ${formatDate(sunset)} is less than ${MINIMUM_SUNSET_GAP_DAYS} days after x-deprecation ` +
            `${formatDate(deprecation)}: add time, e.g. x-sunset: ${formatDate(new Date(deprecation.getTime() + MINIMUM_SUNSET_GAP_DAYS * DAY_MS))}`,
        );
      }
    }
  },
};
