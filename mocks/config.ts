import { join } from 'node:path';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../spec/lib/constants';
import { INPUT_LIMITS, MAX_RATE_LIMIT } from './limits';
import { safeDict } from './safety/dict';
/** Every setting of the mock, typed; each one is an environment variable documented in the README. */
export type MockConfig = {
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
  specPath: string;
  /** redis://host:port/db: state shared by every replica on that Redis; unset, it lives in this process. */
  redisUrl?: string;
  /** Put before every Redis key, so several mocks can share one Redis. */
  redisPrefix: string;
  /** Guards the control plane (/__mock) when set. */
  adminToken?: string;
  /** Fixtures (JSON or YAML) loaded at start and after every reset. */
  fixturesPath?: string;
};

export const WORKSPACE_A = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
export const WORKSPACE_B = '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f';

export const DEFAULT_CONFIG: MockConfig = {
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
  specPath: join(__dirname, '..', 'spec', 'openapi.yaml'),
};

/** `token=workspaceUuid,token=workspaceUuid` → map; malformed pairs are a start-up error, not a silent skip. */
export function parseTokens(text: string): Record<string, string> {
  const tokens = safeDict<string>();
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new Error(`MOCK_TOKENS: expected token=workspaceUuid, got "${pair}"`);
    tokens[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  if (Object.keys(tokens).length === 0) throw new Error('MOCK_TOKENS: no token=workspaceUuid pair given');
  return tokens;
}

function readNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Infinity): number {
  // dictionary-lookup: the names are this file's own constants
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`${name}: expected a number >= ${min}${max < Infinity ? ` and <= ${max}` : ''}, got "${text}"`);
  return value;
}

/**
 * MOCK_ADMIN_TOKEN guards the control plane: set but empty (a compose file's `MOCK_ADMIN_TOKEN=` or an unset
 * variable interpolated) is a start-up error, never a silently open control plane.
 */
function readAdminToken(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === '')
    throw new Error('MOCK_ADMIN_TOKEN: set but empty; give it a secret value, or leave it unset for a local mock');
  return text;
}

export function readConfigFromEnv(env: NodeJS.ProcessEnv = process.env): MockConfig {
  return {
    ...DEFAULT_CONFIG,
    port: readNumber(env, 'PORT', DEFAULT_CONFIG.port, 0),
    host: env.HOST || DEFAULT_CONFIG.host,
    tokens: env.MOCK_TOKENS ? parseTokens(env.MOCK_TOKENS) : DEFAULT_CONFIG.tokens,
    rateLimit: readNumber(env, 'MOCK_RATE_LIMIT', DEFAULT_CONFIG.rateLimit, 1, MAX_RATE_LIMIT),
    authRateLimit: readNumber(env, 'MOCK_AUTH_RATE_LIMIT', DEFAULT_CONFIG.authRateLimit, 1, MAX_RATE_LIMIT),
    rateWindowSeconds: readNumber(env, 'MOCK_RATE_WINDOW', DEFAULT_CONFIG.rateWindowSeconds, 1),
    seed: readNumber(env, 'MOCK_SEED', DEFAULT_CONFIG.seed, 0),
    runDurationMs: readNumber(env, 'MOCK_RUN_DURATION_MS', DEFAULT_CONFIG.runDurationMs, 0),
    runTtlMs: readNumber(env, 'MOCK_RUN_TTL_MS', DEFAULT_CONFIG.runTtlMs, 1_000),
    latencyMs: readNumber(env, 'MOCK_LATENCY_MS', DEFAULT_CONFIG.latencyMs, 0),
    bodyLimitBytes: readNumber(env, 'MOCK_BODY_LIMIT', DEFAULT_CONFIG.bodyLimitBytes, 1),
    bodyTimeoutMs: readNumber(env, 'MOCK_BODY_TIMEOUT_MS', DEFAULT_CONFIG.bodyTimeoutMs, 1),
    authUrl: env.MOCK_AUTH_URL || undefined,
    oauthRedirectUris: env.MOCK_OAUTH_REDIRECT_URIS ? parseRedirectUris(env.MOCK_OAUTH_REDIRECT_URIS) : undefined,
    publicUrl: readPublicUrl(env.MOCK_PUBLIC_URL),
    redisUrl: readRedisUrl(env),
    redisPrefix: env.MOCK_REDIS_PREFIX ?? DEFAULT_CONFIG.redisPrefix,
    adminToken: readAdminToken(env.MOCK_ADMIN_TOKEN),
    fixturesPath: env.MOCK_FIXTURES || undefined,
  };
}

/** MOCK_REDIS_URL must be a redis:// (or rediss://) URL: a typo is a start-up error, not a silent in-memory mock. */
function readRedisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const text = env.MOCK_REDIS_URL;
  if (text === undefined || text === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:'))
    throw new Error(`MOCK_REDIS_URL: expected redis://host:port/db, got "${text}"`);
  return text;
}

/** MOCK_PUBLIC_URL: an http(s) origin such as https://mock.example.test:8443 (a path or query is a start-up error). */
export function readPublicUrl(text: string | undefined): string | undefined {
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`MOCK_PUBLIC_URL: expected an http(s) origin, got "${text}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash) {
    throw new Error(`MOCK_PUBLIC_URL: expected an http(s) origin without path or query, got "${text}"`);
  }
  return url.origin;
}

/** The longest redirect URI accepted: it is kept with each OAuth code, whose entry is bounded in bytes. */
export const REDIRECT_URI_MAX_LENGTH = 2000;

/**
 * `MOCK_OAUTH_REDIRECT_URIS`: comma-separated absolute URIs without a fragment, each at most
 * `REDIRECT_URI_MAX_LENGTH` characters; anything else is a start-up error, never a login that fails later.
 */
export function parseRedirectUris(text: string): string[] {
  const uris = text
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
  for (const uri of uris) {
    let url: URL | undefined;
    try {
      url = new URL(uri);
    } catch {
      url = undefined;
    }
    if (!url || uri.includes('#'))
      throw new Error(`MOCK_OAUTH_REDIRECT_URIS: expected absolute URIs without a fragment, got "${uri}"`);
    if (uri.length > REDIRECT_URI_MAX_LENGTH)
      throw new Error(`MOCK_OAUTH_REDIRECT_URIS: a URI of ${uri.length} characters, over ${REDIRECT_URI_MAX_LENGTH}`);
  }
  if (uris.length === 0) throw new Error('MOCK_OAUTH_REDIRECT_URIS: no URI given');
  return [...new Set(uris)];
}
