import { ApiError } from '../errors';

/** Default page size (the contract does not state one): a screenful, small enough to stay fast. */
export const DEFAULT_LIMIT = 10;

/** limit/offset of a list; bounds the spec leaves open are checked here (negative values make no page). */
export function readPage(query: Record<string, unknown>): { limit: number; offset: number } {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (limit < 1) throw new ApiError(400, 'invalid_request', 'limit: must be >= 1', { location: 'query' });
  if (offset < 0) throw new ApiError(400, 'invalid_request', 'offset: must be >= 0', { location: 'query' });
  return { limit, offset };
}

export function page<T>(items: T[], { limit, offset }: { limit: number; offset: number }): T[] {
  return items.slice(offset, offset + limit);
}

export function notFound(what: string, uuid: string): ApiError {
  return new ApiError(404, 'not_found', `uuid: no ${what} ${uuid} in this workspace.`);
}
