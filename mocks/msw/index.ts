/**
 * `workspace-automation-api-contract/msw`: the mock's engine in process, as MSW 2 request handlers. The same core
 * as the server (`mocks/core.ts`: every stage, the store, the runs, the rate limit, the control plane), with state
 * in memory and SQL in the calling thread, so it runs under `setupServer` (Vitest, Jest, Node scripts) and
 * `setupWorker` (the browser: Vite, Storybook). Each `createHandlers` call has its own state.
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'workspace-automation-api-contract/msw';
 * const mock = createHandlers({ baseUrl: 'http://api.test/v1', rateLimit: 5 });
 * const server = setupServer(...mock.handlers);
 * await mock.control.forceOutcome('failure');
 * ```
 */
import { http, type HttpHandler } from 'msw';
import { createMockControl } from '../control/client';
import { bundledContract } from '../contract';
import { createMockCore, type CoreOptions, type MockCore } from '../core';
import type { CoreConfig } from '../defaults';
import { createInThreadQueryEngine } from '../query/in-thread';
import type { MockHooks } from '../types';

export type HandlerSettings = Partial<Omit<CoreConfig, 'redisUrl' | 'redisPrefix' | 'host' | 'port'>> & {
  /**
   * Where the API is: its origin, or with the base path (`http://api.test/v1`). The handlers answer every mount
   * of that origin (`/v1`, downloads, `/__mock`); nothing else is intercepted.
   */
  baseUrl: string;
  /** The token the control object steers with (default: the first of `tokens`, `mock-token-a`). */
  controlToken?: string;
  /** sql.js's WASM for `executeQuery` in a browser (with Vite: `import url from 'sql.js/dist/sql-wasm.wasm?url'`). */
  sqlWasmUrl?: string;
  hooks?: MockHooks;
  /** Injected clock and sleep, so tests control time (windows, key expiry, runs) without waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Checks every response against the contract and reports violations here. */
  onContractViolation?: (violations: string[]) => void;
};

/** The paths of each mount below the origin (`/auth` has no server in process: it answers 404 saying so). */
const mountPatterns = (basePath: string) => [
  basePath,
  `${basePath}/*`,
  '/downloads/*',
  '/__mock',
  '/__mock/*',
  '/auth/*',
];

/** Where the in-process engine's messages say a missing part is. */
const ENGINE = 'the in-process engine (./msw)';

export type MockHandlers = {
  /** MSW 2 handlers: pass them to `setupServer(...)` or `setupWorker(...)`. */
  handlers: HttpHandler[];
  /** The control plane in process: the same methods as `./control`'s `createMockControl`, steering this state. */
  control: ReturnType<typeof createMockControl>;
  /** The whole mock as `fetch` is (no MSW needed): a `Request` in, its `Response` out. */
  handle(request: Request): Promise<Response>;
  /** Ready: the engine built (it is built on first use otherwise). */
  ready(): Promise<MockCore>;
  /** Stops its timers and the SQL engine. */
  close(): Promise<void>;
};

export function createHandlers(settings: HandlerSettings): MockHandlers {
  const { baseUrl, controlToken, sqlWasmUrl, ...rest } = settings;
  const origin = new URL(baseUrl).origin;
  let core: Promise<MockCore> | undefined;
  const contract = bundledContract();
  const options: CoreOptions = {
    ...rest,
    contract,
    originOf: () => origin,
    queryEngine: (engine) => createInThreadQueryEngine({ ...engine, wasmUrl: sqlWasmUrl }),
    engineName: ENGINE,
  };
  const ready = () => (core ??= createMockCore(options));
  const handle = async (request: Request) => (await ready()).handle(request);
  const token = controlToken ?? Object.keys(rest.tokens ?? { 'mock-token-a': '' })[0];
  const control = createMockControl({
    url: origin,
    token,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init)),
  });
  const handlers = mountPatterns(contract.basePath).map((pattern) =>
    http.all(`${origin}${pattern}`, ({ request }) => handle(request)),
  );
  return {
    handlers,
    control,
    handle,
    ready,
    close: async () => {
      if (core) await (await core).close();
    },
  };
}
