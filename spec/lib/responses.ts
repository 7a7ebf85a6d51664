// Which declared response describes a status: the exact code, then its range (`4XX`), then `default`.
// @see https://spec.openapis.org/oas/v3.1.0#responses-object

import type { Operation, ResponseModel } from './operations';

export type DeclaredResponse = { response: ResponseModel; match: 'exact' | 'range' | 'default' };

export function responseFor(operation: Pick<Operation, 'responses'>, status: number): DeclaredResponse | undefined {
  const exact = operation.responses[String(status)];
  if (exact) return { response: exact, match: 'exact' };
  // The specification writes ranges in upper case; lower case is accepted as a lenient reading.
  const range = operation.responses[`${String(status)[0]}XX`] ?? operation.responses[`${String(status)[0]}xx`];
  if (range) return { response: range, match: 'range' };
  const fallback = operation.responses.default;
  return fallback ? { response: fallback, match: 'default' } : undefined;
}
