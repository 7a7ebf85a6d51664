/**
 * x-rules: auth-required-401 — Every operation answers a request without a credential, with a malformed one and
 * with an unknown token and with near misses of a valid token (prefix, suffix, case) with 401 in the error shape,
 * still carrying the rate-limit headers.
 * Proved by fixtures/broken/unauthorized-without-rate-limit-headers.ts and fixtures/broken/endpoint-without-auth.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, errorShapeProblems } from '../lib/exchange';
import { RATE_LIMIT_HEADERS } from '../lib/headers';
import type { SendOptions } from '../lib/http-client';
import { changesExistingState, fillPath, hasPathParameters, minimalBody } from '../lib/operations';
import type { Check } from './registry';

const CREDENTIALS: Array<{ name: string; auth: () => SendOptions['auth'] }> = [
  { name: 'no credential', auth: () => 'none' },
  {
    name: 'a malformed credential (Basic scheme)',
    auth: () => ({ authorization: 'Basic Y29uZm9ybWFuY2U6bm90LWEtdG9rZW4=' }),
  },
  { name: 'a malformed credential (Bearer without token)', auth: () => ({ authorization: 'Bearer' }) },
  {
    name: 'an unknown token',
    auth: () => ({ authorization: `Bearer conformance-unknown-${randomBytes(12).toString('hex')}` }),
  },
];

/**
 * Near misses of the suite's own valid token: a prefix, the token with a character more, and the token in another
 * case. A server comparing only a prefix or ignoring case accepts them. The scheme's case is not varied (RFC 9110
 * makes `bearer` the same scheme).
 */
export function nearMisses(token: string): Array<{ name: string; token: string; shell: string }> {
  const half = Math.max(1, Math.floor(token.length / 2));
  const out = [
    {
      name: 'the valid token without its last character',
      token: token.slice(0, -1),
      shell: 'Bearer ${CONFORMANCE_TOKEN%?}',
    },
    { name: 'the valid token with a character appended', token: `${token}x`, shell: 'Bearer ${CONFORMANCE_TOKEN}x' },
    {
      name: 'the first half of the valid token',
      token: token.slice(0, half),
      shell: `Bearer \${CONFORMANCE_TOKEN:0:${half}}`,
    },
  ];
  const flipped = [...token].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (flipped !== token)
    out.push({
      name: 'the valid token in another case',
      token: flipped,
      shell: 'Bearer $(printf %s "$CONFORMANCE_TOKEN" | tr a-zA-Z A-Za-z)',
    });
  return out.filter((candidate) => candidate.token.length > 0 && candidate.token !== token);
}

export const requestsWithoutValidCredentialGet401: Check = {
  id: 'requests-without-valid-credential-get-401',
  ruleId: 'auth-required-401',
  title:
    'Every operation answers a missing, malformed or unknown credential with 401 in the error shape, with rate-limit headers.',
  fixture: 'unauthorized-without-rate-limit-headers',
  async run(ctx) {
    const credentials = [
      ...CREDENTIALS,
      ...nearMisses(ctx.config.tokenA).map((miss) => ({
        name: `a near miss (${miss.name})`,
        auth: () => ({ authorization: `Bearer ${miss.token}`, shell: miss.shell }) as SendOptions['auth'],
      })),
    ];
    for (const op of ctx.contract.operations) {
      for (const credential of credentials) {
        // Ids of nothing and minimal bodies: even a server that wrongly accepts the request changes nothing that exists.
        // A write to an existing thing (the workspace) gets a body of the wrong type: nothing to apply even if auth were skipped.
        const body =
          changesExistingState(op) && !hasPathParameters(op) && !ctx.config.allowWrites ? [] : minimalBody(op);
        const exchange = await ctx.send({
          method: op.method,
          path: fillPath(op, {}),
          body,
          auth: credential.auth(),
          operationId: op.operationId,
        });
        const res = exchange.response;
        const where = `${op.operationId} with ${credential.name}`;
        if (!res || res.status !== 401) {
          ctx.report({ title: `Not 401 for ${where}`, expected: '401', received: describe(exchange), exchange });
          continue;
        }
        const problems = errorShapeProblems(exchange);
        if (problems.length > 0)
          ctx.report({
            title: `401 not in the error shape for ${where}`,
            expected: '{ errorMessage: string, ... }',
            received: problems.join('; '),
            exchange,
          });
        const missing = RATE_LIMIT_HEADERS.filter((name) => res.headers[name] === undefined);
        if (missing.length > 0)
          ctx.report({
            ruleId: 'ratelimit-headers-every-response',
            title: `401 without rate-limit headers for ${where}`,
            expected: RATE_LIMIT_HEADERS.join(', '),
            received: `missing ${missing.join(', ')}`,
            exchange,
          });
      }
    }
  },
};
