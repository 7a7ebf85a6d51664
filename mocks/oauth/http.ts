import type { IncomingMessage, ServerResponse } from 'node:http';

/** Browser apps on another origin (a dev server) call discovery and the token endpoint directly; no cookies are used. */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization',
  'Access-Control-Max-Age': '600',
};

/** @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 (no-store and no-cache on token responses) */
export const noStoreHeaders: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...corsHeaders,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

/** @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 */
export function sendTokenError(res: ServerResponse, error: string, description: string, status = 400): void {
  sendJson(res, status, { error, error_description: description }, noStoreHeaders);
}

export function sendNoContent(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(204, { ...corsHeaders, ...headers });
  res.end();
}

export function sendMethodNotAllowed(res: ServerResponse, allow: string): void {
  sendJson(res, 405, { error: 'invalid_request', error_description: `Use ${allow}.` }, { Allow: allow });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The answer when redirecting would be unsafe (unknown client or redirect_uri).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export function sendErrorPage(res: ServerResponse, error: string, description: string): void {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Authorization error</title></head><body><h1>${escapeHtml(error)}</h1><p>${escapeHtml(description)}</p></body></html>`;
  res.writeHead(400, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(page)),
  });
  res.end(page);
}

export function redirect(res: ServerResponse, location: URL): void {
  res.writeHead(302, { Location: location.href, 'Cache-Control': 'no-store' });
  res.end();
}

/** Reads a form body of at most `limit` bytes; null when it is larger. */
export async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const isFormEncoded = (req: IncomingMessage) =>
  (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';

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
