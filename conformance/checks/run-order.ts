/**
 * Where a check runs when its place matters. `npm run generate` (generators/registries.ts) lists every check of this
 * folder in CHECKS (checks.generated.ts): the ids below in this order, and every check not named here at the
 * OTHER_CHECKS mark, by id, so a new check needs no line here. A check whose place matters (it spends the rate
 * limit, reads counters, takes a share of the budget) adds its id where it must run; an id no check declares stops
 * the generator.
 */
export const OTHER_CHECKS = '...';

export const RUN_ORDER: readonly string[] = [
  'responses-match-the-contract',
  'requests-without-valid-credential-get-401',
  'every-route-refuses-a-wrong-credential',
  'valid-requests-are-accepted',
  'invalid-requests-are-rejected-with-400',
  'malformed-or-oversized-bodies-get-4xx',
  'undeclared-methods-are-refused',
  'list-filters-select-and-count',
  'stated-lengths-count-characters',
  'async-create-answers-202-with-location',
  'polled-job-ends-terminal-and-stays-terminal',
  'replayed-request-returns-original-response',
  'reused-key-with-changed-request-gets-422',
  'concurrent-same-key-requests-create-one-record',
  'every-write-replays-its-original-response',
  'every-write-refuses-a-reused-key-with-422',
  'overlong-idempotency-key-gets-400',
  'multipart-request-with-idempotency-key-gets-400',
  'workspaces-do-not-see-each-other',
  'filters-and-exports-stay-in-the-workspace',
  'sql-query-is-read-only',
  'sql-query-is-scoped-per-table',
  // New checks: after the ordinary active checks, before the phases below that spend the budget and the limit.
  OTHER_CHECKS,
  // The model phase: sequences over every operation, within its share of the budget, before the rate-limit checks.
  'stated-rules-hold-across-command-sequences',
  'requests-are-counted-per-workspace',
  // Its burst needs quota, so it runs before the 429 check spends it.
  'every-response-carries-rate-limit-headers',
  // Spends the rate limit, so it runs after every check that needs quota.
  'too-many-requests-carry-retry-after',
  'error-responses-use-the-error-shape',
  'deprecation-and-sunset-headers-are-valid',
  'no-request-gets-a-server-error',
  'responses-arrive-within-max-response-time',
];
