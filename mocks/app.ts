import { formatViolation, loadContract, type ObservedResponse } from '../spec/lib';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_CONFIG, type MockConfig } from './config';
import { INPUT_LIMITS } from './limits';
import { ApiError } from './errors';
import { createHandlers } from './handlers';
import { loadAuthServer, loadQueryEngine, type AuthServer, type QueryEngine } from './integrations';
import type { PipelineDeps } from './pipeline';
import { createControlPlane } from './control';
import { pickFault, planRun } from './control/steer';
import { controlCors } from './stages/cors';
import { createSettingsRepository, type Defaults, type SettingsRepository } from './store/repositories/settings';
import { readFileSync } from 'node:fs';
import { createPrismResponder } from './prism';
import { createStore, type Store } from './store';
import { createStoragePort } from './store/adapters';
import type { StoragePort } from './store/port';
import { createIdempotencyStore } from './store/repositories/idempotency';
import { createRateLimiter } from './stages/rate-limit/limiter';
import { createFrontDoor } from './front-door';
import { createMounts } from './front-door/mounts';
import type { MockHooks } from './types';

export type { MockRequest, MockResponse, MockHooks } from './types';
export type { MockConfig } from './config';

export type MockOptions = Partial<MockConfig> & {
  hooks?: MockHooks;
  /** Injected clock and sleep, so tests control time (windows, key expiry, runs) without waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Load Prism in the background right after start (otherwise it loads on the first request that needs it). */
  warmPrism?: boolean;
  /** Checks every response against the spec and reports violations here (MOCK_CHECK_RESPONSES=1 logs them). */
  onContractViolation?: (violations: string[]) => void;
  /** The storage port to keep state in (default: from `redisUrl`, else in memory). */
  storagePort?: StoragePort;
};

export type RunningMock = {
  url: string;
  origin: string;
  store: Store;
  config: MockConfig;
  /** The control plane's settings (in the store, shared by every replica). */
  settings: SettingsRepository;
  /** Stops the server: with `graceMs`, requests in flight get that long to finish; the port is free once it resolves. */
  close(options?: { graceMs?: number }): Promise<void>;
};

/** How long `Prefer: fault=hang` holds a connection by default. */
const DEFAULT_HANG_MS = 30_000;

/**
 * Builds the request listener; `originOf` (the configured public address, MOCK_PUBLIC_URL, else the listen
 * address) is read per request because the port is known only after listen.
 */
export async function createMockApp(options: MockOptions, originOf: () => string) {
  const config: MockConfig = { ...DEFAULT_CONFIG, ...stripUndefined(options) };
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // The contract is read once, here, and handed to everything that needs it.
  const contract = loadContract(config.specPath);
  const basePath = contract.basePath;
  const port =
    options.storagePort ??
    (await createStoragePort({ redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, now }));
  const store = createStore({ port, seed: config.seed, now, limits: { runTtlMs: config.runTtlMs } });
  let queryEngine: QueryEngine | undefined;
  const prism = createPrismResponder(contract.document, { seed: config.seed });
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
      ? (authServer = loadAuthServer({
          issuer: config.authUrl ?? `${originOf()}/auth`,
          // Behind a load balancer MOCK_AUTH_URL names the public address; the API's audience is that host too.
          audience: config.authUrl ? new URL(config.authUrl).origin : originOf(),
          basePath,
          now,
          port,
          redirectUris: config.oauthRedirectUris,
        }))
      : authServer;
  const idempotencyStore = createIdempotencyStore({
    port,
    ttlMs: config.idempotencyTtlMs,
    capPerWorkspace: config.idempotencyCapPerWorkspace,
    now,
  });

  const responseCheck = options.onContractViolation
    ? {
        validate: (observed: ObservedResponse) =>
          contract.validateResponse(observed).map((v) => formatViolation(observed, v)),
        report: options.onContractViolation,
      }
    : undefined;
  const api: PipelineDeps = {
    responseCheck,
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
        (queryEngine ??= loadQueryEngine({
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
    clearRateLimit: (workspaceUuid) =>
      limiter.clear(workspaceUuid === undefined ? undefined : `workspace:${workspaceUuid}`),
  });
  if (config.fixturesPath)
    await control.loadStartFixtures(readFileSync(config.fixturesPath, 'utf8'), `MOCK_FIXTURES=${config.fixturesPath}`);

  const frontDoor = createFrontDoor({
    ...createMounts({
      basePath,
      api,
      control,
      auth,
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
    store,
    settings,
    answerRefusal: frontDoor.answerRefusal,
    listener: frontDoor.listener,
    warm: () => prism.warm(),
    close: async () => {
      await queryEngine?.close();
      // A port handed in by the caller is the caller's to close.
      if (!options.storagePort) await port.close();
    },
  };
}

/** Starts the mock on `host:port` (port 0 picks a free one) and resolves once it accepts requests. */
export async function startMock(options: MockOptions & { port?: number; host?: string } = {}): Promise<RunningMock> {
  const host = options.host ?? DEFAULT_CONFIG.host;
  let origin = '';
  const app = await createMockApp(options, () => options.publicUrl?.replace(/\/+$/, '') || origin);
  // Host is checked by the pipeline, so its absence is answered in the error shape (Node's own 400 has no body).
  const server: Server = createServer({ requireHostHeader: false }, app.listener);
  server.keepAliveTimeout = 5_000;
  // Requests Node refuses before any handler runs (malformed HTTP, unknown methods, headers too large) and
  // expectations it cannot meet still get the error shape and the rate-limit headers of the caller's address.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const refusal =
      status === 431
        ? new ApiError(431, 'headers_too_large', 'The request line or headers are too large.')
        : status === 408
          ? new ApiError(408, 'request_timeout', 'The request did not arrive in time.')
          : new ApiError(
              400,
              error.code === 'HPE_INVALID_METHOD' ? 'unknown_method' : 'malformed_http',
              error.code === 'HPE_INVALID_METHOD'
                ? 'The request method is not one HTTP knows.'
                : 'The request is not valid HTTP.',
            );
    void app.answerRefusal((socket as Socket).remoteAddress ?? 'unknown', refusal).then(
      (text) => socket.end(text),
      () => socket.destroy(),
    );
  });
  server.on('checkExpectation', (req, res) => {
    void app
      .answerRefusal(
        req.socket.remoteAddress ?? 'unknown',
        new ApiError(
          417,
          'expectation_failed',
          `Expect: "${req.headers.expect}" is not supported; send the body without it.`,
        ),
      )
      .then(
        (text) => res.socket?.end(text),
        () => res.destroy(),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_CONFIG.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (options.warmPrism) setTimeout(() => void app.warm(), 50).unref();
  return {
    url: `${origin}/v1`,
    origin,
    store: app.store,
    settings: app.settings,
    config: { ...app.config, port, host },
    close: async (options: { graceMs?: number } = {}) => {
      // Stops accepting connections; requests in flight finish (for up to graceMs), idle keep-alive sockets close.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), options.graceMs ?? 0);
      await closed;
      clearTimeout(grace);
      await app.close();
    },
  };
}

function initialSettings(config: MockConfig): Defaults {
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
