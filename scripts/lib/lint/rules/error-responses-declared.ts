import type { LintRule } from '../types';
import { asObject, findParameter, IDEMPOTENCY_KEY_HEADER, type Operation } from '../../../../spec/lib';

// Errors: "The suppressions list names 400, 401, 404, 429 and 500. The other operations each list five or seven
// error bodies." The document's x-assumption reads the five as those and the seven as those plus 409 and 422
// (the idempotency statuses) on operations that accept Idempotency-Key.
export const NAMED_ERROR_STATUSES = ['400', '401', '404', '429', '500'] as const;
export const IDEMPOTENCY_ERROR_STATUSES = ['409', '422'] as const;

/** The shared response most operations use for a status, so the hint names the document's own component. */
function componentFor(status: string, ctx: Parameters<LintRule['check']>[0]): string | undefined {
  const responses = asObject(asObject(ctx.api.components).responses);
  const counts = new Map<string, number>();
  for (const op of ctx.operations) {
    const used = asObject(op.node.responses)[status];
    const name = Object.keys(responses).find((n) => responses[n] === used);
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function acceptsIdempotencyKey(op: Operation): boolean {
  return findParameter(op, 'header', IDEMPOTENCY_KEY_HEADER) !== undefined;
}

export const errorResponsesDeclared: LintRule = {
  id: 'operations-declare-the-named-error-responses',
  contractRule: 'error-shape',
  description:
    'Every operation declares the error responses the description names: 400, 401, 404, 429 and 500, plus 409 and 422 where it accepts Idempotency-Key.',
  check(ctx) {
    for (const op of ctx.operations) {
      const declared = asObject(op.node.responses);
      const wanted = [...NAMED_ERROR_STATUSES, ...(acceptsIdempotencyKey(op) ? IDEMPOTENCY_ERROR_STATUSES : [])];
      const missing = wanted.filter((status) => !(status in declared));
      if (missing.length === 0) continue;
      const adds = missing.map((status) => {
        const name = componentFor(status, ctx) ?? 'Error';
        return `'${status}': { $ref: '#/components/responses/${name}' }`;
      });
      ctx.report(
        op,
        ['responses'],
        `declares no ${missing.join(', ')} response${missing.length > 1 ? 's' : ''}: add ${adds.join(', ')}`,
      );
    }
  },
};
