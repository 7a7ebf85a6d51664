import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../spec/lib/constants';
import { INPUT_LIMITS } from './limits';

/**
 * Every setting of the mock but where its contract comes from, typed; each one is an environment variable
 * documented in the README. No Node here: the web-standard core (`core.ts`) reads these.
 */
export type CoreConfig = {
  port: number;
  host: string;
  /** token → workspace uuid. */
  tokens: Record<string, string>;
  rateLimit: number;
  /** Requests per window to the OAuth endpoints (`/auth/...`), per client address. */
  authRateLimit: number;
  rateWindowSeconds: number;
  seed: number;
  runDurationMs: number;
  /** Runs and batches created through the API are removed this long after their creation (with their rows). */
  runTtlMs: number;
  latencyMs: number;
  bodyLimitBytes: number;
  /** A request body not fully arrived after this long is answered 400 body_timeout. */
  bodyTimeoutMs: number;
  /** The address clients reach the mock at (Location and download URLs); defaults to the listen address. */
  publicUrl?: string;
  /** OAuth issuer; defaults to <origin>/auth. */
  authUrl?: string;
  /** Redirect URIs of the OAuth client `mock-frontend` (loopback ones on any port); unset, the defaults. */
  oauthRedirectUris?: string[];
  idempotencyTtlMs: number;
  idempotencyCapPerWorkspace: number;
  /** redis://host:port/db: state shared by every replica on that Redis; unset, it lives in this process. */
  redisUrl?: string;
  /** Put before every Redis key, so several mocks can share one Redis. */
  redisPrefix: string;
  /** Guards the control plane (/__mock) when set. */
  adminToken?: string;
  /** Fixtures (JSON or YAML) loaded at start and after every reset. */
  fixturesPath?: string;
  /** Origins whose pages may call the control plane (CORS); unset: pages on loopback only. */
  controlOrigins?: string[];
  /** How long a replica keeps the control plane's settings it read (a change waits this long before its answer). */
  settingsCacheMs: number;
  /** MOCK_USAGE_REPORT: where the usage report (JSON, and markdown beside it) is written when the mock stops. */
  usageReportPath?: string;
};

export const WORKSPACE_A = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
export const WORKSPACE_B = '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f';

export const CORE_DEFAULTS: CoreConfig = {
  port: 4010,
  host: '127.0.0.1',
  tokens: { 'mock-token-a': WORKSPACE_A, 'mock-token-b': WORKSPACE_B },
  rateLimit: 10_000,
  authRateLimit: 300,
  rateWindowSeconds: 60,
  seed: 1,
  runDurationMs: 3_000,
  runTtlMs: 24 * 60 * 60 * 1000,
  latencyMs: 0,
  bodyLimitBytes: INPUT_LIMITS.bodyBytes,
  bodyTimeoutMs: INPUT_LIMITS.bodyTimeoutMs,
  authUrl: undefined,
  oauthRedirectUris: undefined,
  publicUrl: undefined,
  idempotencyTtlMs: IDEMPOTENCY_KEY_LIFETIME_MS,
  idempotencyCapPerWorkspace: 10_000,
  redisUrl: undefined,
  redisPrefix: 'mock:',
  settingsCacheMs: 100,
};
