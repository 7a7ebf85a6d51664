// Facts of the contract that code needs by name. Each is read from the document where the document carries
// it, or named here once with the clause it comes from.

import { asArray, asObject, type JsonObject } from './json';
import { getAtPointer } from './pointer';
import type { Operation } from './operations';

/** Versioning 5: `Sunset` is at least 180 days after `Deprecation`. */
export const MINIMUM_SUNSET_GAP_DAYS = 180;

/** Endpoints, Idempotency: keys expire after 24 hours. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Endpoints, Idempotency (and Limits): `Idempotency-Key` is a string of at most 255 characters. For code without a
 * loaded contract (the spec lint checks the document against it); `contract.constants.idempotencyKeyMaxLength`
 * reads the bound from the document, and a test keeps the two equal.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Endpoints, Idempotency: the optional request header of POST, PUT and PATCH. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The same header as Node and the Fetch API hold a request's headers: in lower case (its type proves it is the same name). */
export const IDEMPOTENCY_KEY_FIELD: Lowercase<typeof IDEMPOTENCY_KEY_HEADER> = 'idempotency-key';

/** Endpoints, Idempotency: the methods that accept an idempotency key. */
export const IDEMPOTENT_WRITE_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH'];

/**
 * Limits, rate-limit response headers: the eight headers every response carries, as the description spells them,
 * each by its role.
 * For code without a loaded contract; `contract.constants.rateLimitHeaders` reads the same set from the document,
 * and a test keeps the two equal.
 */
export const RATE_LIMIT_HEADER = {
  rateLimit: 'RateLimit',
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
  policy: 'RateLimit-Policy',
  legacyLimit: 'X-RateLimit-Limit',
  legacyRemaining: 'X-RateLimit-Remaining',
  legacyReset: 'X-RateLimit-Reset',
} as const;

/** The eight names in the description's order. */
export const RATE_LIMIT_HEADER_NAMES: readonly string[] = Object.values(RATE_LIMIT_HEADER);

/** The same headers keyed as Node's header objects hold them (lower case), by role. */
export const RATE_LIMIT_HEADER_KEY = Object.fromEntries(
  Object.entries(RATE_LIMIT_HEADER).map(([role, name]) => [role, name.toLowerCase()]),
) as { readonly [Role in keyof typeof RATE_LIMIT_HEADER]: Lowercase<(typeof RATE_LIMIT_HEADER)[Role]> };

/** Limits, rate-limit response headers: "`Retry-After` | on 429 only; integer seconds to wait before retrying". */
export const RETRY_AFTER_HEADER = 'Retry-After';

/** States and transitions, status sets: the run statuses (`#/components/schemas/RunStatus`, kept equal by a test). */
export const RUN_STATUSES: readonly string[] = [
  'idle',
  'pending',
  'running',
  'success',
  'error',
  'cancelling',
  'cancelled',
  'skipped',
];

/** Terminal statuses of a run or batch (`#/components/schemas/TerminalRunStatus`, kept equal by a test). */
export const TERMINAL_STATUSES: readonly string[] = ['success', 'error', 'cancelled', 'skipped'];

/** Pointers of the schemas the constants below are read from. */
export const POINTERS = {
  error: '#/components/schemas/Error',
  runStatus: '#/components/schemas/RunStatus',
  terminalRunStatus: '#/components/schemas/TerminalRunStatus',
  uuid: '#/components/schemas/Uuid',
  idempotencyKey: '#/components/parameters/IdempotencyKey',
} as const;

export type ContractConstants = {
  /**
   * The headers every response of the document declares (x-rules ratelimit-headers-every-response): the eight
   * rate-limit headers, spelt as the document spells them.
   */
  rateLimitHeaders: string[];
  /** Run statuses (States: run statuses). */
  runStatuses: string[];
  /** Terminal statuses of a run or batch. */
  terminalStatuses: string[];
  /** Upper bound of the Idempotency-Key length, from its parameter schema. */
  idempotencyKeyMaxLength?: number;
  /** Lower bound of the Idempotency-Key length, from its parameter schema. */
  idempotencyKeyMinLength?: number;
};

function enumAt(document: JsonObject, pointer: string): string[] {
  return asArray(asObject(getAtPointer(document, pointer)).enum).filter((v): v is string => typeof v === 'string');
}

/** Names declared on every response of every operation (compared case-insensitively), in the first one's order. */
function headersOnEveryResponse(operations: readonly Operation[]): string[] {
  let common: string[] | undefined;
  for (const operation of operations) {
    for (const response of Object.values(operation.responses)) {
      const names = Object.keys(response.headers);
      if (!common) common = names;
      else {
        const lower = new Set(names.map((n) => n.toLowerCase()));
        common = common.filter((n) => lower.has(n.toLowerCase()));
      }
    }
  }
  return common ?? [];
}

export function readConstants(document: JsonObject, operations: readonly Operation[]): ContractConstants {
  const keySchema = asObject(asObject(getAtPointer(document, POINTERS.idempotencyKey)).schema);
  return {
    rateLimitHeaders: headersOnEveryResponse(operations),
    runStatuses: enumAt(document, POINTERS.runStatus),
    terminalStatuses: enumAt(document, POINTERS.terminalRunStatus),
    idempotencyKeyMaxLength: typeof keySchema.maxLength === 'number' ? keySchema.maxLength : undefined,
    idempotencyKeyMinLength: typeof keySchema.minLength === 'number' ? keySchema.minLength : undefined,
  };
}
