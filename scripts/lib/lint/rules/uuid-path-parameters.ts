import type { LintRule } from '../types';
import type { JsonObject } from '../../../../spec/lib';

/** The contract's UUID rule: versions 1-8 with variant 8, 9, a or b, plus the nil and max UUIDs. */
export const CONTRACT_UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

function isUuidParameter(name: string, schema: JsonObject): boolean {
  return /uuid$/i.test(name) || schema.format === 'uuid';
}

export const uuidPathParameters: LintRule = {
  id: 'uuid-path-parameters-use-contract-rule',
  contractRule: 'request-validation',
  description:
    "Every uuid path parameter validates with the contract's UUID rule (components.schemas.Uuid), not a generic uuid format.",
  check(ctx) {
    for (const op of ctx.operations) {
      for (const p of op.parameters) {
        const schema = p.schema;
        if (p.in !== 'path' || !isUuidParameter(p.name, schema)) continue;
        if (schema.pattern === CONTRACT_UUID_PATTERN && schema.type === 'string') continue;
        const why =
          schema.pattern === undefined
            ? 'has no pattern'
            : schema.pattern !== CONTRACT_UUID_PATTERN
              ? 'uses another pattern'
              : 'is not a string';
        ctx.report(
          op,
          ['parameters'],
          `path parameter ${p.name} ${why}: add schema: { $ref: '#/components/schemas/Uuid' } ` +
            '(type: string with the contract UUID pattern)',
        );
      }
    }
  },
};
