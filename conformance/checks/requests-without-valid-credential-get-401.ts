/**
 * x-rules: auth-required-401 — Every operation answers a request without a credential, with a malformed one and
 * with an unknown token and with near misses of a valid token (prefix, suffix, case) with 401 in the error shape,
 * still carrying the rate-limit headers. Only the stated header is a credential: the valid token in the query
 * string (`?access_token=`, `?token=`), a cookie or another header gets 401 too. Authentication comes before
 * validation: an invalid request without a credential gets 401, not 400.
 * Proved by fixtures/broken/unauthorized-without-rate-limit-headers.ts and fixtures/broken/endpoint-without-auth.ts
 * (and the independent server's token-in-query-accepted, token-in-cookie-accepted, validation-before-auth).
 */
import { randomBytes } from 'node:crypto';
import { describe, errorShapeProblems } from '../lib/exchange';
import { RATE_LIMIT_HEADERS } from '../lib/headers';
import { TOKEN_A_MARK, type SendOptions } from '../lib/http-client';
import { changesExistingState, fillPath, hasPathParameters, minimalBody } from '../lib/operations';
import { invalidRequestsOf, shapeRequest, targetOf } from '../lib/requests';
import { statedAt } from '../lib/stated';
import type { Operation } from '../../spec/lib';
import { defineCheck } from './registry';

type Credential = {
  name: string;
  auth: () => SendOptions['auth'];
  query?: Array<[string, string]>;
  headers?: Record<string, string>;
};

/** The valid token where the description does not put a credential: each must be ignored (401). */
const OTHER_CHANNELS: Credential[] = [
  {
    name: 'the valid token in the query string (?access_token=)',
    auth: () => 'none',
    query: [['access_token', TOKEN_A_MARK]],
  },
  { name: 'the valid token in the query string (?token=)', auth: () => 'none', query: [['token', TOKEN_A_MARK]] },
  {
    name: 'the valid token in a cookie',
    auth: () => 'none',
    headers: { Cookie: `access_token=${TOKEN_A_MARK}; token=${TOKEN_A_MARK}` },
  },
  {
    name: 'the valid token in another header',
    auth: () => 'none',
    headers: { 'X-Api-Key': TOKEN_A_MARK, 'X-Access-Token': TOKEN_A_MARK },
  },
];

/** An invalid request of the operation breaking a stated rule, without a credential: 401 comes first. */
function invalidWithoutCredential(op: Operation): { body?: unknown; path: string } | undefined {
  // A stated bound first: the most common rule a framework validates before its auth middleware runs.
  const stated = invalidRequestsOf(op).filter(
    (candidate) => candidate.location !== 'path' && statedAt(op, candidate.location, candidate.path) !== undefined,
  );
  const invalid = stated.find((candidate) => /^(min|max)/.test(candidate.breaks)) ?? stated[0];
  if (!invalid) return undefined;
  const request = shapeRequest(op, invalid.request, false, false);
  return { path: targetOf(op, request), body: request.body };
}

const CREDENTIALS: Credential[] = [
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

export const requestsWithoutValidCredentialGet401 = defineCheck({
  id: 'requests-without-valid-credential-get-401',
  ruleId: 'auth-required-401',
  title:
    'Every operation answers a missing, malformed or unknown credential with 401 in the error shape, with rate-limit headers.',
  fixture: 'unauthorized-without-rate-limit-headers',
  covers: ['auth-required-401: *', 'response-conformance: * 401'],
  inputs: {
    operations: (op) => op.security.length > 0,
    reads: { parts: ['operation', 'security'], responses: ['401'] },
  },
  async run(ctx) {
    const credentials: Credential[] = [
      ...CREDENTIALS,
      ...OTHER_CHANNELS,
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
          query: credential.query,
          headers: credential.headers,
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
      const invalid = invalidWithoutCredential(op);
      if (!invalid) continue;
      const exchange = await ctx.send({ method: op.method, ...invalid, auth: 'none', operationId: op.operationId });
      if (exchange.response?.status !== 401)
        ctx.report({
          title: `Not 401 for an invalid ${op.operationId} request without a credential (validated before authenticated)`,
          expected: '401: every request needs a credential, before anything else is judged',
          received: describe(exchange),
          exchange,
        });
    }
  },
});
