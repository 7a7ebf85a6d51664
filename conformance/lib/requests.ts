/**
 * Generated requests for the request-validation checks, from generators/arbitraries, shaped so that a run is
 * safe on a shared server: names carry the conformance- prefix, queries are read-only SELECTs, writes to
 * existing things go to ids of nothing unless --allow-writes, and no request blocks on waitUntilFinished.
 */
import fc from 'fast-check';
import {
  boundaryValues,
  canonicalRequest,
  invalidRequests,
  requestTarget,
  serializeParameter,
  validRequest,
  type GeneratedRequest,
  type InvalidRequest,
} from '../../generators/arbitraries';
import { changesExistingState, NAME_PREFIX, unknownUuid } from './operations';
import { asObject, jsonContent, type Operation } from '../../spec/lib';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';

export type { GeneratedRequest, InvalidRequest };

/** The Operation Object the generators take, with the parameters merged from its path item. */
function operationObject(op: Operation): Record<string, unknown> {
  return { ...op.node, parameters: op.parameters.map((p) => p.node) };
}

const OPTIONS = { omitHeaders: [IDEMPOTENCY_KEY_HEADER] };

/** A read-only statement of exactly `length` characters (at least the statement itself). */
export function selectOfLength(length: number): string {
  const statement = 'SELECT 1';
  return length <= statement.length ? statement : statement + ' '.repeat(length - statement.length);
}

/** Keeps a generated name's length (so boundaries stay boundaries) while making it recognisable. */
export function prefixedName(name: string): string {
  // Lengths in the contract count code points, so the prefix replaces code points, not UTF-16 units.
  const points = Array.from(name);
  if (points.length >= NAME_PREFIX.length) return NAME_PREFIX + points.slice(NAME_PREFIX.length).join('');
  return NAME_PREFIX.slice(0, Math.max(points.length, 1));
}

/** Applies the safety rules to a request; `valid` tells whether the request is meant to be accepted. */
export function shapeRequest(
  op: Operation,
  request: GeneratedRequest,
  allowWrites: boolean,
  valid: boolean,
): GeneratedRequest {
  const shaped: GeneratedRequest = structuredClone(request);
  if (changesExistingState(op) && !allowWrites)
    for (const name of Object.keys(shaped.pathParams)) if (valid) shaped.pathParams[name] = unknownUuid();
  const body = shaped.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (valid && typeof record.name === 'string') record.name = prefixedName(record.name);
    if (
      typeof record.recordTitle === 'string' ||
      (valid && record.recordTitle === undefined && op.method === 'POST' && hasRecordTitle(op))
    )
      record.recordTitle = prefixedName(
        typeof record.recordTitle === 'string' && record.recordTitle.length > 0 ? record.recordTitle : NAME_PREFIX,
      );
    if (valid && typeof record.query === 'string') record.query = selectOfLength(Array.from(record.query).length);
    // waitUntilFinished blocks for the whole run; the polling checks exercise it once.
    if (record.waitUntilFinished === true) delete record.waitUntilFinished;
  }
  return shaped;
}

function hasRecordTitle(op: Operation): boolean {
  return asObject(jsonContent(op.requestBody?.content)?.schema?.properties).recordTitle !== undefined;
}

export function targetOf(op: Operation, request: GeneratedRequest): string {
  return requestTarget(op.path, request);
}

/** Valid requests of an operation: each boundary (always tried, as examples) and random ones. */
export function validRequests(op: Operation): {
  arbitrary: fc.Arbitrary<GeneratedRequest>;
  boundaries: GeneratedRequest[];
} {
  const arbitrary = validRequest(operationObject(op), [], OPTIONS);
  const base = canonicalRequest(operationObject(op), [], OPTIONS);
  const boundaries: GeneratedRequest[] = [];
  for (const p of op.parameters) {
    if (p.in !== 'query' && p.in !== 'path') continue;
    for (const value of safeBoundaries(p.schema)) {
      const request = structuredClone(base);
      const wire = serializeParameter(p as never, value);
      if (p.in === 'path') request.pathParams[p.name] = wire as string;
      else request.query[p.name] = wire;
      boundaries.push(request);
    }
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) for (const value of safeBoundaries(body)) boundaries.push({ ...structuredClone(base), body: value });
  return { arbitrary, boundaries };
}

function safeBoundaries(schema: unknown): unknown[] {
  if (!schema) return [];
  try {
    return boundaryValues(schema as never);
  } catch {
    return [];
  }
}

export function invalidRequestsOf(op: Operation): InvalidRequest[] {
  return invalidRequests(operationObject(op), [], OPTIONS);
}

/** Whether a request carries a uuid anywhere (path, query or body): a 404 is then an acceptable answer. */
export function mentionsUuid(request: GeneratedRequest): boolean {
  return /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/.test(JSON.stringify(request));
}

/** True when a schema, or any schema nested in it, carries `x-constraints-not-shown` (bounds the contract leaves open). */
function hasOpenConstraints(schema: unknown, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  if (node['x-constraints-not-shown'] === true) return true;
  return Object.values(node).some((child) => hasOpenConstraints(child, seen));
}

/**
 * The names of what a request sets whose valid values the contract does not pin down (query parameters and
 * top-level body fields marked `x-constraints-not-shown`, directly or inside). A server may refuse such values
 * with 400 without breaking a stated rule.
 */
export function openConstraintsTouched(op: Operation, request: GeneratedRequest): string[] {
  const touched = op.parameters
    .filter(
      (p) => (p.node['x-constraints-not-shown'] === true || hasOpenConstraints(p.schema)) && p.name in request.query,
    )
    .map((p) => p.name);
  const properties = op.requestBody?.content?.['application/json']?.schema?.properties as
    Record<string, unknown> | undefined;
  const body = request.body;
  if (properties && body && typeof body === 'object' && !Array.isArray(body)) {
    for (const name of Object.keys(body)) if (hasOpenConstraints(properties[name])) touched.push(name);
  }
  return touched;
}
