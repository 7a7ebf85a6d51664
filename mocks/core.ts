import type { Contract } from '../spec/lib/contract-from-document';
import { formatViolation, type ObservedResponse } from '../spec/lib/validate-response';
import { CORE_DEFAULTS, type CoreConfig } from './defaults';
import { INPUT_LIMITS } from './limits';
import { ApiError } from './errors';
import { createHandlers } from './handlers';
import type { AuthServer, AuthServerOptions } from './oauth';
import type { PipelineDeps, StageProbe } from './pipeline';
import { createControlPlane } from './control';
import { createUsageCounter } from './control/usage';
import { pickFault, planRun } from './control/steer';
import { controlCors } from './stages/cors';
import { createSettingsRepository, type Defaults } from './store/repositories/settings';
import type { PrismResponder } from './prism';
import { createExampleResponder } from './prism/examples';
import { createStore } from './store';
import { createMemoryPort } from './store/adapters/memory';
import { commitsNow, type StoragePort } from './store/port';
import { createIdempotencyStore } from './store/repositories/idempotency';
import { createInProcessIdempotencyStore } from './store/repositories/idempotency-in-process';
import { createRateLimiter } from './stages/rate-limit/limiter';
import { createFrontDoor } from './front-door';
import { createMounts } from './front-door/mounts';
import type { QueryEngine, QuerySource } from './query';
import type { MockHooks } from './types';
import { createWebHandler } from './web/handle';

/**
 * What the core needs from where it runs, each filled by an adapter (`mocks/app.ts` on Node, `msw/` in tests and
 * the browser). Absent ones answer in the contract's error shape, saying what is missing and where it exists.
 */
export type CorePorts = {
  /** The contract, built once by the adapter (from the YAML file on Node, from prebuilt data in the browser). */
  contract: Contract;
  /** Where state is kept (default: in memory, in this core). */
  storagePort?: StoragePort;
  /**
   * Prism's answers for `Prefer: code/example/dynamic` (Node only: Prism needs Node's modules); without it the
   * contract's own examples answer `code=` and `example=` (`prism/examples.ts`).
   */
  prism?: PrismResponder;
  /** The SQL engine of `executeQuery` and run exports: worker threads on Node, in the calling thread elsewhere. */
  queryEngine?: (options: { source: QuerySource; now: () => number; timeoutMs: number }) => QueryEngine;
  /** The OAuth server of `/auth` (Node only: its keys are Node's); absent, `/auth` answers 404 saying so. */
  authServer?: (setup: AuthSetup) => AuthServer;
  /** Fixtures loaded at start and after every reset (`MOCK_FIXTURES`: the adapter reads the file). */
  startFixtures?: { text: string; source: string };
  /** Where the engine is: named in the messages of what it lacks (e.g. "the in-process engine (./msw)"). */
  engineName?: string;
};

/** Where the core's OAuth server lives and what it shares with the API; its clients and users are the adapter's. */
export type AuthSetup = Pick<AuthServerOptions, 'issuer' | 'audience' | 'basePath' | 'now'> & {
  port: StoragePort;
  /** Replaces the clients' redirect URIs (MOCK_OAUTH_REDIRECT_URIS). */
  redirectUris?: string[];
};

export type CoreOptions = Partial<CoreConfig> &
  CorePorts & {
    hooks?: MockHooks;
    /** Injected clock and sleep, so tests control time (windows, key expiry, runs) without waiting. */
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
    /** Checks every response against the spec and reports violations here (MOCK_CHECK_RESPONSES=1 logs them). */
    onContractViolation?: (violations: string[]) => void;
    /** Wraps each stage of the API's pipeline as it is built (`npm run bench -- --stages`); none by default. */
    stageProbe?: StageProbe;
    /**
     * The configured public address (MOCK_PUBLIC_URL, else the listen address): Location and download links.
     * Read per request, because a server knows its port only after listen.
     */
    originOf: () => string;
  };

/** How long `Prefer: fault=hang` holds a connection by default. */
export const DEFAULT_HANG_MS = 30_000;

/**
 * The whole mock (every mount: the API, downloads, `/__mock`, `/auth`) over web standards: one front door whose
 * answers `handle(request)` gives as a `Response`, and the Node listener writes to a socket. It imports nothing
 * from Node (`mocks/web/core-imports.test.ts` walks its imports): the contract arrives built, and what only
 * Node has (Redis, worker threads, Prism, the OAuth keys, files) arrives through `CorePorts`.
 */
export async function createMockCore(options: CoreOptions) {
  const config: CoreConfig = { ...CORE_DEFAULTS, ...stripUndefined(options) };
  const { contract, originOf } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const basePath = contract.basePath;
  const engine = options.engineName ?? 'this engine';
  const port = options.storagePort ?? createMemoryPort({ now });
  const store = createStore({ port, seed: config.seed, now, limits: { runTtlMs: config.runTtlMs } });
  let queryEngine: QueryEngine | undefined;
  const prism = options.prism ?? createExampleResponder(engine);
  // What the control plane may change at run time, kept in the store; every request reads it (cached briefly).
  const settings = createSettingsRepository({
    port,
    initial: initialSettings(config),
    cacheMs: config.settingsCacheMs,
  });
  const { limiter, authLimiter } = createLimiters(port, initialSettings(config), config.rateWindowSeconds, now);
  // Created on first use: its issuer and audience need the origin, known only once the server listens.
  let authServer: AuthServer | undefined | null = null;
  const auth = () =>
    authServer === null
      ? (authServer =
          options.authServer?.({
            issuer: config.authUrl ?? `${originOf()}/auth`,
            // Behind a load balancer MOCK_AUTH_URL names the public address; the API's audience is that host too.
            audience: config.authUrl ? new URL(config.authUrl).origin : originOf(),
            basePath,
            now,
            port,
            redirectUris: config.oauthRedirectUris,
          }) ?? undefined)
      : authServer;
  // Kept as objects when the port is in this process (same rules: `idempotency-stores.test.ts`), else as texts.
  const idempotencyOptions = {
    ttlMs: config.idempotencyTtlMs,
    capPerWorkspace: config.idempotencyCapPerWorkspace,
    now,
  };
  const idempotencyStore = commitsNow(port)
    ? createInProcessIdempotencyStore({ ...idempotencyOptions, port })
    : createIdempotencyStore({ ...idempotencyOptions, port });

  const responseCheck = options.onContractViolation
    ? {
        validate: (observed: ObservedResponse) =>
          contract.validateResponse(observed).map((v) => formatViolation(observed, v)),
        report: options.onContractViolation,
      }
    : undefined;
  const usage = createUsageCounter({
    operations: contract.operations,
    terminalStatuses: contract.constants.terminalStatuses,
    now,
  });
  const api: PipelineDeps = {
    usage: usage.stage((method, path) => {
      const found = contract.route(method, path);
      return found.kind === 'match' ? found.operation.operationId : undefined;
    }),
    responseCheck,
    stageProbe: options.stageProbe,
    bodyLimits: {
      bytes: config.bodyLimitBytes,
      timeoutMs: config.bodyTimeoutMs,
      jsonDepth: INPUT_LIMITS.jsonDepth,
      jsonArrayItems: INPUT_LIMITS.jsonArrayItems,
    },
    route: contract.route,
    tokens: config.tokens,
    verifyAccessToken: async (token) => (await auth()?.verifyAccessToken(token)) ?? null,
    params: contract.schemas({ coerce: true, allErrors: true }),
    body: contract.schemas({ allErrors: true }),
    limiter,
    idempotencyStore,
    idempotencyKeyLength: {
      min: contract.constants.idempotencyKeyMinLength,
      max: contract.constants.idempotencyKeyMaxLength,
    },
    steering: settings.steering,
    steeringKnown: settings.steeringKnown,
    sleep,
    pickFault: (ctx) => pickFault(ctx),
    handlers: createHandlers({
      store,
      now,
      sleep,
      runDurationMs: config.runDurationMs,
      basePath: basePath,
      planRun: (ctx) => planRun(ctx.steering, ctx, config.runDurationMs),
      queryEngine: async () =>
        (queryEngine ??= (options.queryEngine ?? withoutQueryEngine(engine))({
          source: store.querySource(),
          now,
          timeoutMs: 2_000,
        })),
    }),
    prism,
    hooks: options.hooks,
  };

  const control = createControlPlane({
    adminToken: config.adminToken,
    store,
    settings,
    tokens: config.tokens,
    verifyAccessToken: api.verifyAccessToken,
    operationIds: contract.operations.map((op) => op.operationId),
    schemaAt: (pointer) => contract.schemas({ allErrors: true }).at(pointer),
    now,
    clearIdempotency: (workspaceUuid) => idempotencyStore.clear(workspaceUuid),
    bodyTimeoutMs: config.bodyTimeoutMs,
    usage,
    clearRateLimit: (workspaceUuid) =>
      limiter.clear(workspaceUuid === undefined ? undefined : `workspace:${workspaceUuid}`),
  });
  if (options.startFixtures) await control.loadStartFixtures(options.startFixtures.text, options.startFixtures.source);

  const frontDoor = createFrontDoor({
    ...createMounts({
      basePath,
      api,
      control,
      auth,
      authMissing: `The OAuth server is not available in ${engine}.`,
      authLimiter,
      store,
      controlCors: controlCors(config.controlOrigins),
    }),
    limiter,
    originOf,
    hangMs: (ctx) => ctx.steering?.hangMs ?? DEFAULT_HANG_MS,
  });

  return {
    config,
    contract,
    store,
    settings,
    usage: usage.report,
    frontDoor,
    /** The whole mock as `fetch` is: a `Request` in, its `Response` out (no socket, no port). */
    handle: createWebHandler(frontDoor),
    warm: () => prism.warm(),
    close: async () => {
      await queryEngine?.close();
      // A port handed in by the caller is the caller's to close.
      if (!options.storagePort) await port.close();
    },
  };
}

export type MockCore = Awaited<ReturnType<typeof createMockCore>>;

/** Without a SQL engine: `executeQuery` and run exports answer 500 in the error shape, saying so. */
function withoutQueryEngine(engine: string) {
  return (): QueryEngine => {
    const missing = async (): Promise<never> => {
      throw new ApiError(500, 'internal_error', `The SQL engine is not available in ${engine}.`);
    };
    return { query: missing, select: missing, close: async () => undefined };
  };
}

function initialSettings(config: CoreConfig): Defaults {
  return {
    rateLimit: config.rateLimit,
    authRateLimit: config.authRateLimit,
    latencyMs: config.latencyMs,
    runDurationMs: config.runDurationMs,
    hangMs: DEFAULT_HANG_MS,
    faults: [],
  };
}

/**
 * The API's limiter (per workspace, else per client address) and the OAuth endpoints' (per client address, in
 * buckets of their own: `auth-address:<ip>`), both in the storage port. Each request is counted against the
 * limit steering it (its workspace's, else the defaults': `stages/steering`); these are for answers given before
 * any settings were read.
 */
function createLimiters(port: StoragePort, initial: Defaults, windowSeconds: number, now: () => number) {
  const limiterOf = (limit: number) => createRateLimiter({ port, limit, windowSeconds, now });
  return { limiter: limiterOf(initial.rateLimit), authLimiter: limiterOf(initial.authRateLimit) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
