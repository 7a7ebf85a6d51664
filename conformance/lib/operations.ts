/**
 * Small helpers over the contract's operations: request paths, uuids that exist nowhere, which
 * operations change existing state (and so wait for --allow-writes), and a minimal valid request.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { IDEMPOTENT_WRITE_METHODS, jsonContent, type Operation } from '../../spec/lib';

export { RUN_STATUSES, TERMINAL_STATUSES } from '../../spec/lib';

/** Everything the suite creates carries this prefix in its name, so it is recognisable on a shared server. */
export const NAME_PREFIX = 'conformance-';

/** A random version-4 uuid: valid under the contract's UUID rule and, with overwhelming odds, of nothing. */
export function unknownUuid(): string {
  return randomUUID();
}

export function conformanceName(length = 24): string {
  const tail = randomBytes(16).toString('hex');
  return (NAME_PREFIX + tail).slice(0, Math.max(length, NAME_PREFIX.length + 4));
}

export function fillPath(op: Operation, params: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? unknownUuid()));
}

export function hasPathParameters(op: Operation): boolean {
  return op.path.includes('{');
}

/**
 * Operations that change something that already exists: PUT, PATCH, DELETE, and POST on a resource by id
 * (cancel). Without --allow-writes they are sent only to ids that exist nowhere.
 */
export function changesExistingState(op: Operation): boolean {
  return ['PUT', 'PATCH', 'DELETE'].includes(op.method) || (op.method === 'POST' && hasPathParameters(op));
}

export function acceptsIdempotencyKey(op: Operation): boolean {
  return IDEMPOTENT_WRITE_METHODS.includes(op.method);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON Schema walked by key, as its callers read it
export function requestBodySchema(op: Operation): Record<string, any> | undefined {
  return jsonContent(op.requestBody?.content)?.schema;
}

/** A minimal request the contract accepts, for operations that need a body; names carry the prefix. */
export function minimalBody(op: Operation): unknown {
  const schema = requestBodySchema(op);
  if (!schema && !op.requestBody) return undefined;
  const body: Record<string, unknown> = {};
  const properties = schema?.properties ?? {};
  if (properties.query) body.query = 'SELECT 1';
  if (properties.name) body.name = conformanceName();
  // Runs have no name; their record title makes them recognisable instead.
  if (properties.recordTitle) body.recordTitle = conformanceName();
  for (const name of schema?.required ?? [])
    if (!(name in body)) body[name] = properties[name]?.type === 'string' ? 'x' : {};
  return body;
}

export function successStatuses(op: Operation): number[] {
  return Object.keys(op.responses)
    .filter((key) => /^2\d\d$/.test(key))
    .map(Number);
}
