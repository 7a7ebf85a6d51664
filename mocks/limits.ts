/**
 * Every bound the mock keeps, in one place: what protects the process from one request (input bounds) and what
 * keeps each store from growing without end (bytes, count and age). The README's "Limits" table and the spec's
 * x-assumption notes state the same numbers; `limits.test.ts` proves each one.
 */
export const INPUT_LIMITS = {
  /** Request body bytes (MOCK_BODY_LIMIT); a larger Content-Length is answered 413 before reading anything. */
  bodyBytes: 1_048_576,
  /** A body that has not fully arrived after this long is answered 400 body_timeout and the connection closed. */
  bodyTimeoutMs: 10_000,
  /** Nesting of arrays and objects in a JSON body; deeper → 400 json_too_deep. */
  jsonDepth: 64,
  /** Items of any one JSON array in a body; more → 400 json_array_too_long. */
  jsonArrayItems: 10_000,
} as const;

/**
 * Requests per rate-limit window a workspace or client address may be allowed (MOCK_RATE_LIMIT,
 * MOCK_AUTH_RATE_LIMIT and the settings rateLimit and authRateLimit): a billion per window is beyond any load,
 * and keeps the stated limit header a plain integer.
 */
export const MAX_RATE_LIMIT = 1_000_000_000;

/** Maximum delay a single request may ask for (Prefer: latency, the latencyMs setting), so a typo cannot hang a client for hours. */
export const MAX_LATENCY_MS = 60_000;

/**
 * Byte budgets beside the count and age bounds the stores keep in the storage port (runs, batches, MCP servers,
 * downloads, OAuth: see store/index.ts DEFAULT_STORE_LIMITS and oauth/grants.ts DEFAULT_GRANT_LIMITS).
 */
export const STORE_LIMITS = {
  /** Stored idempotent answers per workspace (the contract's key lifetime and the key count bound them too). */
  idempotencyBytesPerWorkspace: 16 * 1024 * 1024,
  /** Created MCP servers per workspace (oldest created out first). */
  mcpServerBytesPerWorkspace: 32 * 1024 * 1024,
  /** Run downloads per workspace, and one export at most (larger → 400 download_too_large). */
  downloadBytesPerWorkspace: 32 * 1024 * 1024,
  downloadBytesEach: 16 * 1024 * 1024,
} as const;

/** A rough size in bytes of a JSON value (strings at one byte a character), for byte budgets of stores. */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let total = 2;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') total += next.length + 2;
    else if (next === null || typeof next !== 'object') total += 8;
    else if (Array.isArray(next)) for (const item of next) stack.push(item);
    else
      for (const [key, item] of Object.entries(next)) {
        total += key.length + 3;
        stack.push(item);
      }
  }
  return total;
}

/**
 * The control plane's input (`/__mock`): read by the same bounded reader as the API's, in the same time and with
 * the same nesting and array bounds; fixture files may be larger than API bodies, but one request loads a bounded
 * number of workspaces and items, so validating and applying it never holds the event loop for long.
 */
export const CONTROL_LIMITS = {
  bytes: 4 * 1024 * 1024,
  timeoutMs: INPUT_LIMITS.bodyTimeoutMs,
  jsonDepth: INPUT_LIMITS.jsonDepth,
  jsonArrayItems: INPUT_LIMITS.jsonArrayItems,
  /** YAML alias nodes in one fixture text. */
  yamlAliases: 100,
  /** Workspaces one fixtures request names. */
  workspaces: 100,
  /** Items of every collection of every workspace, in one fixtures request. */
  items: 10_000,
  /** Workspaces with settings of their own (outcome, run duration), in all. */
  settingsWorkspaces: 1000,
} as const;

/** The OAuth endpoints' form bodies (token, revoke): small, read by the same reader in the same time. */
export const AUTH_BODY_LIMITS = {
  bytes: 64 * 1024,
  timeoutMs: INPUT_LIMITS.bodyTimeoutMs,
  jsonDepth: INPUT_LIMITS.jsonDepth,
  jsonArrayItems: INPUT_LIMITS.jsonArrayItems,
} as const;
