import { ApiError } from '../../errors';
import type { Router } from '../../../spec/lib';
import type { Stage } from '../../context';

export type ParseDeps = { bodyLimitBytes: number; route: Router };

/**
 * Reads the body (413 beyond the limit), decodes JSON and finds the operation. Malformed JSON and unknown
 * routes are recorded, not raised: they are answered once the caller is authenticated and counted.
 */
export function parse(deps: ParseDeps): Stage {
  return async (ctx, next) => {
    const { req } = ctx;
    if (ctx.outsideBase) ctx.routeError = new ApiError(404, 'not_found', `No operation at ${req.method} ${req.path}: the API's paths start with its base path (/v1).`);
    else {
      const found = deps.route(req.method, req.path);
      if (found.kind === 'match') {
        ctx.route = { operation: found.operation, params: found.params };
        req.operationId = found.operation.operationId;
      } else ctx.routeError = routeError(req.method, req.path, found.kind === 'method-not-allowed' ? found.allow : undefined);
    }
    const declared = Number(req.headers['content-length']);
    // Most requests (every GET) carry no body: skip the stream machinery for them.
    const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
    // An operation without a request body ignores one (no 413 that its responses do not declare).
    if (ctx.route && !ctx.route.operation.requestBody) {
      if (hasBody) await drain(ctx.source.body);
      return next();
    }
    if (declared > deps.bodyLimitBytes) {
      await drain(ctx.source.body);
      throw tooLarge(deps.bodyLimitBytes);
    }
    if (hasBody) req.rawBody = await readBody(ctx.source.body, deps.bodyLimitBytes);
    if (req.rawBody.length > 0 && isJson(req.headers['content-type'])) {
      try {
        req.body = JSON.parse(req.rawBody.toString('utf8'));
      } catch {
        ctx.bodyError = new ApiError(400, 'malformed_json', 'body: is not valid JSON.');
      }
    }
    return next();
  };
}

/** 404 for a path the contract does not have, 405 with Allow for a method it does not declare there. */
function routeError(method: string, path: string, allow: string[] | undefined): ApiError {
  const normalised = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (!allow) return new ApiError(404, 'not_found', `No operation at ${method} ${normalised}.`);
  const list = allow.join(', ');
  return new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed on ${normalised}; allowed: ${list}.`, {}, { allow: list });
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true; // a body without a type is read as JSON, the API's only body format
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `body: exceeds the limit of ${limit} bytes.`, { limitBytes: limit });
}

async function readBody(body: AsyncIterable<Buffer | string>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    // Keep reading past the limit so the client gets the 413 instead of a reset connection.
    if (size > limit) over = true;
    else chunks.push(buffer);
  }
  if (over) throw tooLarge(limit);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

async function drain(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of body) void _;
}
