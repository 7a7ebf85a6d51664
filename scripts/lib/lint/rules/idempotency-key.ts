import type { LintRule } from '../types';
import {
  asObject,
  findParameter,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_WRITE_METHODS,
} from '../../../../spec/lib';

/** The contract exempts multipart uploads: they do not accept the header. */
function isMultipartOnly(requestBody: unknown): boolean {
  const types = Object.keys(asObject(asObject(requestBody).content));
  return types.length > 0 && types.every((t) => t.startsWith('multipart/'));
}

export const idempotencyKey: LintRule = {
  id: 'idempotency-key-on-writes',
  contractRule: 'idempotency-replay',
  description: 'Every POST, PUT and PATCH (multipart uploads aside) takes the optional Idempotency-Key header.',
  check(ctx) {
    for (const op of ctx.operations) {
      if (!IDEMPOTENT_WRITE_METHODS.includes(op.method) || isMultipartOnly(op.node.requestBody)) continue;
      const key = findParameter(op, 'header', IDEMPOTENCY_KEY_HEADER);
      if (!key) {
        ctx.report(
          op,
          ['parameters'],
          "takes no Idempotency-Key header: add parameters: - $ref: '#/components/parameters/IdempotencyKey'",
        );
        continue;
      }
      const maxLength = key.schema.maxLength;
      if (key.required === true || typeof maxLength !== 'number' || maxLength > IDEMPOTENCY_KEY_MAX_LENGTH) {
        ctx.report(
          op,
          ['parameters'],
          `${IDEMPOTENCY_KEY_HEADER} must be optional with at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters: ` +
            `add $ref: '#/components/parameters/IdempotencyKey' (required: false, schema: { type: string, maxLength: ${IDEMPOTENCY_KEY_MAX_LENGTH} })`,
        );
      }
    }
  },
};
