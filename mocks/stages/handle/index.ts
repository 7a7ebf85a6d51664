import type { AdmittedCtx, Ctx, Stage } from '../../context';
import type { Handlers } from '../../handlers';
import { parsePrefer, wantsDeclaredResponse, type Preferences } from '../../prefer';
import { tidyDynamicBody } from './tidy-dynamic';
import type { PrismResponder } from '../../prism';

/**
 * State first: each operation with a handler answers from the store. Prism answers when the client asks for
 * a particular declared response (`Prefer: code/example/dynamic`, Prism's vocabulary) and for operations
 * without a handler.
 */
export function handle(deps: { handlers: Handlers; prism: PrismResponder }): Stage {
  const handlers = new Map(Object.entries(deps.handlers));
  const byPrism = async (ctx: AdmittedCtx, preferences: Preferences | undefined) => {
    const response = await deps.prism.respond(ctx, preferences ?? {});
    return preferences?.dynamic ? { ...response, body: tidyDynamicBody(response.body) } : response;
  };
  // A plain stage: the handler's own answer is the stage's (an async wrapper would add a promise, and turns, per
  // request; a handler that waited for nothing answers at once).
  return (from) => {
    try {
      const ctx = admitted(from);
      const preferences = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer) : undefined;
      const operationId = ctx.route.operation.operationId;
      const handler = handlers.get(operationId);
      if (handler && !(preferences && wantsDeclaredResponse(preferences) && !stateAnswers(operationId, preferences)))
        return handler(ctx); // its answer as it is: an async handler's promise, or the response it had at once
      return byPrism(ctx, preferences);
    } catch (error) {
      return Promise.reject(error); // a plain handler's throw too
    }
  };
}

/** The success status the state answers an operation with (the others answer 200). */
const STATE_STATUS = new Map([
  ['createRun', 202],
  ['createBatch', 202],
  ['createMcpServer', 201],
  ['cancelRun', 202],
]);

/**
 * `Prefer: code=<the status the state answers>` alone is answered from state, so `code=202` on a create gives a
 * run that exists and a `Location` that resolves, not an example whose ids lead nowhere.
 */
function stateAnswers(operationId: string, p: Preferences): boolean {
  return p.example === undefined && p.dynamic !== true && p.code === (STATE_STATUS.get(operationId) ?? 200);
}

/** The stages before handle set the caller, the operation and the input; a handler relies on all three. */
function admitted(ctx: Ctx): AdmittedCtx {
  const { caller, route, input } = ctx;
  if (!caller || !route || !input) throw new Error('handle runs after require-credential, route and validate-request');
  return Object.assign(ctx, { caller, route, input });
}
