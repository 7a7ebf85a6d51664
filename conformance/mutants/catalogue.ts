/**
 * The mutants and correct variants of the independent server. Mutants are generated from the contract's stated
 * facts (each request rule the contract states, each rate-limit header, each stated status) and hand-written from
 * realistic defects (one per cross-cutting rule at least, framework defaults, off-by-one bounds, UTF-16 lengths,
 * unscoped tables); correct variants are generated from the open points, each switched to the other reading.
 */
import { jsonContent, type Contract } from '../../spec/lib';
import { SQL_FORMS } from '../lib/query';
import { invalidRequestsOf } from '../lib/requests';
import { assumedAt } from '../lib/stated';
import { DEFAULT_READINGS, type IndependentOptions, type Readings } from '../independent/server';
import { allChecks } from '../checks';
import type { RunConfig } from '../config';
import { coverageMatrix, type Cell } from '../matrix/matrix';

/** The model-based phase's check. */
const MODEL_CHECK = 'stated-rules-hold-across-command-sequences';

/** Checks whose requests reach an operation, so the hooks judging a cell see its traffic. */
const FEEDERS = [
  'valid-requests-are-accepted',
  'invalid-requests-are-rejected-with-400',
  'requests-without-valid-credential-get-401',
];

/** The per-operation rules the independent server can break on one operation (`op <rule> <METHOD> <glob>`). */
const OP_RULES: Record<string, string> = {
  'auth-required-401': 'auth-required-401',
  'ratelimit-headers-every-response': 'ratelimit-headers-every-response',
  'error-shape': 'error-shape',
  'deprecation-sunset': 'deprecation-sunset',
  'version-in-path': 'deprecation-sunset',
};

/** Whether `--operations <op>` leaves every check judging the cell able to run (they need nothing else). */
function restrictable(cell: Cell, operationId: string): boolean {
  // Isolation checks set up the other workspace's data through other operations first.
  if (cell.dimension !== 'operations' && cell.dimension !== 'statuses') return false;
  const checks = allChecks().filter((check) => cell.judgedBy.includes(check.id));
  const polling = /202$|cancelRun|createRun 409/.test(cell.id);
  return !polling && checks.every((check) => (check.needs ?? []).every((need) => need === operationId));
}

/**
 * Mutants per matrix cell: each judged stated cell of an operation (its per-operation rules, its declared statuses)
 * broken on that operation alone by the independent server, judged by the cell's own checks.
 */
export function cellMutants(contract: Contract): Mutant[] {
  const mutants = new Map<string, Mutant>();
  const judged = (cell: Cell) => cell.stated && cell.judgedBy.length > 0 && cell.reason === undefined;
  for (const cell of coverageMatrix(contract, allChecks()).filter(judged)) {
    const op = contract.operations.find((o) => o.operationId === cell.operationId);
    if (!op) continue;
    const glob = op.path.replace(/\{[^}]+\}/g, '*');
    let mutation: string | undefined;
    if (cell.dimension === 'operations' && OP_RULES[cell.rule])
      mutation = `op ${OP_RULES[cell.rule]} ${op.method} ${glob}`;
    const status = /^\S+ (\d{3})$/.exec(cell.subject)?.[1];
    if (cell.dimension === 'statuses' && status) mutation = `op status-${status} ${op.method} ${glob}`;
    // The stated channel itself: a valid bearer token refused on the first operation.
    if (cell.id === 'auth-required-401: Authorization: Bearer (the stated channel)') continue;
    const filter = /via (list|export) filter (\w+) /.exec(cell.subject);
    if (cell.rule === 'workspace-scoping' && filter)
      mutation = `${filter[1] === 'list' ? 'list' : 'export'}-filter-unscoped ${filter[2]}`;
    if (cell.rule === 'workspace-scoping' && / via list \(/.test(cell.subject)) mutation = `list-unscoped ${op.path}`;
    if (cell.rule === 'workspace-scoping' && / via batch membership/.test(cell.subject))
      mutation = 'export-filter-unscoped batchUuid';
    if (!mutation) continue;
    const existing = mutants.get(mutation);
    if (existing) {
      existing.cells!.push(cell.id);
      continue;
    }
    mutants.set(mutation, {
      id: mutation,
      source: 'generated',
      breaks: cell.id,
      // The contract's reading of malformed path ids (400), so a 400 of a path is there to break.
      options: {
        mutations: [mutation],
        readings: { ...OPEN_REQUIRED, malformedPathId: 400 },
        ...FAST,
        ...(status === '429' ? SMALL_LIMIT : {}),
      },
      checks: [...new Set([...cell.judgedBy, ...FEEDERS])],
      // Restricted to the operation unless a judging check needs another one to reach it (a cancel needs a create).
      operations: restrictable(cell, op.operationId) ? [op.operationId] : undefined,
      cells: [cell.id],
    });
  }
  // Not the first list: the run's preflight probes that one, and a refused token there ends the run before any check.
  const lists = contract.operations.filter((op) => op.method === 'GET' && !op.path.includes('{'));
  const first = lists[lists.length - 1];
  if (first)
    mutants.set('op bearer-refused', {
      id: `op bearer-refused ${first.method} ${first.path}`,
      source: 'generated',
      breaks: 'auth-required-401: Authorization: Bearer (the stated channel)',
      options: { mutations: [`op bearer-refused ${first.method} ${first.path}`], readings: OPEN_REQUIRED, ...FAST },
      checks: ['valid-requests-are-accepted'],
      cells: ['auth-required-401: Authorization: Bearer (the stated channel)'],
    });
  return [...mutants.values()];
}

export type Mutant = {
  id: string;
  source: 'generated' | 'hand-written';
  /** The contract fact or x-rules id it breaks. */
  breaks: string;
  options: IndependentOptions;
  /** The checks that must catch it (others are not run, to keep the harness fast). */
  checks: string[];
  /** The operations it concerns, when one (`--operations`). */
  operations?: string[];
  /** The coverage-matrix cells it breaks (patterns of cell ids), for the score per cell. */
  cells?: string[];
  /** Settings of the run against it (a short --poll-timeout for a job that never ends). */
  config?: Partial<RunConfig>;
};

export type Variant = { id: string; assumption: string; options: IndependentOptions };

/** A small limit reaches 429 within a few dozen requests. */
const SMALL_LIMIT = { rateLimit: 40, windowSeconds: 10 };
const FAST = { runDurationMs: 300 };

const OPEN_REQUIRED = { requireMcpName: false, putReplaces: false };
const REQUEST_CHECKS = ['invalid-requests-are-rejected-with-400', 'stated-lengths-count-characters'];

/** The independent server's rule key for an invalid case: `<operationId> <location>:<field>:<keyword>`. */
function ruleKey(operationId: string, location: string, path: string, breaks: string): string {
  const field = path.replace(/\[\d+\]/g, '[]');
  if (location === 'body')
    return field === '' ? `${operationId} body:body:type` : `${operationId} body:${field}:${breaks}`;
  return `${operationId} ${location}:${field}:${breaks}`;
}

/** Mutants generated from the contract: each stated request rule switched off once, each header dropped, each stated status changed. */
export function generatedMutants(contract: Contract): { mutants: Mutant[]; equivalent: string[] } {
  const mutants = new Map<string, Mutant>();
  const equivalent = new Set<string>();
  for (const op of contract.operations) {
    for (const invalid of invalidRequestsOf(op)) {
      if (invalid.location === 'header') continue; // Idempotency-Key: its length rule is a hand-written mutant
      if (assumedAt(op, invalid.location, invalid.path)) continue; // assumed, not stated: breaking it is no defect
      const key = ruleKey(op.operationId, invalid.location, invalid.path, invalid.breaks);
      // Without the uuid rule a malformed path id names nothing and 404 answers: a named reading, an equivalent mutant.
      if (invalid.location === 'path') {
        equivalent.add(key);
        continue;
      }
      // With the contract's reading of required fields, so that no other refusal (a missing name) hides the broken rule.
      const cell = `request-validation: ${op.operationId} ${invalid.location}:${invalid.path || 'body'}:${invalid.breaks}`;
      if (mutants.has(key)) mutants.get(key)!.cells!.push(cell);
      else
        mutants.set(key, {
          cells: [cell],
          id: key,
          source: 'generated',
          breaks: `${op.operationId} ${invalid.path || 'body'} ${invalid.breaks}`,
          options: { mutations: [key], readings: OPEN_REQUIRED, ...FAST },
          checks: REQUEST_CHECKS,
          operations: [op.operationId],
        });
    }
  }
  const headers = Object.keys((contract.resolve('#/components/headers') as Record<string, unknown>) ?? {});
  for (const name of headers.filter((h) => /ratelimit/i.test(h)))
    mutants.set(`drop-header ${name}`, {
      id: `drop-header ${name}`,
      source: 'generated',
      breaks: `header ${name} on every response`,
      options: { mutations: [`drop-header ${name}`] },
      cells: ['ratelimit-headers-every-response: *'],
      checks: ['every-response-carries-rate-limit-headers'],
    });
  // Each write served without its idempotency: a retry creates anew, a reused key is accepted.
  for (const op of contract.operations.filter((o) => ['POST', 'PUT', 'PATCH'].includes(o.method))) {
    const id = `idempotency-ignored ${op.path.replace(/\{[^}]+\}/g, '*')}`;
    mutants.set(id, {
      id,
      source: 'generated',
      breaks: `idempotency on ${op.operationId}`,
      options: { mutations: [id], readings: OPEN_REQUIRED, ...FAST },
      checks: [
        'replayed-request-returns-original-response',
        'every-write-replays-its-original-response',
        'every-write-refuses-a-reused-key-with-422',
      ],
      cells: [`idempotency-replay: ${op.operationId}`, `idempotency-key-reuse-422: ${op.operationId}`],
    });
  }
  if (headers.includes('Location'))
    mutants.set('drop-header Location', {
      id: 'drop-header Location',
      source: 'generated',
      breaks: 'header Location on 202',
      options: { mutations: ['drop-header Location'], ...FAST },
      cells: ['async-202-location: * create'],
      checks: ['async-create-answers-202-with-location'],
    });
  if (headers.includes('Retry-After'))
    mutants.set('429-without-retry-after', {
      id: '429-without-retry-after',
      source: 'generated',
      breaks: 'header Retry-After on 429',
      options: { mutations: ['429-without-retry-after'], ...SMALL_LIMIT },
      cells: ['ratelimit-429-retry-after: Retry-After in integer seconds on 429'],
      checks: ['too-many-requests-carry-retry-after'],
    });
  const statuses: Array<[string, string[], IndependentOptions]> = [
    ['401', ['requests-without-valid-credential-get-401'], {}],
    ['429', ['too-many-requests-carry-retry-after'], SMALL_LIMIT],
    ['202', ['async-create-answers-202-with-location'], FAST],
  ];
  for (const [status, checks, extra] of statuses) {
    const stated = contract.operations.some(
      (op) => op.responses[status] !== undefined && jsonContent(op.responses[status].content) !== undefined,
    );
    if (stated)
      mutants.set(`status ${status}`, {
        id: `status ${status}`,
        source: 'generated',
        breaks: `status ${status} answered as another`,
        options: { mutations: [`status ${status}`], ...extra },
        checks,
      });
  }
  return { mutants: [...mutants.values()], equivalent: [...equivalent] };
}

const hand = (
  id: string,
  breaks: string,
  checks: string[],
  options: IndependentOptions & Partial<Pick<RunConfig, 'pollTimeoutMs'>> = {},
): Mutant => {
  const { pollTimeoutMs, ...server } = options;
  return {
    id,
    source: 'hand-written',
    breaks,
    checks,
    options: { mutations: [id], readings: OPEN_REQUIRED, ...FAST, ...server },
    config: pollTimeoutMs === undefined ? undefined : { pollTimeoutMs },
  };
};

/** Realistic defects, each breaking one stated rule once. */
export const HAND_WRITTEN: Mutant[] = [
  hand('sql-executes-writes', 'query-read-only-scoped', ['sql-query-is-read-only']),
  ...['logs', 'runs', 'batches', 'records', 'spans'].map((table) =>
    hand(`sql-table-unscoped ${table}`, 'query-read-only-scoped', ['sql-query-is-scoped-per-table']),
  ),
  ...Object.keys(SQL_FORMS)
    .filter((form) => form !== 'bare')
    .map((form) => hand(`sql-form-unscoped ${form}`, 'query-read-only-scoped', ['sql-query-is-scoped-per-table'])),
  // Defects that live in sequences or in the shape of a statement: the model phase alone must catch them.
  hand('sql-scope-appended', 'query-read-only-scoped', [MODEL_CHECK]),
  hand('batch-runs-duplicated-on-replay', 'idempotency-replay', [MODEL_CHECK]),
  ...['export-includes-other-workspaces'].map((id) =>
    hand(id, 'workspace-scoping', ['filters-and-exports-stay-in-the-workspace']),
  ),
  hand('runs-readable-cross-workspace', 'workspace-scoping', ['workspaces-do-not-see-each-other']),
  hand('batches-readable-cross-workspace', 'workspace-scoping', ['workspaces-do-not-see-each-other']),
  hand('workflows-readable-cross-workspace', 'workspace-scoping', ['workspaces-do-not-see-each-other']),
  hand('models-readable-cross-workspace', 'workspace-scoping', ['workspaces-do-not-see-each-other']),
  hand('cancel-cross-workspace', 'workspace-scoping', ['workspaces-do-not-see-each-other']),
  hand('token-prefix-accepted', 'auth-required-401', ['requests-without-valid-credential-get-401']),
  hand('token-suffix-accepted', 'auth-required-401', ['requests-without-valid-credential-get-401']),
  hand('token-case-insensitive', 'auth-required-401', ['requests-without-valid-credential-get-401']),
  hand('endpoint-without-auth', 'auth-required-401', ['requests-without-valid-credential-get-401']),
  ...[
    'token-in-query-accepted',
    'token-in-cookie-accepted',
    'token-in-other-header-accepted',
    'basic-accepted',
    'validation-before-auth',
  ].map((id) => hand(id, 'auth-required-401', ['requests-without-valid-credential-get-401'])),
  hand('401-without-rate-limit-headers', 'ratelimit-headers-every-response', [
    'requests-without-valid-credential-get-401',
  ]),
  hand('reasons-first-value-only', 'list-filters-and-count', ['list-filters-select-and-count']),
  hand('count-ignores-filter', 'list-filters-and-count', ['list-filters-select-and-count']),
  hand('count-is-page-length', 'list-filters-and-count', ['list-filters-select-and-count']),
  hand('length-in-utf16', 'request-validation', ['stated-lengths-count-characters']),
  hand('query-length-unchecked', 'request-validation', ['stated-lengths-count-characters']),
  hand('pattern-allows-gt', 'request-validation', ['stated-lengths-count-characters']),
  hand('loose listSuppressions query:limit:maximum', 'request-validation (limit 1001 accepted)', REQUEST_CHECKS),
  hand('loose createMcpServer body:name:maxLength', 'request-validation (name of 256 accepted)', REQUEST_CHECKS),
  hand(
    'loose updateCurrentWorkspace body:name:maxLength',
    'request-validation (workspace name of 256 accepted)',
    REQUEST_CHECKS,
  ),
  hand('limit-zero-accepted', 'request-validation (limit 0 accepted)', REQUEST_CHECKS),
  hand('concurrent-retry-waits', 'idempotency-concurrent-409', ['concurrent-same-key-requests-create-one-record']),
  hand('replay-drops-location', 'idempotency-replay', ['replayed-request-returns-original-response']),
  hand('replay-creates-new-record', 'idempotency-replay', ['replayed-request-returns-original-response']),
  hand('key-reuse-accepted', 'idempotency-key-reuse-422', ['reused-key-with-changed-request-gets-422']),
  hand('overlong-key-accepted', 'idempotency-key-length', ['overlong-idempotency-key-gets-400']),
  hand('multipart-key-accepted', 'idempotency-no-multipart', ['multipart-request-with-idempotency-key-gets-400']),
  hand('retry-after-on-202', 'ratelimit-429-retry-after', [
    'async-create-answers-202-with-location',
    'every-response-carries-rate-limit-headers',
  ]),
  hand('location-without-v1', 'async-202-location', ['async-create-answers-202-with-location']),
  hand('run-leaves-terminal', 'async-poll-terminal', ['polled-job-ends-terminal-and-stays-terminal']),
  ...['cancel-reopens-finished-run', 'batch-finishes-completed'].map((id) =>
    hand(id, 'async-poll-terminal', ['polled-job-ends-terminal-and-stays-terminal']),
  ),
  hand('wait-false-answers-200', 'async-202-location', ['async-create-answers-202-with-location']),
  hand('cancel-answers-200', 'async-202-location', ['async-create-answers-202-with-location']),
  ...['run-never-finishes', 'run-finishes-outside-set', 'wait-true-answers-202', 'batch-leaves-terminal'].map((id) =>
    hand(id, 'async-poll-terminal', ['polled-job-ends-terminal-and-stays-terminal'], { pollTimeoutMs: 3000 }),
  ),
  ...['remaining-constant', 'remaining-off-by-one'].map((id) =>
    hand(
      id,
      'ratelimit-headers-every-response',
      ['every-response-carries-rate-limit-headers', 'too-many-requests-carry-retry-after'],
      SMALL_LIMIT,
    ),
  ),
  hand(
    'retry-after-in-milliseconds',
    'ratelimit-429-retry-after',
    ['every-response-carries-rate-limit-headers', 'too-many-requests-carry-retry-after'],
    SMALL_LIMIT,
  ),
  hand('rate-limit-shared-across-workspaces', 'ratelimit-headers-every-response', [
    'requests-are-counted-per-workspace',
  ]),
  hand('no-429', 'ratelimit-429-retry-after', ['too-many-requests-carry-retry-after'], SMALL_LIMIT),
  hand('framework-error-body', 'error-shape', [
    'invalid-requests-are-rejected-with-400',
    'error-responses-use-the-error-shape',
  ]),
  hand('framework-404-page', 'error-shape', ['responses-match-the-contract', 'error-responses-use-the-error-shape']),
  hand('body-parser-defaults', 'error-shape', [
    'invalid-requests-are-rejected-with-400',
    'error-responses-use-the-error-shape',
  ]),
  hand('error-body-message-key', 'error-shape', [
    'invalid-requests-are-rejected-with-400',
    'error-responses-use-the-error-shape',
  ]),
  hand('suppression-extra-field', 'response-conformance', ['responses-match-the-contract']),
  hand('deprecation-header', 'deprecation-sunset', [
    'responses-match-the-contract',
    'deprecation-and-sunset-headers-are-valid',
  ]),
];

/** The matrix cells each hand-written mutant breaks (patterns of cell ids). */
const HAND_CELLS: Array<[RegExp, (id: string) => string[]]> = [
  [/^sql-executes-writes$/, () => ['query-read-only-scoped: write statements refused']],
  [/^sql-table-unscoped /, (id) => [`query-read-only-scoped: ${id.split(' ')[1]} bare`]],
  [/^sql-form-unscoped /, (id) => [`query-read-only-scoped: * ${id.slice('sql-form-unscoped '.length)}`]],
  [/^sql-scope-appended$/, () => ['query-read-only-scoped: * OR', 'query-read-only-scoped: * precedence']],
  [/^batch-runs-duplicated-on-replay$/, () => ['idempotency-replay: createBatch']],
  [/^runs-readable/, () => ['workspace-scoping: run via get*']],
  [/^batches-readable/, () => ['workspace-scoping: batch via get*']],
  [/^workflows-readable/, () => ['workspace-scoping: workflow via get*']],
  [/^models-readable/, () => ['workspace-scoping: model via get*']],
  [/^cancel-cross-workspace$/, () => ['workspace-scoping: run via cancel*']],
  [/^export-includes/, () => ['workspace-scoping: run via export (*)']],
  [/^export-filter-unscoped uuids$/, () => ['workspace-scoping: run via export filter uuids*']],
  [/^list-filter-unscoped reasons$/, () => ['workspace-scoping: suppression via list filter reasons*']],
  [/^token-(prefix|suffix|case)/, () => ['auth-required-401: Authorization: near misses of the token']],
  [/^token-in-query/, () => ['auth-required-401: query ?access_token=', 'auth-required-401: query ?token=']],
  [/^token-in-cookie/, () => ['auth-required-401: cookie']],
  [/^token-in-other-header/, () => ['auth-required-401: another header']],
  [/^basic-accepted$/, () => ['auth-required-401: Authorization: another scheme']],
  [/^cancel-answers-200$/, () => ['async-202-location: run cancel before terminal']],
  [/^run-never-finishes$/, () => ['async-poll-terminal: run poll to a terminal status']],
  [/^run-finishes-outside-set$/, () => ['async-poll-terminal: run terminal status in the terminal set']],
  [/^wait-true-answers-202$/, () => ['async-poll-terminal: run waitUntilFinished true']],
  [/^batch-leaves-terminal$/, () => ['async-poll-terminal: batch stays terminal', 'async-poll-terminal: batch poll*']],
  [/^validation-before-auth$/, () => ['auth-required-401: no credential, invalid request']],
  [/^endpoint-without-auth$/, () => ['auth-required-401: listRecipes']],
  [/^401-without-rate-limit-headers$/, () => ['auth-required-401: no credential']],
  [/^(reasons-first-value-only|count-)/, () => ['list-filters-and-count: listSuppressions reasons']],
  [/^length-in-utf16$/, () => ['request-validation: * body:name:maxLength']],
  [/^query-length-unchecked$/, () => ['request-validation: executeQuery body:query:maxLength']],
  [/^pattern-allows-gt$/, () => ['request-validation: updateCurrentWorkspace body:name:pattern']],
  [/^loose /, (id) => [`request-validation: ${id.split(' ')[1]} ${id.split(' ')[2]}`]],
  [/^limit-zero-accepted$/, () => ['request-validation: listSuppressions query:limit:minimum']],
  [
    /^concurrent-retry-waits$/,
    () => ['idempotency-concurrent-409: createRun', 'idempotency-concurrent-409: createMcpServer'],
  ],
  [/^replay-(drops-location|creates-new-record)$/, () => ['idempotency-replay: createMcpServer']],
  [/^key-reuse-accepted$/, () => ['idempotency-key-reuse-422: createMcpServer']],
  [/^overlong-key-accepted$/, () => ['idempotency-key-length: *']],
  [/^multipart-key-accepted$/, () => ['idempotency-no-multipart: *']],
  [/^retry-after-on-202$/, () => ['ratelimit-429-retry-after: Retry-After on 429 only']],
  [/^location-without-v1$/, () => ['async-202-location: run create', 'async-202-location: batch create']],
  [/^run-leaves-terminal$/, () => ['async-poll-terminal: run stays terminal']],
  [/^cancel-reopens-finished-run$/, () => ['async-poll-terminal: run cancel after terminal']],
  [/^batch-finishes-completed$/, () => ['async-poll-terminal: batch terminal status in the terminal set']],
  [/^wait-false-answers-200$/, () => ['async-202-location: run waitUntilFinished false']],
  [/^remaining-constant$/, () => ['ratelimit-headers-every-response: a 429 never follows*']],
  [/^remaining-off-by-one$/, () => ['ratelimit-headers-every-response: RateLimit-Remaining counts*']],
  [/^retry-after-in-milliseconds$/, () => ['ratelimit-429-retry-after: Retry-After within the window']],
  [/^no-429$/, () => ['ratelimit-429-retry-after: Retry-After in integer seconds on 429']],
  [/^(framework-|body-parser|error-body)/, () => ['error-shape: *']],
  [/^suppression-extra-field$/, () => ['response-conformance: listSuppressions 200']],
  [/^deprecation-header$/, () => ['deprecation-sunset: *', 'version-in-path: *']],
];

/** The cells a mutant breaks: its own list, or the hand-written table's. */
export function cellsOf(mutant: Mutant): string[] {
  return (
    mutant.cells ?? HAND_CELLS.filter(([pattern]) => pattern.test(mutant.id)).flatMap(([, cells]) => cells(mutant.id))
  );
}

/** The contract's own reading of each open point where the independent server takes the other one. */
const CONTRACT_READINGS: { [K in keyof Readings]: [Readings[K], string] } = {
  malformedPathId: [400, 'request-validation: a request breaking a stated rule is taken to be the 400 "bad request"'],
  requireMcpName: [false, 'CreateMcpServerRequest: required fields of the request body are not shown'],
  putReplaces: [false, 'UpdateWorkspaceRequest: whether omitted fields are left unchanged is not shown'],
  limiter: ['fixed', 'ratelimit-headers-every-response: the window and its shape are not shown'],
  location: ['absolute', 'Location: a URI reference, resolved against the request URL'],
  mcpCreatedStatus: [200, 'createMcpServer: the success status is not shown; 200 and 201 are accepted'],
  retryAfterInBody: [true, 'Error.retryAfter: given "for example"'],
  extraFields: [false, 'unknown-fields-ignored: objects other than the Suppression are open'],
  pageSize: [1000, 'listSuppressions: default values for limit and offset are not shown'],
};

/** The independent server as it is, and one variant per open point switched to the contract's reading. */
export function correctVariants(): Variant[] {
  const variants: Variant[] = [
    {
      id: 'independent (its own readings)',
      assumption: 'every open point read otherwise than the contract',
      options: {},
    },
  ];
  for (const [key, [value, assumption]] of Object.entries(CONTRACT_READINGS) as Array<
    [keyof Readings, [never, string]]
  >) {
    if (DEFAULT_READINGS[key] === value) continue;
    variants.push({ id: `${key}=${String(value)}`, assumption, options: { readings: { [key]: value } } });
  }
  return variants;
}
