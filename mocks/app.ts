import { loadContract } from '../spec/lib';
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_CONFIG, type MockConfig } from './config';
import { ApiError } from './errors';
import { createDefaultAuthServer } from './integrations';
import { createQueryEngine } from './query';
import type { UsageReport } from './control/usage';
import { writeUsageReport } from './control/usage-file';
import type { SettingsRepository } from './store/repositories/settings';
import { createPrismResponder } from './prism';
import type { Store } from './store';
import { createStoragePort } from './store/adapters';
import type { StoragePort } from './store/port';
import { createMockCore } from './core';
import type { StageProbe } from './pipeline';
import { createNodeListener } from './node/listener';
import { serialiseToText } from './stages/serialise';
import { installSha256 } from './web/bytes';
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
  /** Wraps each stage of the API's pipeline as it is built (`npm run bench -- --stages`); none by default. */
  stageProbe?: StageProbe;
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
  /** The usage report of one workspace, or of all (`GET /__mock/usage`); this process's answers. */
  usage(workspaceUuid?: string): UsageReport;
  /** Stops the server: with `graceMs`, requests in flight get that long to finish; the port is free once it resolves. */
  close(options?: { graceMs?: number }): Promise<void>;
};

/**
 * The core (`mocks/core.ts`) on Node: the contract read from its YAML file, state in memory or on Redis, SQL on
 * worker threads, Prism, the OAuth server and `MOCK_FIXTURES` from disk, and the request listener for `node:http`.
 * `originOf` (the configured public address, MOCK_PUBLIC_URL, else the listen address) is read per request
 * because the port is known only after listen.
 */
export async function createMockApp(options: MockOptions, originOf: () => string) {
  const config: MockConfig = { ...DEFAULT_CONFIG, ...stripUndefined(options) };
  const now = options.now ?? Date.now;
  // The contract is read once, here, and handed to everything that needs it.
  const contract = loadContract(config.specPath);
  const storagePort =
    options.storagePort ??
    (await createStoragePort({ redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, now }));
  installSha256(nodeSha256);
  const core = await createMockCore({
    ...options,
    now,
    contract,
    originOf,
    storagePort,
    prism: createPrismResponder(contract.document, { seed: config.seed }),
    queryEngine: createQueryEngine,
    authServer: createDefaultAuthServer,
    startFixtures: config.fixturesPath
      ? { text: readFileSync(config.fixturesPath, 'utf8'), source: `MOCK_FIXTURES=${config.fixturesPath}` }
      : undefined,
    engineName: 'the Node server',
  });
  const listener = createNodeListener(core.frontDoor);

  return {
    config,
    store: core.store,
    settings: core.settings,
    usage: core.usage,
    /** A whole HTTP answer (closing the connection) for a request Node refused before any handler ran. */
    answerRefusal: async (remoteAddress: string, refusal: ApiError) =>
      serialiseToText(await core.frontDoor.answerRefusal(remoteAddress, refusal)),
    listener,
    /** The same mock as `fetch` is (`Request` in, `Response` out), as `./msw` serves it. */
    handle: core.handle,
    warm: core.warm,
    close: async () => {
      await core.close();
      // A port handed in by the caller is the caller's to close.
      if (!options.storagePort) await storagePort.close();
      // MOCK_USAGE_REPORT: the report of every workspace, written once the mock has stopped answering.
      if (config.usageReportPath) writeUsageReport(config.usageReportPath, core.usage());
    },
  };
}

/** Node's one-shot SHA-256 (no Hash object per request), installed for the core's idempotency fingerprints. */
const nodeSha256 = {
  bytes: (data: Uint8Array): Uint8Array => hash('sha256', data, 'buffer'),
  base64: (text: string): string => hash('sha256', text, 'base64'),
};

/** How long a socket Node handed over (CONNECT) may stay open once refused: the answer is one write. */
const REFUSAL_TIMEOUT_MS = 10_000;

/** Whether a response has begun on this socket (Node's own test before it answers a client error). */
function answering(socket: Duplex): boolean {
  return (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
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
    // An answer already on its way on this connection (a malformed request pipelined behind it) is not cut into:
    // the connection closes, as Node's own handler does then.
    if (!socket.writable || answering(socket)) return socket.destroy();
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
  // CONNECT asks for a tunnel, which Node hands to this event alone (unheard, it closes the socket unanswered).
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    // Node has taken its own listeners off this socket: a reset with none of ours would end the process, and a
    // client that never closes its side would hold it for good.
    socket.on('error', () => socket.destroy());
    (socket as Socket).setTimeout?.(REFUSAL_TIMEOUT_MS, () => socket.destroy());
    void app
      .answerRefusal(
        req.socket.remoteAddress ?? 'unknown',
        new ApiError(
          405,
          'method_not_allowed',
          'CONNECT: the mock opens no tunnels; send the request itself.',
          {},
          {
            allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
          },
        ),
      )
      .then(
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
    usage: app.usage,
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

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
