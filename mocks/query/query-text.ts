import { ApiError } from '../errors';

/** The contract's limit on `query` (spec: executeQuery), counted in characters like JSON Schema's maxLength. */
export const maxQueryLength = 10000;

/** A query text every engine refuses before running it: not a string, too long, or holding a NUL. */
export function checkQueryText(sql: unknown): asserts sql is string {
  if (typeof sql !== 'string') throw new ApiError(400, 'invalid_request', '`query` must be a string.');
  if (Array.from(sql).length > maxQueryLength) {
    throw new ApiError(400, 'query_too_long', `\`query\` holds more than ${maxQueryLength} characters.`);
  }
  // SQLite reads the text as a C string: a NUL would silently cut the query short, so it is refused instead.
  if (sql.includes('\u0000')) throw new ApiError(400, 'invalid_query', '`query` must not contain a NUL character.');
}
