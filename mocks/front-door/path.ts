import { ApiError } from '../errors';

/** `..` or `.` as a path segment, spelt out or percent-encoded (`%2e%2e`, `.%2E`). */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
/** A slash or backslash that is not a segment separator: encoded (`%2f`, `%5c`), or a raw backslash. */
const HIDDEN_SEPARATOR = /%2f|%5c|\\/i;
/** The scheme and authority of an absolute-form request target (`GET http://host/v1/… HTTP/1.1`). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

export type RequestTarget = { path: string; query: URLSearchParams };

/**
 * The request target's path and query, or 400 invalid_path. A URL parser resolves `/v1/%2e%2e/__mock` to
 * `/__mock` (WHATWG URL treats `%2e%2e` as `..` and `\` as `/`), so a path that a proxy filtering by prefix
 * sees under `/v1` would reach another mount. Such paths are refused here, before any mount is chosen: what a
 * mount sees is exactly the path that was sent.
 */
export function readTarget(raw: string): RequestTarget | ApiError {
  const absolute = ABSOLUTE_FORM.exec(raw);
  const target = absolute ? raw.slice(absolute[0].length) || '/' : raw;
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  if (!path.startsWith('/'))
    return new ApiError(400, 'invalid_path', 'The request target must be a path beginning with "/".');
  if (DOT_SEGMENT.test(path) || HIDDEN_SEPARATOR.test(path))
    return new ApiError(
      400,
      'invalid_path',
      'The path holds a dot segment or an encoded slash (".", "..", "%2e", "%2f", "%5c" or "\\"); send the path it stands for.',
    );
  // The usual target (plain characters, no fragment) is what a URL parser would give back unchanged: it is not parsed.
  if (PLAIN_PATH.test(path) && (end < 0 || PLAIN_QUERY.test(target.slice(end))))
    return { path, query: new URLSearchParams(end < 0 ? '' : target.slice(end + 1)) };
  const url = new URL(target, 'http://mock.invalid');
  return { path: url.pathname, query: url.searchParams };
}

/** Path characters a URL parser keeps as they are (no percent sign, no dot segment: refused above). */
const PLAIN_PATH = /^[A-Za-z0-9/._~!$&'()*+,;=:@-]*$/;
/** A query of visible ASCII without a fragment: its parameters read the same from the text as from a parsed URL. */
const PLAIN_QUERY = /^\?[\x21-\x22\x24-\x7e]*$/;
