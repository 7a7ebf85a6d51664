// What each conformance check reads from the contract: the operations it exercises and the parts of them whose
// change can alter its verdict. The checks declare a rule id but not their inputs, so the inputs are written down
// here, one entry per check (a test fails when a registered check has none), read from each check's source.
// A change is listed under a check only when both its operation and its part are among the check's inputs.

import { asObject } from '../../../spec/lib/json';
import { effectiveParameters, type OperationRef } from '../../../spec/lib/document';
import type { Change } from './change';

/** The part of an operation a change touches, read from its rule and location. */
export type ChangePart =
  | { kind: 'operation' } // added, removed, moved: everything that exercises it
  | { kind: 'parameter'; in: string; name: string }
  | { kind: 'request-body'; field?: string }
  | { kind: 'response'; status: string; field?: string }
  | { kind: 'response-header'; status: string; name: string }
  | { kind: 'security' }
  | { kind: 'lifecycle' }
  | { kind: 'documentation' };

const WHOLE_OPERATION = new Set([
  'path-removed',
  'path-added',
  'operation-removed',
  'operation-added',
  'operation-removed-after-sunset',
  'server-url-changed',
]);

export function partOfChange(change: Change): ChangePart {
  if (WHOLE_OPERATION.has(change.rule)) return { kind: 'operation' };
  const { location } = change;
  if (/^(operation|path)-(deprecated|reactivated|sunset)/.test(change.rule) || location === 'deprecated')
    return { kind: 'lifecycle' };
  const field = (text: string) => (text.includes(' › ') ? text.slice(text.indexOf(' › ') + 3) : undefined);
  let m = /^parameter (\w+) (\S+)/.exec(location);
  if (m) return { kind: 'parameter', in: m[1], name: m[2] };
  if (location.startsWith('request body')) return { kind: 'request-body', field: field(location) };
  m = /^response (\S+) header (\S+)/.exec(location);
  if (m) return { kind: 'response-header', status: m[1], name: m[2] };
  m = /^response (\S+)/.exec(location);
  if (m) return { kind: 'response', status: m[1], field: field(location) };
  if (location === 'security' || location.startsWith('securitySchemes')) return { kind: 'security' };
  if (['operationId', 'summary', 'description', 'tags'].includes(location)) return { kind: 'documentation' };
  return { kind: 'operation' };
}

type Inputs = {
  /** The operations the check exercises. */
  operations: (op: OperationRef, all: OperationRef[]) => boolean;
  /** The parts of them it reads. */
  reads: (part: ChangePart) => boolean;
};

const isError = (status: string) => /^[45]/.test(status) || status === 'default';
const isSuccess = (status: string) => /^2/.test(status);
const named =
  (...ids: string[]) =>
  (op: OperationRef) =>
    ids.includes(String(op.operation.operationId));
const every = () => true;
const hasIdempotencyKey = (op: OperationRef) =>
  effectiveParameters(op).some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
const hasBody = (op: OperationRef) => op.operation.requestBody !== undefined;
const isMultipart = (op: OperationRef) =>
  Object.keys(asObject(asObject(op.operation.requestBody).content)).some((t) => t.startsWith('multipart/'));
const hasPathParameter = (op: OperationRef) => /\{[^}]+\}/.test(op.path);
const shapeOf = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
/** Operations answering 202 and the GETs that poll what they start (`POST /runs` → `GET /runs/{uuid}`). */
const asyncOrPoll = (op: OperationRef, all: OperationRef[]) => {
  if ('202' in asObject(op.operation.responses)) return true;
  if (op.method !== 'get') return false;
  return all.some(
    (create) =>
      '202' in asObject(create.operation.responses) &&
      [`${shapeOf(create.path)}/{}`, shapeOf(create.path).replace(/\/[^/{}]+$/, '')].includes(shapeOf(op.path)),
  );
};
const part =
  (...kinds: ChangePart['kind'][]) =>
  (p: ChangePart) =>
    kinds.includes(p.kind);
const or =
  (...tests: Array<(p: ChangePart) => boolean>) =>
  (p: ChangePart) =>
    tests.some((t) => t(p));
const status = (test: (s: string) => boolean) => (p: ChangePart) =>
  (p.kind === 'response' || p.kind === 'response-header') && test(p.status);
/** The status itself (added, removed, a media type), not what its body holds. */
const statusCode = (test: (s: string) => boolean) => (p: ChangePart) =>
  p.kind === 'response' && p.field === undefined && test(p.status);
const header = (pattern: RegExp) => (p: ChangePart) =>
  (p.kind === 'response-header' && pattern.test(p.name)) || (p.kind === 'parameter' && pattern.test(p.name));
const request = part('parameter', 'request-body');
const RATE_LIMIT = /^(ratelimit|x-ratelimit|retry-after)/i;
const IDEMPOTENCY = /^idempotency-key$/i;

/** Check id → its inputs. */
export const CHECK_INPUTS: Record<string, Inputs> = {
  // Validates every response (status, headers, body) against the contract.
  'responses-match-the-contract': { operations: every, reads: part('operation', 'response', 'response-header') },
  'requests-without-valid-credential-get-401': {
    operations: (op) => op.operation.security === undefined || (op.operation.security as unknown[]).length > 0,
    reads: or(
      part('operation', 'security'),
      status((s) => s === '401'),
    ),
  },
  // Sends generated valid requests and expects a success status.
  'valid-requests-are-accepted': { operations: every, reads: or(part('operation'), request, statusCode(isSuccess)) },
  'invalid-requests-are-rejected-with-400': {
    operations: (op) => hasBody(op) || effectiveParameters(op).length > 0,
    reads: or(part('operation'), request, status(isError)),
  },
  'malformed-or-oversized-bodies-get-4xx': {
    operations: hasBody,
    reads: or(part('operation', 'request-body'), status(isError)),
  },
  'undeclared-methods-are-refused': { operations: every, reads: part('operation') },
  'list-filters-select-and-count': {
    operations: named('listSuppressions'),
    reads: or(part('operation', 'parameter'), status(isSuccess)),
  },
  'stated-lengths-count-characters': {
    operations: named('createMcpServer', 'executeQuery', 'updateCurrentWorkspace'),
    reads: or(
      part('operation', 'request-body'),
      statusCode((s) => s === '400'),
    ),
  },
  'async-create-answers-202-with-location': {
    operations: asyncOrPoll,
    reads: or(
      part('operation'),
      status((s) => s === '202'),
      header(/^location$/i),
      statusCode(isSuccess),
    ),
  },
  'polled-job-ends-terminal-and-stays-terminal': {
    operations: asyncOrPoll,
    reads: or(part('operation'), status(isSuccess)),
  },
  'replayed-request-returns-original-response': {
    operations: hasIdempotencyKey,
    reads: or(part('operation', 'request-body'), header(IDEMPOTENCY), status(isSuccess)),
  },
  'reused-key-with-changed-request-gets-422': {
    operations: hasIdempotencyKey,
    reads: or(
      part('operation', 'request-body'),
      header(IDEMPOTENCY),
      status((s) => s === '422'),
    ),
  },
  // The same rules on every write the contract declares (not only createMcpServer).
  'every-write-replays-its-original-response': {
    operations: hasIdempotencyKey,
    reads: or(part('operation', 'request-body'), header(IDEMPOTENCY), status(isSuccess)),
  },
  'every-write-refuses-a-reused-key-with-422': {
    operations: hasIdempotencyKey,
    reads: or(
      part('operation', 'request-body'),
      header(IDEMPOTENCY),
      status((s) => s === '422'),
    ),
  },
  'concurrent-same-key-requests-create-one-record': {
    operations: hasIdempotencyKey,
    reads: or(
      part('operation', 'request-body'),
      header(IDEMPOTENCY),
      status((s) => s === '409' || isSuccess(s)),
    ),
  },
  'overlong-idempotency-key-gets-400': {
    operations: hasIdempotencyKey,
    reads: or(
      part('operation'),
      header(IDEMPOTENCY),
      statusCode((s) => s === '400'),
    ),
  },
  'multipart-request-with-idempotency-key-gets-400': {
    operations: (op, all) => (all.some(isMultipart) ? isMultipart(op) : hasIdempotencyKey(op)),
    reads: or(
      part('operation', 'request-body'),
      header(IDEMPOTENCY),
      statusCode((s) => s === '400'),
    ),
  },
  // Reads another workspace's resources by id and lists: 404s and what lists show.
  'workspaces-do-not-see-each-other': {
    operations: (op) => hasPathParameter(op) || op.method === 'get',
    reads: or(
      part('operation', 'security'),
      status((s) => s === '404'),
      statusCode(isSuccess),
    ),
  },
  // Lists filtered by each of their query parameters, and the export with each of its filters, as two workspaces.
  'filters-and-exports-stay-in-the-workspace': {
    operations: (op) => (op.method === 'get' && !hasPathParameter(op)) || op.operation.operationId === 'downloadRuns',
    reads: or(part('operation', 'security'), request, statusCode(isSuccess)),
  },
  'sql-query-is-read-only': {
    operations: named('executeQuery'),
    reads: or(part('operation', 'request-body'), status(isSuccess)),
  },
  'sql-query-is-scoped-per-table': {
    operations: named('executeQuery'),
    reads: or(part('operation', 'request-body'), status(isSuccess)),
  },
  'requests-are-counted-per-workspace': { operations: every, reads: or(part('operation'), header(RATE_LIMIT)) },
  'every-response-carries-rate-limit-headers': { operations: every, reads: or(part('operation'), header(RATE_LIMIT)) },
  'too-many-requests-carry-retry-after': {
    operations: every,
    reads: or(
      part('operation'),
      header(RATE_LIMIT),
      status((s) => s === '429'),
    ),
  },
  'error-responses-use-the-error-shape': { operations: every, reads: or(part('operation'), status(isError)) },
  'deprecation-and-sunset-headers-are-valid': {
    operations: (op) => op.operation.deprecated === true,
    reads: or(part('operation', 'lifecycle'), header(/^(deprecation|sunset)$/i)),
  },
  'no-request-gets-a-server-error': { operations: every, reads: or(part('operation'), request) },
  'responses-arrive-within-max-response-time': { operations: every, reads: part('operation') },
  // Random command sequences over every operation and both workspaces, checked against a model of the stated rules
  // (replays, key reuse, scoping, polling, 401, filters, SQL, 429): what requests it builds and what it reads back.
  'stated-rules-hold-across-command-sequences': {
    operations: every,
    reads: or(
      part('operation', 'security', 'request-body'),
      header(IDEMPOTENCY),
      header(RATE_LIMIT),
      statusCode(every),
    ),
  },
  // A wrong credential of every kind on every route the contract declares: 401, never an answer.
  'every-route-refuses-a-wrong-credential': {
    operations: every,
    reads: or(
      part('operation', 'security'),
      status((s) => s === '401'),
    ),
  },
};

/** A check without an entry reads everything (and a test names it). */
const EVERYTHING: Inputs = { operations: every, reads: every };

/** The checks whose inputs a change touches, on either side of the diff. */
export function checksOfChange(checkIds: string[], change: Change, sides: OperationRef[][]): string[] {
  const p = partOfChange(change);
  if (p.kind === 'documentation') return [];
  const target = change.operation;
  return checkIds.filter((id) => {
    const inputs = CHECK_INPUTS[id] ?? EVERYTHING;
    if (!inputs.reads(p)) return false;
    return sides.some((ops) =>
      ops.some(
        (op) =>
          (op.key === target || (!target.includes(' ') && op.path === target) || target === '(document)') &&
          inputs.operations(op, ops),
      ),
    );
  });
}
