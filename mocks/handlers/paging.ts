import { ApiError } from '../errors';

/** Default page size (the contract does not state one): a screenful, small enough to stay fast. */
export const DEFAULT_LIMIT = 10;

/**
 * limit/offset of a list. Where the spec states bounds, validation already enforced them; where it states none
 * (allocations, recipes), none is invented: a limit below 1 gives an empty page, an offset below 0 counts as 0.
 */
export function readPage(query: Record<string, unknown>): { limit: number; offset: number } {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  return { limit: Math.max(0, limit), offset: Math.max(0, offset) };
}

export function page<T>(items: T[], { limit, offset }: { limit: number; offset: number }): T[] {
  return items.slice(offset, offset + limit);
}

export function notFound(what: string, uuid: string): ApiError {
  return new ApiError(404, 'not_found', `uuid: no ${what} ${uuid} in this workspace.`);
}
