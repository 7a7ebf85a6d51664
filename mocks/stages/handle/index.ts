import type { Stage } from '../../context';
import type { Handlers } from '../../handlers';
import { parsePrefer, wantsDeclaredResponse } from '../../prefer';
import type { PrismResponder } from '../../prism';

/**
 * State first: each operation with a handler answers from the store. Prism answers when the client asks for
 * a particular declared response (`Prefer: code/example/dynamic`, Prism's vocabulary) and for operations
 * without a handler.
 */
export function handle(deps: { handlers: Handlers; prism: PrismResponder }): Stage {
  const handlers = new Map(Object.entries(deps.handlers));
  return async (ctx) => {
    const preferences = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer) : undefined;
    const handler = handlers.get(ctx.route!.operation.operationId);
    if (handler && !(preferences && wantsDeclaredResponse(preferences))) return handler(ctx);
    return deps.prism.respond(ctx, preferences ?? {});
  };
}
