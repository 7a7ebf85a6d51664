/**
 * The mutants and correct variants of the independent server. Mutants are generated from the contract's stated
 * facts (each request rule the contract states, each rate-limit header, each stated status) and hand-written from
 * realistic defects (one per cross-cutting rule at least, framework defaults, off-by-one bounds, UTF-16 lengths,
 * unscoped tables); correct variants are generated from the open points, each switched to the other reading.
 */
import { jsonContent, type Contract } from '../../spec/lib';
import { invalidRequestsOf } from '../lib/requests';
import { assumedAt } from '../lib/stated';
import { DEFAULT_READINGS, type IndependentOptions, type Readings } from '../independent/server';
import { BROKEN_VARIANTS, type BrokenId, type BrokenVariant } from '../independent/variants';
import { allChecks } from '../checks';
import type { RunConfig } from '../config';
import { coverageMatrix, type Cell } from '../matrix/matrix';
import type { Fixture } from '../fixtures/fixture';
import { readUnscopedHooks } from './read-unscoped';

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
 * broken on that operation alone by the independent server, judged by the cell's own checks; each read by id that
 * answers another workspace's record broken on the mock (read-unscoped.ts).
 */
export function cellMutants(contract: Contract): Mutant[] {
  const mutants = new Map<string, Mutant>();
  const judged = (cell: Cell) => cell.stated && cell.judgedBy.length > 0 && cell.reason === undefined;
  for (const cell of coverageMatrix(contract, allChecks()).filter(judged)) {
    const op = contract.operations.find((o) => o.operationId === cell.operationId);
    if (!op) continue;
    // A read by id (the mock's own handler, so an operation the independent server does not serve is broken too).
    if (cell.rule === 'workspace-scoping' && / via get \(/.test(cell.subject)) {
      const id = `read-unscoped ${op.operationId}`;
      mutants.set(id, {
        id,
        source: 'generated',
        breaks: cell.id,
        options: {},
        mock: readUnscopedHooks(op),
        checks: cell.judgedBy,
        cells: [cell.id],
      });
      continue;
    }
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
      existing.cells = [...cellsOf(existing), cell.id];
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
  /** Instead of the independent server (and its `options`): the mock with these options (its hooks break one rule). */
  mock?: Fixture['options'];
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

type Mutants = Map<string, Mutant>;

/** Each stated request rule switched off once (a path id's are equivalent: a malformed id then names nothing). */
function requestRuleMutants(contract: Contract, mutants: Mutants, equivalent: Set<string>): void {
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
      const existing = mutants.get(key);
      if (existing) existing.cells = [...cellsOf(existing), cell];
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
}

/** Each rate-limit header dropped, each write served without its idempotency, Location and Retry-After dropped. */
function headerMutants(contract: Contract, mutants: Mutants): void {
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
}

/** Each stated status (with a JSON body) answered as another. */
function statusMutants(contract: Contract, mutants: Mutants): void {
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
}

/** Mutants generated from the contract: each stated request rule switched off once, each header dropped, each stated status changed. */
export function generatedMutants(contract: Contract): { mutants: Mutant[]; equivalent: string[] } {
  const mutants: Mutants = new Map();
  const equivalent = new Set<string>();
  requestRuleMutants(contract, mutants, equivalent);
  headerMutants(contract, mutants);
  statusMutants(contract, mutants);
  return { mutants: [...mutants.values()], equivalent: [...equivalent] };
}

/** A hand-written broken variant of the independent server as a mutant, with the settings it needs. */
function hand(id: BrokenId, variant: BrokenVariant): Mutant {
  return {
    id,
    source: 'hand-written',
    breaks: variant.breaks,
    checks: [...variant.checks],
    options: { mutations: [id], readings: OPEN_REQUIRED, ...FAST, ...variant.server },
    cells: [...variant.cells],
    config: variant.pollTimeoutMs === undefined ? undefined : { pollTimeoutMs: variant.pollTimeoutMs },
  };
}

/** Realistic defects, each breaking one stated rule once: the independent server's table of them, in its order. */
export const HAND_WRITTEN: Mutant[] = (Object.entries(BROKEN_VARIANTS) as Array<[BrokenId, BrokenVariant]>).map(
  ([id, variant]) => hand(id, variant),
);

/** The cells a mutant breaks (patterns of cell ids); a generated one without a cell breaks none the matrix names. */
export function cellsOf(mutant: Mutant): string[] {
  return mutant.cells ?? [];
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
