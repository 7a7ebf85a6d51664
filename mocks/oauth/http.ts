import type { MockRequest, MockResponse } from '../types';
import { utf8Decode } from '../web/bytes';

/** @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 (no-store and no-cache on token responses) */
export const noStoreHeaders: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** A JSON answer of the OAuth endpoints (the front door adds CORS and the rate-limit headers). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): MockResponse {
  return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body };
}

/**
 * OAuth's error body (RFC 6749 §5.2: `error`, `error_description`), which also carries the contract's error shape
 * (`errorMessage`, `reason`), as every error of every mount does.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export function tokenError(
  error: string,
  description: string,
  status = 400,
  headers: Record<string, string> = {},
): MockResponse {
  const body = { error, error_description: description, errorMessage: description, reason: error };
  return json(status, body, { ...noStoreHeaders, ...headers });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The answer when redirecting would be unsafe (unknown client or redirect_uri).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export function errorPage(error: string, description: string): MockResponse {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Authorization error</title></head><body><h1>${escapeHtml(error)}</h1><p>${escapeHtml(description)}</p></body></html>`;
  return {
    status: 400,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: undefined,
    text: page,
  };
}

export function redirect(location: URL): MockResponse {
  return { status: 302, headers: { location: location.href, 'cache-control': 'no-store' }, body: undefined };
}

export const isFormEncoded = (req: MockRequest) =>
  (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';

/** The form body the front door read (bounded in bytes and time, like every body). */
export const formOf = (req: MockRequest) => new URLSearchParams(utf8Decode(req.rawBody));

/**
 * Parameters each present at most once; a repeated one is named in `duplicate`.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1 (parameters MUST NOT be included more than once)
 */
export function readParams(params: URLSearchParams): { get(name: string): string | undefined; duplicate?: string } {
  const seen = new Set<string>();
  let duplicate: string | undefined;
  for (const name of params.keys()) {
    if (seen.has(name)) duplicate ??= name;
    seen.add(name);
  }
  return {
    get: (name) => {
      const value = params.get(name);
      return value === null || value === '' ? undefined : value;
    },
    duplicate,
  };
}
