import { listHandlers } from './lists';
import { resourceHandlers } from './resources';
import { runHandlers } from './runs';
import type { HandlerDeps, Handlers, OperationId } from './types';

export type { Handler, HandlerDeps, Handlers } from './types';

/**
 * The operations the mock answers through Prism from the contract's examples, by choice: each is named here, so an
 * operation added to the contract with neither a handler nor a place in this list fails `tsc` (below) instead of
 * silently getting Prism's made-up answers (another workspace's id read back as a record, say).
 */
export const ANSWERED_BY_PRISM = [] as const satisfies readonly OperationId[];

/**
 * The keys a table surely has. A table typed as the wide `Handlers` (every id an optional key: a spread of a
 * helper declared `: Handlers` made the runs table one) has none, so its operations show as unanswered below
 * rather than all passing as answered.
 */
type SureKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Answered =
  | SureKeys<ReturnType<typeof listHandlers>>
  | SureKeys<ReturnType<typeof resourceHandlers>>
  | SureKeys<ReturnType<typeof runHandlers>>
  | (typeof ANSWERED_BY_PRISM)[number];
/** Names, at compile time, every operation of the contract that nothing answers. */
const everyOperationAnswered: Record<Exclude<OperationId, Answered>, never> = {};
void everyOperationAnswered;

/** Stateful handlers by operationId; an operation without one is answered by Prism from the spec. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return { ...listHandlers(deps), ...resourceHandlers(deps), ...runHandlers(deps) };
}
