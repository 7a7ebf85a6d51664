import { listHandlers } from './lists';
import { resourceHandlers } from './resources';
import { runHandlers } from './runs';
import type { HandlerDeps, Handlers } from './types';

export type { Handler, HandlerDeps, Handlers } from './types';

/** Stateful handlers by operationId; an operation without one is answered by Prism from the spec. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return { ...listHandlers(deps), ...resourceHandlers(deps), ...runHandlers(deps) };
}
