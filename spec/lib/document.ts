// Small readers of a document as written that are not part of the operation model: how reports name an
// operation, its retirement flag and dates as printed, the server base path. The views the diff read before the
// operation model (operations.ts) stay below as thin delegations to it, until it reads the model itself.
// @see https://spec.openapis.org/oas/v3.1.0#path-item-object

import { asArray, asObject, isObject, type JsonObject } from './json';
import {
  listOperations,
  mergeParameters,
  readParameterObject,
  securityInForce,
  type HttpMethod,
  type Operation,
  type ParameterObject,
} from './operations';

/** @deprecated Import `ParameterObject` from the operation model (`./operations`), where it is declared. */
export type { ParameterObject };

/**
 * An Operation Object with its path item, as the diff reads it.
 * @deprecated Read the operation model instead (`listOperations`, `Operation`): `node` is `operation`, `pathItem`
 * is `pathItem`, and `parameters` and `security` are merged there.
 */
export type OperationRef = {
  method: HttpMethod;
  path: string;
  /** `GET /x/{uuid}`: how the operation is named in reports. */
  key: string;
  operation: JsonObject;
  pathItem: JsonObject;
};

/** `GET /x/{uuid}`: how reports name an operation. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

function toOperationRef(operation: Operation): OperationRef {
  const method = operation.method.toLowerCase() as HttpMethod;
  return {
    method,
    path: operation.path,
    key: operationKey(method, operation.path),
    operation: operation.node,
    pathItem: operation.pathItem,
  };
}

/**
 * Every Operation Object of a dereferenced document, in document order.
 * @deprecated Use `listOperations(document)`, the operation model; this maps it to the older shape.
 */
export function listOperationObjects(api: JsonObject): OperationRef[] {
  return listOperations(api).map(toOperationRef);
}

/**
 * Path-level parameters overridden by operation-level ones of the same name and location (OAS 3.1 §4.8.9).
 * @deprecated Use `Operation.parameters` (each with its Parameter Object as `node`); this calls the same merge.
 */
export function effectiveParameters(ref: Pick<OperationRef, 'operation' | 'pathItem'>): ParameterObject[] {
  return mergeParameters(ref.pathItem.parameters, ref.operation.parameters, readParameterObject);
}

/**
 * Security in force for an operation: its own list, else the document's (OAS 3.1 §4.8.10).
 * @deprecated Use `Operation.security`; this calls the same rule (`securityInForce`).
 */
export function effectiveSecurity(api: JsonObject, operation: JsonObject): JsonObject[] | undefined {
  return securityInForce(api.security, operation.security);
}

export function isDeprecated(operation: unknown): boolean {
  return isObject(operation) && operation.deprecated === true;
}

/** A date as reports print it (`2027-01-01`), or `(none)`. */
export function formatDate(date: Date | undefined): string {
  return date ? date.toISOString().slice(0, 10) : '(none)';
}

/** The path part of the first server URL, server variables substituted by their defaults. */
export function serverBasePath(document: JsonObject): string {
  const server = asObject(asArray(document.servers)[0]);
  if (typeof server.url !== 'string') return '';
  const variables = asObject(server.variables);
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = asObject(variables[name]).default;
    return typeof value === 'string' ? value : whole;
  });
  return url
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\/+$/, '');
}
