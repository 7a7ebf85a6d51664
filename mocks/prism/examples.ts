import { ApiError } from '../errors';
import type { Ctx } from '../context';
import type { Preferences } from '../prefer';
import type { MockResponse } from '../types';
import type { PrismResponder } from '.';

type JsonRecord = Record<string, unknown>;
const isObject = (value: unknown): value is JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Where Prism cannot run (the in-process engine: its modules need Node), `Prefer: code=…` and `example=…` are
 * answered from the contract's own examples, as Prism answers them: the declared response of that status (the
 * first success when only an example is named), its JSON example (the named one, else the first). What only
 * Prism can make, a body generated from the schema (`dynamic=true`) or one for a response without an example,
 * is refused in the error shape, saying the mock server answers it.
 */
export function createExampleResponder(engine: string): PrismResponder {
  const refuse = (what: string) =>
    new ApiError(
      400,
      'mock_preference_unsatisfiable',
      `Prefer: ${what}; Prism would make one, and ${engine} does not include Prism: the mock server (npm start) answers it.`,
    );
  return {
    warm: async () => undefined,
    async respond(ctx: Ctx, preferences: Preferences): Promise<MockResponse> {
      const operation = ctx.route?.operation;
      if (!operation) throw new Error('examples answer routed requests only');
      if (preferences.dynamic) throw refuse('dynamic=true asks for a body generated from the schema');
      const key =
        preferences.code !== undefined
          ? String(preferences.code)
          : Object.keys(operation.responses).find((status) => /^2\d\d$/.test(status));
      // Keys from the request (code, example) are looked up in Maps: `__proto__` is just an unknown name.
      const declared = key === undefined ? undefined : new Map(Object.entries(operation.responses)).get(key);
      if (!declared)
        throw new ApiError(
          400,
          'mock_preference_unsatisfiable',
          `Prefer: code=${preferences.code} is not a response ${operation.operationId} declares (${Object.keys(operation.responses).join(', ')}).`,
        );
      const content = isObject(declared.node.content) ? declared.node.content : {};
      const media = isObject(content['application/json']) ? content['application/json'] : undefined;
      const status = Number(key);
      if (!media) {
        if (preferences.example !== undefined)
          throw refuse(`example=${preferences.example}: response ${key} has no body`);
        return { status, headers: {}, body: undefined };
      }
      const examples = isObject(media.examples) ? media.examples : {};
      const named =
        preferences.example === undefined ? undefined : new Map(Object.entries(examples)).get(preferences.example);
      if (preferences.example !== undefined && !isObject(named))
        throw new ApiError(
          400,
          'mock_preference_unsatisfiable',
          `Prefer: example=${preferences.example} is not an example of ${operation.operationId}'s ${key} (${Object.keys(examples).join(', ') || 'none'}).`,
        );
      const first = Object.values(examples).find(isObject) as JsonRecord | undefined;
      const body = isObject(named) ? named.value : 'example' in media ? media.example : first?.value;
      if (body === undefined) throw refuse(`code=${key} has no example in the contract`);
      return { status, headers: { 'content-type': 'application/json' }, body: structuredClone(body) };
    },
  };
}
