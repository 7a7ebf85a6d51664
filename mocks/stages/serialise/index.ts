import type { ServerResponse } from 'node:http';
import type { MockResponse } from '../../types';

/** Writes a response: JSON body (if any) with its length; header names as given (lowercase). */
export function serialise(res: ServerResponse, response: MockResponse, method: string): void {
  const text = response.body === undefined ? undefined : JSON.stringify(response.body);
  const headers: Record<string, string | number> = { ...response.headers };
  if (text !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
  } else if (response.status !== 204 && response.status !== 304) {
    headers['content-length'] = 0;
  }
  res.writeHead(response.status, headers);
  res.end(method === 'HEAD' ? undefined : text);
}
