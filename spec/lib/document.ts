// Small readers of a document as written that are not part of the operation model (operations.ts): how reports
// name an operation, its retirement flag and dates as printed, the server base path.
// @see https://spec.openapis.org/oas/v3.1.0#path-item-object

import { asArray, asObject, isObject, type JsonObject } from './json';

/** `GET /x/{uuid}`: how reports name an operation. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
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
