import type { ServerResponse } from 'node:http';
import type { MockResponse } from '../../types';

/**
 * Frozen bodies never change, so their JSON is kept: the hot list answers the same page again and again.
 * A WeakMap lets the text go when the body does.
 */
const frozenText = new WeakMap<object, string>();

function toJson(body: unknown): string {
  if (body === null || typeof body !== 'object' || !Object.isFrozen(body)) return JSON.stringify(body);
  let text = frozenText.get(body);
  if (text === undefined) frozenText.set(body, (text = JSON.stringify(body)));
  return text;
}

/** Writes a response: JSON body (if any) with its length; header names as given (lowercase). */
export function serialise(res: ServerResponse, response: MockResponse, method: string): void {
  const text = response.body === undefined ? undefined : toJson(response.body);
  const headers: Record<string, string | number> = response.headers;
  if (text !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
  } else if (response.status !== 204 && response.status !== 304) {
    headers['content-length'] = 0;
  }
  res.writeHead(response.status, headers);
  res.end(method === 'HEAD' ? undefined : text);
}

/** Deep-freezes a body that is reused across responses, so serialise may keep its JSON. */
export function freezeDeep<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) freezeDeep(child);
  }
  return value;
}
