import type { operations } from '../../generators/generated/openapi';
import type { AdmittedCtx, Ctx } from '../context';
import type { Store } from '../store';
import type { MockResponse } from '../types';
import type { QueryEngine } from '../query';
import type { RunRecord } from '../store/types';

export type HandlerDeps = {
  store: Store;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  runDurationMs: number;
  basePath: string;
  queryEngine: () => Promise<QueryEngine>;
  /** How a run created by this request ends and how long it takes (Prefer: outcome/duration, control plane). */
  planRun?: (ctx: Ctx) => { durationMs: number; outcome: RunRecord['outcome'] };
};

/** Answers one operation from state; reads only the caller's workspace. */
export type Handler = (ctx: AdmittedCtx) => MockResponse | Promise<MockResponse>;
/** The contract's operation ids, from the generated types: a misspelt id in a handler table is a type error. */
export type OperationId = keyof operations;
/** Handlers by operation id; an operation without one is answered by Prism. */
export type Handlers = Partial<Record<OperationId, Handler>>;
