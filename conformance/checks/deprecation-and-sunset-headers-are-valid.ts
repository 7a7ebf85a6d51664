/**
 * x-rules: deprecation-sunset — Only operations the contract marks deprecated carry `Deprecation` (RFC 9745);
 * `Sunset` (an IMF-fixdate) comes only with `Deprecation` and at least 180 days after it. A hook on every response.
 * Proved by fixtures/broken/deprecation-on-live-operation.ts and fixtures/broken/sunset-without-deprecation.ts.
 */
import { inspectVersioningHeaders } from '../lib/headers';
import { defineCheck } from './registry';

export const deprecationAndSunsetHeadersAreValid = defineCheck({
  id: 'deprecation-and-sunset-headers-are-valid',
  ruleId: 'deprecation-sunset',
  title: 'Deprecation parses and marks only deprecated operations; Sunset follows it by at least 180 days.',
  fixture: 'deprecation-on-live-operation',
  covers: ['deprecation-sunset: *', 'version-in-path: *'],
  inputs: {
    operations: (op) => op.deprecated,
    reads: { parts: ['operation', 'lifecycle'], headers: ['Deprecation', 'Sunset'] },
  },
  onExchange(exchange, ctx) {
    const res = exchange.response;
    if (!res || (res.headers.deprecation === undefined && res.headers.sunset === undefined)) return;
    const op = ctx.contract.findOperation(exchange.request.method, exchange.request.path);
    for (const finding of inspectVersioningHeaders(res.headers, op?.deprecated ?? false))
      ctx.report({ ...finding, title: `${finding.title}${op ? ` (${op.operationId})` : ''}`, exchange });
  },
});
