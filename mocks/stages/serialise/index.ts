import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { MockResponse } from '../../types';
import { frozenJsonBytes, jsonText } from '../../json-text';

/** The status, headers and body text of a response: JSON body (if any) with its length; header names as given. */
function render(response: MockResponse): { headers: Record<string, string | number>; text: string | undefined } {
  const text = response.text ?? (response.body === undefined ? undefined : jsonText(response.body));
  const headers: Record<string, string | number> = response.headers;
  if (text !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
  } else if (response.status !== 204 && response.status !== 304) {
    headers['content-length'] = 0;
  }
  return { headers, text };
}

/**
 * A frozen JSON body (a page many answers share) as its bytes, encoded once (`frozenJsonBytes`): its length is
 * the Content-Length, and the socket takes the bytes as they are. Undefined for any other answer, and for a body
 * long enough to be streamed (what `render` gives is written then).
 */
function frozenBytes(response: MockResponse): Uint8Array | undefined {
  if (response.text !== undefined) return undefined;
  // A body long enough to stream is never encoded whole: its text is what `serialise` writes, a chunk at a time.
  const bytes = frozenJsonBytes(response.body, STREAM_CHUNK_CHARS);
  if (bytes === undefined) return undefined;
  response.headers['content-type'] ??= 'application/json';
  (response.headers as Record<string, string | number>)['content-length'] = bytes.length;
  return bytes;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** A body longer than this is written a chunk at a time, each once the socket has taken the one before. */
export const STREAM_CHUNK_CHARS = 64 * 1024;

/**
 * Writes a response to Node's ServerResponse. A large body (a runs download) is streamed: a slice per chunk,
 * the next once the socket drained, so its cost on this thread is constant per chunk and a slow reader holds no
 * more than one chunk in memory beyond the text itself.
 */
export function serialise(res: ServerResponse, response: MockResponse, method: string): void {
  const bytes = frozenBytes(response);
  if (bytes !== undefined) {
    res.writeHead(response.status, response.headers);
    res.end(method === 'HEAD' ? undefined : bytes);
    return;
  }
  const { headers, text } = render(response);
  res.writeHead(response.status, headers);
  if (method === 'HEAD' || text === undefined || text.length <= STREAM_CHUNK_CHARS) {
    res.end(method === 'HEAD' ? undefined : text);
    return;
  }
  let at = 0;
  const next = () => {
    while (at < text.length && !res.destroyed) {
      let end = Math.min(text.length, at + STREAM_CHUNK_CHARS);
      // A chunk never ends between the halves of a surrogate pair (each chunk is encoded as UTF-8 on its own).
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      const chunk = text.slice(at, (at = end));
      if (at >= text.length) return void res.end(chunk);
      if (!res.write(chunk)) return void res.once('drain', next);
    }
  };
  next();
}

/** The same response as a whole HTTP/1.1 message closing the connection, for a socket Node refused to parse. */
export function serialiseToText(response: MockResponse): string {
  const { headers, text } = render(response);
  headers.connection = 'close';
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const reason = STATUS_CODES[response.status] ?? 'Error';
  return `HTTP/1.1 ${response.status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${text ?? ''}`;
}

export { freezeDeep } from '../../json-text';
