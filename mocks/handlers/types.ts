import type { Ctx } from '../context';
import type { Store } from '../store';
import type { MockResponse } from '../types';
import type { QueryEngine } from '../integrations';

export type HandlerDeps = {
  store: Store;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  runDurationMs: number;
  basePath: string;
  queryEngine: () => Promise<QueryEngine>;
};

/** Answers one operation from state; reads only the caller's workspace. */
export type Handler = (ctx: Ctx) => MockResponse | Promise<MockResponse>;
export type Handlers = Record<string, Handler>;
