import type { LintRule } from '../types';
import { asArray, asObject, isObject, type JsonObject } from '../../../../spec/lib';

const ADD = "add content: application/json: schema: { $ref: '#/components/schemas/Error' }";

/** The shared schema itself, or an allOf that extends it. */
function usesShared(schema: unknown, shared: JsonObject): boolean {
  if (schema === shared) return true;
  return isObject(schema) && asArray(schema.allOf).some((part) => usesShared(part, shared));
}

function isErrorStatus(status: string): boolean {
  return /^[45]/.test(status);
}

export const errorSchema: LintRule = {
  id: 'error-responses-use-shared-schema',
  contractRule: 'error-shape',
  description: 'Every 4xx and 5xx response is JSON in the shared Error schema.',
  check(ctx) {
    const shared = asObject(asObject(ctx.api.components).schemas).Error;
    if (!isObject(shared)) {
      ctx.report(
        undefined,
        ['components', 'schemas'],
        'the shared error schema is missing: add components.schemas.Error ' +
          '({ type: object, required: [errorMessage], properties: { errorMessage: { type: string }, reason: { type: string } } })',
      );
      return;
    }
    for (const op of ctx.operations) {
      for (const [status, response] of Object.entries(asObject(op.node.responses))) {
        if (!isErrorStatus(status)) continue;
        const content = asObject(asObject(response).content);
        const json = Object.entries(content).filter(([type]) => /^application\/(.+\+)?json/.test(type));
        if (json.length === 0) {
          ctx.report(op, ['responses', status], `response ${status} has no JSON body: ${ADD}`);
          continue;
        }
        for (const [type, media] of json) {
          if (!usesShared(asObject(media).schema, shared)) {
            ctx.report(
              op,
              ['responses', status, 'content', type, 'schema'],
              `response ${status} (${type}) does not use the shared error schema: add schema: { $ref: '#/components/schemas/Error' } in place of its own`,
            );
          }
        }
      }
    }
  },
};
