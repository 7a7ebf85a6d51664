/**
 * x-rules auth-required-401 — "Every request is authenticated. … A request without a valid credential gets 401. The
 * 401 response still carries the rate-limit headers." Every kind of route gets every wrong form of credential:
 * each declared operation the valid token under another scheme (Token, Basic as user or password, bare, with a
 * word after it) and an empty header; and, with every wrong form (none, the scheme alone, those, the token in the
 * query string), a record the suite created that exists (authentication before lookup), a keyed write it made
 * (before replay) and routes no operation declares (before routing). Proved by
 * fixtures/broken/last-word-of-authorization-accepted.ts, existing-run-readable-without-credential.ts,
 * replay-served-before-auth.ts and undeclared-route-answers-without-auth.ts.
 */
import { CreateCommand } from '../model/commands/create';
import {
  credentialFindings,
  routeTarget,
  routeWords,
  SCHEME_FORMS,
  WRONG_FORMS,
  type Form,
  type RouteKind,
} from '../model/commands/credentials';
import { learnFacts, newReal, send } from '../model/real';
import type { WorldModel } from '../model/world';
import { defineCheck } from './registry';

export const everyRouteRefusesAWrongCredential = defineCheck({
  id: 'every-route-refuses-a-wrong-credential',
  ruleId: 'auth-required-401',
  title:
    'Every route — declared, a record that exists, a keyed write, undeclared — answers every wrong form of credential with 401.',
  fixture: 'last-word-of-authorization-accepted',
  covers: ['auth-required-401: Authorization: another scheme', 'auth-required-401: no credential'],
  inputs: { operations: 'all', reads: { parts: ['operation', 'security'], responses: ['401'] } },
  async run(ctx) {
    const facts = await ctx.shared('model-facts', () => learnFacts(ctx));
    const real = newReal(ctx, facts, new Set());
    const model: WorldModel = { records: [], failedKeys: [], allowance: Number.POSITIVE_INFINITY, phase: {} };
    for (const [index] of real.roles.creates.entries())
      await new CreateCommand(index, 'a', true, 1, false).run(model, real);
    const routes: Array<[RouteKind, number, Form[]]> = [
      ...real.roles.all.map((_op, i): [RouteKind, number, Form[]] => ['declared', i, SCHEME_FORMS]),
      ...model.records.flatMap((_r, i): Array<[RouteKind, number, Form[]]> => [
        ['existing', i, WRONG_FORMS],
        ['replay', i, WRONG_FORMS],
      ]),
      ['undeclared', 0, WRONG_FORMS],
      ['undeclared', 1, WRONG_FORMS],
    ];
    const seen = new Set<string>();
    let sent = 0;
    for (const [route, index, forms] of routes) {
      const request = routeTarget(route, index, model.records, real);
      if (!request || seen.has(JSON.stringify(request))) continue;
      seen.add(JSON.stringify(request));
      for (const form of forms) {
        const exchange = await send(model, real, { ...request, auth: form.auth(ctx.config.tokenA), query: form.query });
        sent++;
        for (const finding of credentialFindings(
          exchange,
          `${routeWords(route, request.operationId)} with ${form.name}`,
        ))
          ctx.report(finding);
      }
    }
    ctx.note(`${seen.size} routes, ${sent} requests without a valid credential`);
  },
});
