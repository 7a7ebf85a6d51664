/**
 * The broken variants of the independent server that are written by hand, one entry each: its name, what it does
 * wrong, the contract rule it breaks, the module whose code path it changes (`in`, a file of this folder that reads
 * it through `ctx.broken`), the matrix cells it breaks and the checks that must catch it. The server's switches
 * are typed by this table (a switch it does not hold fails `tsc`), and the mutation catalogue is derived from it
 * in this order (`conformance/mutants/catalogue.ts`).
 */

/** The modules of the server that hold a switch (each a file `<name>.ts` in this folder). */
export type Concern =
  'auth' | 'rate-limit' | 'idempotency' | 'errors' | 'lists' | 'resources' | 'query' | 'jobs' | 'context';

export type BrokenVariant = {
  in: Concern;
  /** What the variant does wrong, as a sentence. */
  does: string;
  /** The x-rules id it breaks (a note may follow in parentheses). */
  breaks: string;
  /** The checks that must catch it (others are not run, to keep the harness fast). */
  checks: readonly string[];
  /** The coverage-matrix cells it breaks (patterns of cell ids). */
  cells: readonly string[];
  /** Server settings it needs to show (a small rate limit reaches 429 within a few dozen requests). */
  server?: { rateLimit: number; windowSeconds: number };
  /** A short poll timeout for a job that never ends. */
  pollTimeoutMs?: number;
};

/** The tables the SQL endpoint holds, each scoped to the caller's workspace. */
export const SQL_TABLES = ['logs', 'runs', 'batches', 'records', 'spans'] as const;
export type SqlTable = (typeof SQL_TABLES)[number];

/** The other ways to name a table or shape a condition, which a scoping by text rewriting misses. */
export const SCOPE_FORMS = [
  '"quoted"',
  '[bracketed]',
  '`backticked`',
  'schema-qualified',
  'join',
  'subquery',
  'CTE',
  'OR',
  'NOT',
  'nested',
  'precedence',
] as const;
export type ScopeForm = (typeof SCOPE_FORMS)[number];

const SMALL_LIMIT = { rateLimit: 40, windowSeconds: 10 };
const REQUEST_CHECKS = ['invalid-requests-are-rejected-with-400', 'stated-lengths-count-characters'];
const CHECK_401 = ['requests-without-valid-credential-get-401'];
const CHECK_TERMINAL = ['polled-job-ends-terminal-and-stays-terminal'];
const CHECK_LOCATION = ['async-create-answers-202-with-location'];
const CHECK_SEES = ['workspaces-do-not-see-each-other'];
const CHECKS_429 = ['every-response-carries-rate-limit-headers', 'too-many-requests-carry-retry-after'];
const CHECKS_ERROR = ['invalid-requests-are-rejected-with-400', 'error-responses-use-the-error-shape'];
const CHECK_COUNT = ['list-filters-select-and-count'];
const MODEL_CHECK = ['stated-rules-hold-across-command-sequences'];
const NEAR_MISS = ['auth-required-401: Authorization: near misses of the token'];

/** One variant per member of a family (`<prefix> <member>`), in the members' order. */
function family<const P extends string, const M extends string>(
  prefix: P,
  members: readonly M[],
  entry: (member: M) => BrokenVariant,
): Record<`${P} ${M}`, BrokenVariant> {
  return Object.fromEntries(members.map((member) => [`${prefix} ${member}`, entry(member)])) as Record<
    `${P} ${M}`,
    BrokenVariant
  >;
}

export const BROKEN_VARIANTS = {
  'sql-executes-writes': {
    in: 'query',
    does: 'runs any statement, writes included, over one database shared by everybody, where writes stay',
    breaks: 'query-read-only-scoped',
    checks: ['sql-query-is-read-only'],
    cells: ['query-read-only-scoped: write statements refused'],
  },
  ...family('sql-table-unscoped', SQL_TABLES, (table) => ({
    in: 'query',
    does: `holds every workspace's rows in its ${table} table`,
    breaks: 'query-read-only-scoped',
    checks: ['sql-query-is-scoped-per-table'],
    cells: [`query-read-only-scoped: ${table} bare`],
  })),
  ...family('sql-form-unscoped', SCOPE_FORMS, (form) => ({
    in: 'query',
    does: `scopes by rewriting the bare table name, so a statement of the ${form} form reads every workspace's rows`,
    breaks: 'query-read-only-scoped',
    checks: ['sql-query-is-scoped-per-table'],
    cells: [`query-read-only-scoped: * ${form}`],
  })),
  'sql-scope-appended': {
    in: 'query',
    does: 'scopes by appending `workspaceUuid = …` to the statement without parentheses, so an OR escapes it',
    breaks: 'query-read-only-scoped',
    checks: MODEL_CHECK,
    cells: ['query-read-only-scoped: * OR', 'query-read-only-scoped: * precedence'],
  },
  'batch-runs-duplicated-on-replay': {
    in: 'idempotency',
    does: 'replays the stored batch but enqueues its runs again',
    breaks: 'idempotency-replay',
    checks: MODEL_CHECK,
    cells: ['idempotency-replay: createBatch'],
  },
  'export-includes-other-workspaces': {
    in: 'jobs',
    does: "exports every workspace's runs",
    breaks: 'workspace-scoping',
    checks: ['filters-and-exports-stay-in-the-workspace'],
    cells: ['workspace-scoping: run via export (*)'],
  },
  'runs-readable-cross-workspace': {
    in: 'jobs',
    does: "answers another workspace's run by its uuid",
    breaks: 'workspace-scoping',
    checks: CHECK_SEES,
    cells: ['workspace-scoping: run via get*'],
  },
  'batches-readable-cross-workspace': {
    in: 'jobs',
    does: "answers another workspace's batch by its uuid",
    breaks: 'workspace-scoping',
    checks: CHECK_SEES,
    cells: ['workspace-scoping: batch via get*'],
  },
  'workflows-readable-cross-workspace': {
    in: 'resources',
    does: "answers another workspace's workflow by its uuid",
    breaks: 'workspace-scoping',
    checks: CHECK_SEES,
    cells: ['workspace-scoping: workflow via get*'],
  },
  'models-readable-cross-workspace': {
    in: 'resources',
    does: "answers another workspace's model by its uuid",
    breaks: 'workspace-scoping',
    checks: CHECK_SEES,
    cells: ['workspace-scoping: model via get*'],
  },
  'cancel-cross-workspace': {
    in: 'jobs',
    does: "cancels another workspace's run by its uuid",
    breaks: 'workspace-scoping',
    checks: CHECK_SEES,
    cells: ['workspace-scoping: run via cancel*'],
  },
  'token-prefix-accepted': {
    in: 'auth',
    does: 'accepts a prefix of a token (8 characters or more)',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: NEAR_MISS,
  },
  'token-suffix-accepted': {
    in: 'auth',
    does: 'accepts a token with anything appended',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: NEAR_MISS,
  },
  'token-case-insensitive': {
    in: 'auth',
    does: 'compares tokens without case',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: NEAR_MISS,
  },
  'endpoint-without-auth': {
    in: 'auth',
    does: 'serves GET /expression/recipes/list without a credential (as workspace A)',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: ['auth-required-401: listRecipes'],
  },
  'token-in-query-accepted': {
    in: 'auth',
    does: 'also takes the token from ?access_token= or ?token=',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: ['auth-required-401: query ?access_token=', 'auth-required-401: query ?token='],
  },
  'token-in-cookie-accepted': {
    in: 'auth',
    does: 'also takes the token from an access_token or token cookie',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: ['auth-required-401: cookie'],
  },
  'token-in-other-header-accepted': {
    in: 'auth',
    does: 'also takes the token from X-Api-Key',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: ['auth-required-401: another header'],
  },
  'basic-accepted': {
    in: 'auth',
    does: 'accepts any Basic credential (as workspace A)',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: ['auth-required-401: Authorization: another scheme'],
  },
  'validation-before-auth': {
    in: 'auth',
    does: 'validates the query before it authenticates (its framework order): a bad limit gets 400, not 401',
    breaks: 'auth-required-401',
    checks: CHECK_401,
    cells: ['auth-required-401: no credential, invalid request'],
  },
  '401-without-rate-limit-headers': {
    in: 'rate-limit',
    does: 'sends no rate-limit headers to a caller without a credential',
    breaks: 'ratelimit-headers-every-response',
    checks: CHECK_401,
    cells: ['auth-required-401: no credential'],
  },
  'reasons-first-value-only': {
    in: 'lists',
    does: 'filters suppressions by the first of the repeated reasons only',
    breaks: 'list-filters-and-count',
    checks: CHECK_COUNT,
    cells: ['list-filters-and-count: listSuppressions reasons'],
  },
  'count-ignores-filter': {
    in: 'lists',
    does: 'counts every suppression of the workspace, filtered or not',
    breaks: 'list-filters-and-count',
    checks: CHECK_COUNT,
    cells: ['list-filters-and-count: listSuppressions reasons'],
  },
  'count-is-page-length': {
    in: 'lists',
    does: 'counts the suppressions of the page, not of the filter',
    breaks: 'list-filters-and-count',
    checks: CHECK_COUNT,
    cells: ['list-filters-and-count: listSuppressions reasons'],
  },
  'length-in-utf16': {
    in: 'context',
    does: 'counts string lengths in UTF-16 units, not characters',
    breaks: 'request-validation',
    checks: ['stated-lengths-count-characters'],
    cells: ['request-validation: * body:name:maxLength'],
  },
  'query-length-unchecked': {
    in: 'query',
    does: 'takes a SQL query of any length',
    breaks: 'request-validation',
    checks: ['stated-lengths-count-characters'],
    cells: ['request-validation: executeQuery body:query:maxLength'],
  },
  'pattern-allows-gt': {
    in: 'resources',
    does: 'takes a workspace name with `>` in it',
    breaks: 'request-validation',
    checks: ['stated-lengths-count-characters'],
    cells: ['request-validation: updateCurrentWorkspace body:name:pattern'],
  },
  'loose listSuppressions query:limit:maximum': {
    in: 'context',
    does: 'takes limit=1001 (its maximum one higher)',
    breaks: 'request-validation (limit 1001 accepted)',
    checks: REQUEST_CHECKS,
    cells: ['request-validation: listSuppressions query:limit:maximum'],
  },
  'loose createMcpServer body:name:maxLength': {
    in: 'context',
    does: 'takes an MCP server name of 256 characters (its maximum one higher)',
    breaks: 'request-validation (name of 256 accepted)',
    checks: REQUEST_CHECKS,
    cells: ['request-validation: createMcpServer body:name:maxLength'],
  },
  'loose updateCurrentWorkspace body:name:maxLength': {
    in: 'context',
    does: 'takes a workspace name of 256 characters (its maximum one higher)',
    breaks: 'request-validation (workspace name of 256 accepted)',
    checks: REQUEST_CHECKS,
    cells: ['request-validation: updateCurrentWorkspace body:name:maxLength'],
  },
  'limit-zero-accepted': {
    in: 'lists',
    does: 'takes limit=0 for suppressions',
    breaks: 'request-validation (limit 0 accepted)',
    checks: REQUEST_CHECKS,
    cells: ['request-validation: listSuppressions query:limit:minimum'],
  },
  'concurrent-retry-waits': {
    in: 'idempotency',
    does: 'holds a concurrent retry until the first request ends and replays it, instead of 409',
    breaks: 'idempotency-concurrent-409',
    checks: ['concurrent-same-key-requests-create-one-record'],
    cells: ['idempotency-concurrent-409: createRun', 'idempotency-concurrent-409: createMcpServer'],
  },
  'replay-drops-location': {
    in: 'idempotency',
    does: 'replays without the original Location',
    breaks: 'idempotency-replay',
    checks: ['replayed-request-returns-original-response'],
    cells: ['idempotency-replay: createMcpServer'],
  },
  'replay-creates-new-record': {
    in: 'idempotency',
    does: 'runs a retry again instead of replaying it',
    breaks: 'idempotency-replay',
    checks: ['replayed-request-returns-original-response'],
    cells: ['idempotency-replay: createMcpServer'],
  },
  'key-reuse-accepted': {
    in: 'idempotency',
    does: 'replays a key reused for another request instead of 422',
    breaks: 'idempotency-key-reuse-422',
    checks: ['reused-key-with-changed-request-gets-422'],
    cells: ['idempotency-key-reuse-422: createMcpServer'],
  },
  'overlong-key-accepted': {
    in: 'idempotency',
    does: 'takes an Idempotency-Key over its bound',
    breaks: 'idempotency-key-length',
    checks: ['overlong-idempotency-key-gets-400'],
    cells: ['idempotency-key-length: *'],
  },
  'multipart-key-accepted': {
    in: 'idempotency',
    does: "takes an Idempotency-Key on a multipart upload and reads the form's fields as the body",
    breaks: 'idempotency-no-multipart',
    checks: ['multipart-request-with-idempotency-key-gets-400'],
    cells: ['idempotency-no-multipart: *'],
  },
  'retry-after-on-202': {
    in: 'jobs',
    does: 'sends Retry-After with a 202',
    breaks: 'ratelimit-429-retry-after',
    checks: [...CHECK_LOCATION, 'every-response-carries-rate-limit-headers'],
    cells: ['ratelimit-429-retry-after: Retry-After on 429 only'],
  },
  'location-without-v1': {
    in: 'jobs',
    does: 'points Location at /orchestration/…, without the /v1 prefix',
    breaks: 'async-202-location',
    checks: CHECK_LOCATION,
    cells: ['async-202-location: run create', 'async-202-location: batch create'],
  },
  'run-leaves-terminal': {
    in: 'jobs',
    does: 'shows a finished run as running again after a while',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: run stays terminal'],
  },
  'cancel-reopens-finished-run': {
    in: 'jobs',
    does: 'cancels a finished run, which leaves its terminal status',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: run cancel after terminal'],
  },
  'batch-finishes-completed': {
    in: 'jobs',
    does: 'ends a batch as completed, outside the terminal set',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: batch terminal status in the terminal set'],
  },
  'wait-false-answers-200': {
    in: 'jobs',
    does: 'waits for a run with waitUntilFinished false and answers 200',
    breaks: 'async-202-location',
    checks: CHECK_LOCATION,
    cells: ['async-202-location: run waitUntilFinished false'],
  },
  'cancel-answers-200': {
    in: 'jobs',
    does: 'answers a cancel of a running run 200, not 202',
    breaks: 'async-202-location',
    checks: CHECK_LOCATION,
    cells: ['async-202-location: run cancel before terminal'],
  },
  'run-never-finishes': {
    in: 'jobs',
    does: 'never ends a run',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: run poll to a terminal status'],
    pollTimeoutMs: 3000,
  },
  'run-finishes-outside-set': {
    in: 'jobs',
    does: 'ends a run outside a batch as done, outside the terminal set',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: run terminal status in the terminal set'],
    pollTimeoutMs: 3000,
  },
  'wait-true-answers-202': {
    in: 'jobs',
    does: 'answers 202 at once to waitUntilFinished true',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: run waitUntilFinished true'],
    pollTimeoutMs: 3000,
  },
  'batch-leaves-terminal': {
    in: 'jobs',
    does: 'shows a batch as pending again once it was seen finished',
    breaks: 'async-poll-terminal',
    checks: CHECK_TERMINAL,
    cells: ['async-poll-terminal: batch stays terminal', 'async-poll-terminal: batch poll*'],
    pollTimeoutMs: 3000,
  },
  'remaining-constant': {
    in: 'rate-limit',
    does: 'sends the same remaining count on every response',
    breaks: 'ratelimit-headers-every-response',
    checks: CHECKS_429,
    cells: ['ratelimit-headers-every-response: a 429 never follows*'],
    server: SMALL_LIMIT,
  },
  'remaining-off-by-one': {
    in: 'rate-limit',
    does: 'counts one more remaining request than there is',
    breaks: 'ratelimit-headers-every-response',
    checks: CHECKS_429,
    cells: ['ratelimit-headers-every-response: RateLimit-Remaining counts*'],
    server: SMALL_LIMIT,
  },
  'retry-after-in-milliseconds': {
    in: 'rate-limit',
    does: 'sends Retry-After in milliseconds',
    breaks: 'ratelimit-429-retry-after',
    checks: CHECKS_429,
    cells: ['ratelimit-429-retry-after: Retry-After within the window'],
    server: SMALL_LIMIT,
  },
  'rate-limit-shared-across-workspaces': {
    in: 'rate-limit',
    does: 'counts every caller in one bucket',
    breaks: 'ratelimit-headers-every-response',
    checks: ['requests-are-counted-per-workspace'],
    cells: [],
  },
  'no-429': {
    in: 'rate-limit',
    does: 'never refuses a request over the limit',
    breaks: 'ratelimit-429-retry-after',
    checks: ['too-many-requests-carry-retry-after'],
    cells: ['ratelimit-429-retry-after: Retry-After in integer seconds on 429'],
    server: SMALL_LIMIT,
  },
  'framework-error-body': {
    in: 'errors',
    does: "answers errors with Express's own error handler (an HTML page)",
    breaks: 'error-shape',
    checks: CHECKS_ERROR,
    cells: ['error-shape: *'],
  },
  'framework-404-page': {
    in: 'errors',
    does: "answers an unknown route or resource with Express's own 404 page",
    breaks: 'error-shape',
    checks: ['responses-match-the-contract', 'error-responses-use-the-error-shape'],
    cells: ['error-shape: *'],
  },
  'body-parser-defaults': {
    in: 'errors',
    does: "reads bodies with body-parser's defaults (strict JSON, its own error pages)",
    breaks: 'error-shape',
    checks: CHECKS_ERROR,
    cells: ['error-shape: *'],
  },
  'error-body-message-key': {
    in: 'errors',
    does: 'writes errors as {message, code}',
    breaks: 'error-shape',
    checks: CHECKS_ERROR,
    cells: ['error-shape: *'],
  },
  'suppression-extra-field': {
    in: 'lists',
    does: 'adds a field to the closed Suppression',
    breaks: 'response-conformance',
    checks: ['responses-match-the-contract'],
    cells: ['response-conformance: listSuppressions 200'],
  },
  'deprecation-header': {
    in: 'lists',
    does: 'marks listRecipes deprecated',
    breaks: 'deprecation-sunset',
    checks: ['responses-match-the-contract', 'deprecation-and-sunset-headers-are-valid'],
    cells: ['deprecation-sunset: *', 'version-in-path: *'],
  },
} as const satisfies Record<string, BrokenVariant>;

/** A hand-written broken variant's name. */
export type BrokenId = keyof typeof BROKEN_VARIANTS;

/**
 * Switches generated from the contract by the mutation catalogue (each stated status, header, write and list),
 * read by prefix; the per-operation breaks (`op …`), off-by-one bounds (`loose …`) and switched-off validation
 * rules are read from the mutation list itself.
 */
export type GeneratedSwitch =
  | `status ${number}`
  | `drop-header ${string}`
  | '429-without-retry-after'
  | `idempotency-ignored ${string}`
  | `list-unscoped ${string}`
  | `list-filter-unscoped ${string}`
  | `export-filter-unscoped ${string}`;

export type Switch = BrokenId | GeneratedSwitch;
