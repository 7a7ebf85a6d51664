import { ApiError } from '../errors';

/** `..` or `.` as a path segment, spelt out or percent-encoded (`%2e%2e`, `.%2E`). */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
/** A slash or backslash that is not a segment separator: encoded (`%2f`, `%5c`), or a raw backslash. */
const HIDDEN_SEPARATOR = /%2f|%5c|\\/i;
/**
 * A control character in the path: a URL parser drops tabs and line breaks and trims the end, so `/v1/.\t./x`
 * would become a dot segment after the check above. Node's parser refuses them in a request line; refused here
 * too, whatever calls this.
 */
const CONTROL = /[\x00-\x1f\x7f]/;
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
  return plainTarget(raw) ?? readAnyTarget(raw);
}

/** The patterns' reading of any target: absolute-form, dot segments and encoded slashes refused, a parsed URL. */
export function readAnyTarget(raw: string): RequestTarget | ApiError {
  const absolute = ABSOLUTE_FORM.exec(raw);
  const target = absolute ? raw.slice(absolute[0].length) || '/' : raw;
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  if (!path.startsWith('/'))
    return new ApiError(400, 'invalid_path', 'The request target must be a path beginning with "/".');
  if (DOT_SEGMENT.test(path) || HIDDEN_SEPARATOR.test(path) || CONTROL.test(path))
    return new ApiError(
      400,
      'invalid_path',
      'The path holds a dot segment, an encoded slash or a control character (".", "..", "%2e", "%2f", "%5c", "\\" or a byte below 0x20); send the path it stands for.',
    );
  // The usual target (plain characters, no fragment) is what a URL parser would give back unchanged: it is not parsed.
  if (PLAIN_PATH.test(path) && (end < 0 || PLAIN_QUERY.test(target.slice(end))))
    return { path, query: new URLSearchParams(end < 0 ? '' : target.slice(end + 1)) };
  // The target is a path (it begins with "/"), read as the path of a fixed origin: as a reference of its own,
  // `//host/v1/…` would name a host and leave `/v1/…` as the path (another mount than the one the path names),
  // and a host a URL parser refuses (`//a<b/`) would throw. Read this way the parser only encodes; it never throws.
  const url = new URL(`http://mock.invalid${target}`);
  return { path: url.pathname, query: url.searchParams };
}

/**
 * The usual target read in one pass over its characters, where the patterns above take five: origin-form, a path
 * of plain characters (`PLAIN_PATH`) without a `.` or `..` segment, and no query or a plain one (`PLAIN_QUERY`).
 * Undefined for any other target, which `readAnyTarget` reads (and refuses, when it holds a dot segment). For
 * every target it reads, it gives what `readAnyTarget` gives: `path.test.ts` holds them equal on generated targets.
 */
function plainTarget(raw: string): RequestTarget | undefined {
  if (raw.charCodeAt(0) !== SLASH) return undefined;
  let segmentStart = 1;
  let dots = 0;
  let at = 1;
  for (; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    if (code === SLASH || code === QUESTION) {
      if ((dots === 1 || dots === 2) && dots === at - segmentStart) return undefined; // `.` or `..`: refused there
      if (code === QUESTION) break;
      segmentStart = at + 1;
      dots = 0;
    } else if (code === DOT) dots += 1;
    else if (code >= 128 || PLAIN_PATH_CODES[code] === 0) return undefined;
  }
  if (at === raw.length) {
    if ((dots === 1 || dots === 2) && dots === at - segmentStart) return undefined;
    return { path: raw, query: new URLSearchParams() };
  }
  for (let q = at + 1; q < raw.length; q++) {
    const code = raw.charCodeAt(q);
    if (code < 0x21 || code > 0x7e || code === HASH) return undefined;
  }
  return { path: raw.slice(0, at), query: new URLSearchParams(raw.slice(at + 1)) };
}

const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const DOT = 0x2e;

/** Path characters a URL parser keeps as they are (no percent sign, no dot segment: refused above). */
const PLAIN_PATH = /^[A-Za-z0-9/._~!$&'()*+,;=:@-]*$/;
/**
 * `PLAIN_PATH`'s characters as a table of ASCII codes (1: plain), derived from it, the slash and dot apart (the
 * one-pass reader watches them for segments).
 */
const PLAIN_PATH_CODES = Uint8Array.from({ length: 128 }, (_, code) =>
  code !== SLASH && code !== DOT && PLAIN_PATH.test(String.fromCharCode(code)) ? 1 : 0,
);
/** A query of visible ASCII without a fragment: its parameters read the same from the text as from a parsed URL. */
const PLAIN_QUERY = /^\?[\x21-\x22\x24-\x7e]*$/;
