import { join } from 'node:path';
import { MAX_RATE_LIMIT } from './limits';
import { safeDict } from './safety/dict';
import { CORE_DEFAULTS, type CoreConfig } from './defaults';
export { WORKSPACE_A, WORKSPACE_B, CORE_DEFAULTS, type CoreConfig } from './defaults';

/** Every setting of the mock (each an environment variable documented in the README), with its contract's file. */
export type MockConfig = CoreConfig & { specPath: string };

export const DEFAULT_CONFIG: MockConfig = {
  ...CORE_DEFAULTS,
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
    controlOrigins: readOrigins(env.MOCK_CONTROL_ORIGINS),
    // A change to the settings is answered this long after it is saved: seconds would stall every test's set-up.
    settingsCacheMs: readNumber(env, 'MOCK_SETTINGS_CACHE_MS', DEFAULT_CONFIG.settingsCacheMs, 0, 5_000),
    usageReportPath: env.MOCK_USAGE_REPORT || undefined,
  };
}

/** MOCK_CONTROL_ORIGINS: comma-separated http(s) origins (`*` is refused: the control plane is never open to all). */
function readOrigins(text: string | undefined): string[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return text
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => {
      if (origin === '*')
        throw new Error('MOCK_CONTROL_ORIGINS: "*" is not accepted; name the origins of the pages that steer the mock');
      let url: string | undefined;
      try {
        url = readPublicUrl(origin);
      } catch {
        url = undefined;
      }
      if (!url) throw new Error(`MOCK_CONTROL_ORIGINS: expected http(s) origins without path, got "${origin}"`);
      return url;
    });
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
