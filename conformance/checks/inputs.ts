/**
 * What a check reads from the contract, declared in the check beside `needs` and `covers`: the operations it
 * exercises (a predicate over the normalised operation) and the parts of them whose change can alter its verdict.
 * The diff's impact (scripts/lib/diff/impact.ts) lists a check under a change when both the change's operation and
 * its part are among the check's inputs; each change of the diff carries its part, so nothing parses its wording.
 */
import {
  findParameter,
  IDEMPOTENCY_KEY_HEADER,
  RATE_LIMIT_HEADER_NAMES,
  RETRY_AFTER_HEADER,
  type Operation,
} from '../../spec/lib';

/** The part of an operation a change touches (and a check may read). */
export type OperationPart =
  | { kind: 'operation' } // added, removed, moved, the base path: everything that exercises it
  | { kind: 'parameter'; in: string; name: string }
  | { kind: 'request-body'; mediaType?: string; field?: string }
  | { kind: 'response'; status: string; mediaType?: string; field?: string }
  | { kind: 'response-header'; status: string; name: string }
  | { kind: 'security' }
  | { kind: 'lifecycle' }
  | { kind: 'documentation' } // read by no check
  | { kind: 'component' }; // a named type of generated clients, not what goes over the wire: read by no check

export type PartKind = OperationPart['kind'];

/** A status key of `responses` (`200`, `4XX`, `default`), a class of them (`2XX`), or `*` for any. */
export type StatusPattern = `${1 | 2 | 3 | 4 | 5}XX` | `${number}` | 'default' | '*';

/** What the contract calls an error answer: every 4xx and 5xx, and a `default` response. */
export const ERROR_STATUSES: StatusPattern[] = ['4XX', '5XX', 'default'];

/** The rate-limit headers and Retry-After, named once in spec/lib. */
export const RATE_LIMIT_HEADERS: readonly string[] = [...RATE_LIMIT_HEADER_NAMES, RETRY_AFTER_HEADER];

export type CheckInputs = {
  /** The operations it exercises, given every operation of the contract; `all` for every one. */
  operations: 'all' | ((op: Operation, all: readonly Operation[]) => boolean);
  /** The parts of them it reads; a change to any other part cannot alter its verdict. */
  reads: {
    /** Whole parts: any change to them. */
    parts?: PartKind[];
    /** Responses of these statuses: their status, bodies and headers. */
    responses?: StatusPattern[];
    /** Only the status itself (added, removed, a media type, the body's top level), not the fields of its body. */
    statuses?: StatusPattern[];
    /** Headers by name, case-insensitive: request header parameters and response headers. */
    headers?: readonly string[];
  };
};

export function statusMatches(pattern: StatusPattern, status: string): boolean {
  if (pattern === '*') return true;
  if (/^[1-5]XX$/.test(pattern)) return status.startsWith(pattern[0]);
  return pattern === status;
}

/** Does a check reading `reads` read this part? */
export function readsPart(reads: CheckInputs['reads'], part: OperationPart): boolean {
  if (reads.parts?.includes(part.kind)) return true;
  if (part.kind === 'response' || part.kind === 'response-header') {
    if (reads.responses?.some((p) => statusMatches(p, part.status))) return true;
    if (
      part.kind === 'response' &&
      part.field === undefined &&
      reads.statuses?.some((p) => statusMatches(p, part.status))
    )
      return true;
  }
  if (part.kind === 'response-header' || part.kind === 'parameter') {
    const name = part.name.toLowerCase();
    if (reads.headers?.some((h) => h.toLowerCase() === name)) return true;
  }
  return false;
}

/** Does a check with these inputs exercise this operation (of `all`)? */
export function exercises(inputs: CheckInputs, op: Operation, all: readonly Operation[]): boolean {
  return inputs.operations === 'all' || inputs.operations(op, all);
}

// Shapes of operations, for the checks' `inputs.operations`.

export const named =
  (...ids: string[]) =>
  (op: Operation): boolean =>
    ids.includes(op.operationId);

/** Declares the Idempotency-Key header (the contract's writes). */
export const declaresIdempotencyKey = (op: Operation): boolean =>
  findParameter(op, 'header', IDEMPOTENCY_KEY_HEADER) !== undefined;

export const hasRequestBody = (op: Operation): boolean => op.requestBody !== undefined;

export const hasPathParameter = (op: Operation): boolean => /\{[^}]+\}/.test(op.path);

export const isMultipart = (op: Operation): boolean =>
  (op.requestBody?.contentTypes ?? []).some((type) => type.startsWith('multipart/'));

const shapeOf = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
const answers202 = (op: Operation) => '202' in op.responses;

/** Operations answering 202 and the GETs that poll what they start (`POST /runs` → `GET /runs/{uuid}`). */
export function startsOrPollsJob(op: Operation, all: readonly Operation[]): boolean {
  if (answers202(op)) return true;
  if (op.method !== 'GET') return false;
  return all.some(
    (create) =>
      answers202(create) &&
      [`${shapeOf(create.path)}/{}`, shapeOf(create.path).replace(/\/[^/{}]+$/, '')].includes(shapeOf(op.path)),
  );
}
