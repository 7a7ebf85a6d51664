import { ApiError } from '../errors';
import { reportProblem } from '../web/report';
import { safeDict } from '../safety/dict';
import type { Ctx } from '../context';
import type { Preferences } from '../prefer';
import type { MockResponse } from '../types';

type PrismModule = typeof import('@stoplight/prism-http');
type PrismOperation = Awaited<ReturnType<PrismModule['getHttpOperationsFromSpec']>>[number];
type Loaded = {
  operations: Map<string, PrismOperation>;
  request: (input: unknown, ops: PrismOperation[], config: unknown) => () => Promise<PrismResult>;
};
/** What Prism's request task settles with (an fp-ts Either): its failure, or its output. */
type PrismResult = { _tag: 'Left'; left: unknown } | { _tag: 'Right'; right: { output: unknown } };

/**
 * Prism's own failures ("no such example", "code not declared", …) keep their status, in the contract's shape.
 * One without a status is Prism's negotiator refusing the example the request named (`asked`) when it is not among
 * the chosen code's: that preference cannot be met, a 400, never a 500.
 */
function toApiError(error: unknown, asked: boolean): ApiError {
  const found: { status?: unknown; detail?: unknown; message?: unknown } =
    typeof error === 'object' && error !== null ? error : {};
  const declared =
    typeof found.status === 'number' && found.status >= 400 && found.status < 600 ? found.status : undefined;
  // Prism's negotiator names its refusal by a link (`https://stoplight.io/prism/errors#NOT_FOUND: …`); any other
  // failure without a status stays the mock's own (500, reported).
  const unmet = asked && typeof found.message === 'string' && found.message.includes('#NOT_FOUND');
  const status = declared ?? (unmet ? 400 : 500);
  if (declared === undefined && !unmet)
    reportProblem(`mock: Prism failed: ${(error as Error)?.stack ?? String(error)}`);
  const reason = status >= 500 ? 'internal_error' : 'mock_preference_unsatisfiable';
  const detail = found.detail || found.message || 'Prism could not answer this request.';
  return new ApiError(status === 404 ? 400 : status, reason, `Prefer: ${detail}`);
}

/**
 * Prism answers what needs no state: `Prefer: code=…, example=…, dynamic=true` picks any declared response,
 * and operations without a stateful handler get spec-shaped answers. Loaded on first use (or `warm()`), so it
 * never delays start-up.
 */
export function createPrismResponder(document: object, options: { seed: number }) {
  let loading: Promise<Loaded> | undefined;

  const load = (): Promise<Loaded> =>
    (loading ??= (async () => {
      const prism: PrismModule = await import('@stoplight/prism-http');
      const { createLogger } = await import('@stoplight/prism-core');
      // Prism dereferences in place: it gets its own copy of the bundled document.
      const list = await prism.getHttpOperationsFromSpec(structuredClone(document));
      const operations = new Map(list.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
      const instance = prism.createInstance(
        {
          checkSecurity: false,
          validateRequest: false,
          validateResponse: false,
          errors: false,
          upstreamProxy: undefined,
          isProxy: false,
          mock: { dynamic: false },
        },
        { logger: createLogger('mock', { level: 'silent' }) },
      );
      return {
        operations,
        request: (input, ops, config) => instance.request(input as never, ops as never, config as never),
      };
    })());

  return {
    warm(): Promise<unknown> {
      return load().catch(() => undefined);
    },
    async respond(ctx: Ctx, preferences: Preferences): Promise<MockResponse> {
      const { operations, request } = await load();
      if (!ctx.route) throw new Error('Prism answers routed requests only');
      const operation = ctx.route.operation;
      const prismOperation = operations.get(`${operation.method} ${operation.path}`);
      if (!prismOperation)
        throw new ApiError(500, 'internal_error', `No mockable operation for ${operation.operationId}.`);
      const query = safeDict<string[]>();
      for (const [name, value] of ctx.req.query) (query[name] ??= []).push(value);
      const input = {
        method: operation.method.toLowerCase(),
        url: { path: ctx.req.path, query },
        headers: { ...ctx.req.headers },
        body: ctx.req.body,
      };
      const config = {
        checkSecurity: false,
        validateRequest: false,
        validateResponse: false,
        errors: false,
        upstreamProxy: undefined,
        isProxy: false,
        mock: {
          dynamic: preferences.dynamic === true,
          code: preferences.code,
          exampleKey: preferences.example,
          seed: preferences.dynamic ? String(options.seed) : undefined,
        },
      };
      const result = await request(input, [prismOperation], config)();
      // Prism's negotiator fails without a status when the named example is not among the chosen code's.
      const asked = preferences.example !== undefined;
      if (result._tag === 'Left') throw toApiError(result.left, asked);
      const output = result.right.output as { statusCode: number; headers?: Record<string, string>; body?: unknown };
      const headers = safeDict<string>();
      for (const [name, value] of Object.entries(output.headers ?? {})) headers[name.toLowerCase()] = String(value);
      // Examples point at the default server; links must lead back to this mock.
      if (headers.location) headers.location = headers.location.replace(/^https?:\/\/127\.0\.0\.1:4010/, ctx.origin);
      // Prism answers problem+json for its own errors; the contract has one error shape.
      if (output.statusCode >= 400 && (headers['content-type'] ?? '').includes('problem+json'))
        throw toApiError(output.body, asked);
      return { status: output.statusCode, headers, body: output.body };
    },
  };
}

export type PrismResponder = ReturnType<typeof createPrismResponder>;
