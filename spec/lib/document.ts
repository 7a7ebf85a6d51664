// Views over a dereferenced document as written (both sides of a diff, lint fixtures, the reference page): its
// Operation Objects with their path items, merged parameters and security in force. The operation model
// (operations.ts) builds on the bundled document instead, with pointers for compiling schemas.
// @see https://spec.openapis.org/oas/v3.1.0#path-item-object

import { asArray, asObject, isObject, type JsonObject } from './json';
import { HTTP_METHODS, parameterKey, type HttpMethod } from './operations';

export type ParameterObject = JsonObject & { name: string; in: string; required?: boolean; schema?: JsonObject };

export type OperationRef = {
  method: HttpMethod;
  path: string;
  /** `GET /x/{uuid}`: how the operation is named in reports. */
  key: string;
  operation: JsonObject;
  pathItem: JsonObject;
};

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** Every Operation Object of a dereferenced document, in document order. */
export function listOperationObjects(api: JsonObject): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(asObject(api.paths))) {
    const pathItem = asObject(item);
    for (const method of HTTP_METHODS) {
      if (isObject(pathItem[method]))
        out.push({
          method,
          path,
          key: operationKey(method, path),
          operation: pathItem[method] as JsonObject,
          pathItem,
        });
    }
  }
  return out;
}

/** Path-level parameters overridden by operation-level ones of the same name and location (OAS 3.1 §4.8.9). */
export function effectiveParameters(ref: Pick<OperationRef, 'operation' | 'pathItem'>): ParameterObject[] {
  const byKey = new Map<string, ParameterObject>();
  for (const raw of [...asArray(ref.pathItem.parameters), ...asArray(ref.operation.parameters)]) {
    if (isObject(raw) && typeof raw.name === 'string' && typeof raw.in === 'string')
      byKey.set(parameterKey(raw as ParameterObject), raw as ParameterObject);
  }
  return [...byKey.values()];
}

/** Security in force for an operation: its own list, else the document's (OAS 3.1 §4.8.10). */
export function effectiveSecurity(api: JsonObject, operation: JsonObject): JsonObject[] | undefined {
  const own = operation.security ?? api.security;
  return Array.isArray(own) ? (own.filter(isObject) as JsonObject[]) : undefined;
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
