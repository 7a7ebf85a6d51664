/**
 * x-rules auth-required-401 — "Every request is authenticated … A request without a valid credential gets 401. The
 * 401 response still carries the rate-limit headers." Every form a credential can wrongly take (none, an empty
 * header, the scheme alone, the valid token under another scheme, in Basic, bare, with a word after it, in the
 * query string) on every kind of route: a declared operation with a body of the wrong type (authentication comes
 * before validation), a record that exists (before lookup), a keyed write the model made (before replay), and a
 * route no operation declares (before routing). A lowercase or spaced `Bearer` is the same scheme (RFC 9110) and is
 * not tried as a wrong form.
 */
import type fc from 'fast-check';
import { describe } from '../../lib/exchange';
import type { FailureInput } from '../../lib/failure';
import { RATE_LIMIT_HEADERS } from '../../lib/headers';
import { TOKEN_A_MARK, type Exchange, type SendOptions } from '../../lib/http-client';
import { fillPath } from '../../lib/operations';
import { fail, newName, send, type Real } from '../real';
import { pick, type RecordModel, type WorldModel } from '../world';
import { IDEMPOTENCY_KEY_HEADER } from '../../../spec/lib';

export type Form = { name: string; auth: (token: string) => SendOptions['auth']; query?: Array<[string, string]> };

/** The forms the per-operation auth check does not already send (the model tries them everywhere). */
export const SCHEME_FORMS: Form[] = [
  { name: 'an empty Authorization header', auth: () => ({ authorization: '' }) },
  {
    name: 'the valid token under the Token scheme',
    auth: (t) => ({ authorization: `Token ${t}`, shell: 'Token ${CONFORMANCE_TOKEN}' }),
  },
  {
    name: 'the valid token as Basic user name',
    auth: (t) => ({
      authorization: `Basic ${Buffer.from(`${t}:`).toString('base64')}`,
      shell: 'Basic $(printf %s: "$CONFORMANCE_TOKEN" | base64)',
    }),
  },
  {
    name: 'the valid token as Basic password',
    auth: (t) => ({
      authorization: `Basic ${Buffer.from(`:${t}`).toString('base64')}`,
      shell: 'Basic $(printf :%s "$CONFORMANCE_TOKEN" | base64)',
    }),
  },
  { name: 'the valid token without a scheme', auth: (t) => ({ authorization: t, shell: '${CONFORMANCE_TOKEN}' }) },
  {
    name: 'the valid token followed by another word',
    auth: (t) => ({ authorization: `Bearer ${t} extra`, shell: 'Bearer ${CONFORMANCE_TOKEN} extra' }),
  },
];

export const WRONG_FORMS: Form[] = [
  { name: 'no credential', auth: () => 'none' },
  { name: 'the Bearer scheme without a token', auth: () => ({ authorization: 'Bearer ' }) },
  ...SCHEME_FORMS,
  {
    name: 'the valid token in the query string (?access_token=)',
    auth: () => 'none',
    query: [['access_token', TOKEN_A_MARK]],
  },
];

export const ROUTE_KINDS = ['declared', 'existing', 'replay', 'undeclared'] as const;

export type RouteKind = (typeof ROUTE_KINDS)[number];

/** Where a request without a valid credential went, in words. */
export function routeWords(route: RouteKind, operationId: string | undefined): string {
  if (route === 'undeclared') return 'a route no operation declares';
  if (route === 'existing') return 'a record that exists';
  if (route === 'replay') return 'a keyed write the suite made';
  return operationId ?? 'a declared operation';
}

/** The findings of one answer to a request without a valid credential: 401, with the rate-limit headers. */
export function credentialFindings(exchange: Exchange, where: string): FailureInput[] {
  const res = exchange.response;
  if (!res || res.status !== 401)
    return [
      {
        ruleId: 'auth-required-401',
        title: `Not 401 for ${where}`,
        expected: '401: every request needs a valid credential, before routing, lookup, validation or replay',
        received: describe(exchange),
        exchange,
      },
    ];
  const missing = RATE_LIMIT_HEADERS.filter((name) => res.headers[name] === undefined);
  if (missing.length === 0) return [];
  return [
    {
      ruleId: 'ratelimit-headers-every-response',
      title: `401 without rate-limit headers for ${where}`,
      expected: 'the rate-limit headers: "The 401 response still carries the rate-limit headers"',
      received: `missing ${missing.join(', ')}`,
      exchange,
    },
  ];
}

/** The request to send without a valid credential on a kind of route, or undefined when there is none yet. */
export function routeTarget(
  route: RouteKind,
  index: number,
  records: readonly RecordModel[],
  real: Real,
): Omit<SendOptions, 'auth'> | undefined {
  const mine = records.filter((r) => r.tenant === 'a');
  const op = pick(real.roles.all, index);
  if (!op) return undefined;
  if (route === 'declared') {
    return {
      method: op.method,
      path: fillPath(op, {}),
      body: op.requestBody ? [] : undefined,
      operationId: op.operationId,
    };
  }
  if (route === 'existing') {
    const record = pick(
      mine.filter((r) => real.roles.creates[r.create].reader),
      index,
    );
    const reader = record && real.roles.creates[record.create].reader;
    if (!record || !reader) return undefined;
    return { method: 'GET', path: reader.path.replace(/\{[^}]+\}/, record.uuid), operationId: reader.operationId };
  }
  if (route === 'replay') {
    const record = pick(
      mine.filter((r): r is RecordModel & { key: string } => r.key !== undefined),
      index,
    );
    if (!record) return undefined;
    const create = real.roles.creates[record.create].op;
    return {
      method: create.method,
      path: create.path,
      body: record.body,
      headers: { [IDEMPOTENCY_KEY_HEADER]: record.key },
      operationId: create.operationId,
    };
  }
  const paths = [`/${newName(real, 'route')}`, `${fillPath(op, {})}/${newName(real, 'route')}`];
  return { method: 'GET', path: paths[index % paths.length] };
}

export class CredentialCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly route: RouteKind,
    readonly index: number,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > WRONG_FORMS.length;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const request = routeTarget(this.route, this.index, model.records, real);
    if (!request) return;
    for (const form of WRONG_FORMS) {
      const exchange = await send(model, real, {
        ...request,
        auth: form.auth(real.ctx.config.tokenA),
        query: form.query,
      });
      const [finding] = credentialFindings(
        exchange,
        `${routeWords(this.route, request.operationId)} with ${form.name}`,
      );
      if (finding) fail(finding);
    }
  }

  toString(): string {
    return `credentials(${this.route},${this.index})`;
  }
}
