// How the spec marks a retirement (contract, Versioning 4-6):
//   deprecated: true
//   x-deprecation: 2026-12-01   # date the Deprecation header announces (ISO 8601 date or date-time, UTC)
//   x-sunset: 2027-06-01        # date the Sunset header announces; ≥ 180 days after x-deprecation
// and every response declares the `Deprecation` and `Sunset` headers. Without `x-sunset`, a header-level
// `example` (an HTTP date) on the operation's `Sunset` header is read instead; schema `examples` of the shared
// component header are generic samples, never an operation's date.

import { asObject, findHeader, isObject, type JsonObject } from './openapi';

export const MIN_SUNSET_GAP_DAYS = 180;

function parseDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value; // YAML may yield Date objects
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  // RFC 9745 also allows `@<epoch seconds>` (a structured-field date).
  const text = String(value).trim();
  const date = /^@\d+$/.test(text) ? new Date(Number(text.slice(1)) * 1000) : new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function headerExample(operation: JsonObject, name: string): Date | undefined {
  for (const response of Object.values(asObject(operation.responses))) {
    const found = findHeader(asObject(response).headers, name);
    if (!found) continue;
    const date = parseDate(found[1].example);
    if (date) return date;
  }
  return undefined;
}

export function sunsetDate(operation: JsonObject): Date | undefined {
  return parseDate(operation['x-sunset']) ?? headerExample(operation, 'Sunset');
}

export function deprecationDate(operation: JsonObject): Date | undefined {
  return parseDate(operation['x-deprecation']) ?? headerExample(operation, 'Deprecation');
}

export function isDeprecated(operation: unknown): boolean {
  return isObject(operation) && operation.deprecated === true;
}

export function formatDate(date: Date | undefined): string {
  return date ? date.toISOString().slice(0, 10) : '(none)';
}
