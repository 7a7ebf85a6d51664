import { ApiError } from '../../errors';
import type { Router } from '../../../spec/lib';
import type { Stage } from '../../context';
import { INPUT_LIMITS } from '../../limits';
import { checkJsonShape } from './json-shape';

export type ParseDeps = {
  bodyLimitBytes: number;
  route: Router;
  /** A body not fully arrived after this long is refused (INPUT_LIMITS.bodyTimeoutMs by default). */
  bodyTimeoutMs?: number;
  jsonDepth?: number;
  jsonArrayItems?: number;
};

/**
 * Reads the body (413 beyond the limit, 400 when it stalls), checks the JSON's shape, decodes it and finds the
 * operation. Nothing is raised here: unknown routes, refused and malformed bodies are recorded and answered once
 * the caller is authenticated and counted, so their answers carry the caller's own quota.
 */
export function parse(deps: ParseDeps): Stage {
  const shapeLimits = {
    jsonDepth: deps.jsonDepth ?? INPUT_LIMITS.jsonDepth,
    jsonArrayItems: deps.jsonArrayItems ?? INPUT_LIMITS.jsonArrayItems,
  };
  const timeoutMs = deps.bodyTimeoutMs ?? INPUT_LIMITS.bodyTimeoutMs;
  return async (ctx, next) => {
    const { req } = ctx;
    if (ctx.outsideBase)
      ctx.routeError = new ApiError(
        404,
        'not_found',
        `No operation at ${req.method} ${req.path}: the API's paths start with its base path (/v1).`,
      );
    else {
      // HEAD is answered like GET, without the body (RFC 9110 §9.3.2).
      const found = deps.route(req.method === 'HEAD' ? 'GET' : req.method, req.path);
      if (found.kind === 'match') {
        ctx.route = { operation: found.operation, params: found.params };
        req.operationId = found.operation.operationId;
      } else
        ctx.routeError = routeError(
          req.method,
          req.path,
          found.kind === 'method-not-allowed' ? found.allow : undefined,
        );
    }
    const declared = Number(req.headers['content-length']);
    // Most requests (every GET) carry no body: skip the stream machinery for them.
    const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return next();
    // An operation without a request body ignores one (no 413 that its responses do not declare); the rest of
    // a large one is not read: the connection closes after the answer.
    const wantsBody = ctx.route?.operation.requestBody !== undefined;
    if (declared > deps.bodyLimitBytes) {
      if (wantsBody) ctx.payloadError = tooLarge(deps.bodyLimitBytes);
      ctx.closeConnection = true;
      return next();
    }
    const read = await readBody(ctx.source.body, deps.bodyLimitBytes, timeoutMs);
    if (read instanceof ApiError) {
      if (wantsBody) ctx.payloadError = read;
      ctx.closeConnection = true;
      return next();
    }
    if (!wantsBody) return next();
    req.rawBody = read;
    if (req.rawBody.length > 0 && isJson(req.headers['content-type'])) {
      const text = req.rawBody.toString('utf8');
      ctx.bodyError = checkJsonShape(text, shapeLimits);
      if (!ctx.bodyError) {
        try {
          req.body = JSON.parse(text);
        } catch {
          ctx.bodyError = new ApiError(400, 'malformed_json', 'body: is not valid JSON.');
        }
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
  return new ApiError(
    405,
    'method_not_allowed',
    `Method ${method} is not allowed on ${normalised}; allowed: ${list}.`,
    {},
    { allow: list },
  );
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true; // a body without a type is read as JSON, the API's only body format
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `body: exceeds the limit of ${limit} bytes.`, { limitBytes: limit });
}

type Readable = AsyncIterable<Buffer | string> & {
  on?(event: string, listener: (...args: any[]) => void): unknown;
  off?(event: string, listener: (...args: any[]) => void): unknown;
  pause?(): unknown;
};

/**
 * The body, or the refusal: 413 as soon as it passes the limit, 400 body_timeout when it has not ended within
 * `timeoutMs`. Reading stops at once either way; the server closes the connection after answering.
 */
function readBody(body: Readable, limit: number, timeoutMs: number): Promise<Buffer | ApiError> {
  if (typeof body.on !== 'function' || typeof body.off !== 'function') return readIterable(body, limit);
  const stream = body as Required<Readable>;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | ApiError) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('aborted', onError);
      if (result instanceof ApiError) stream.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limit) return finish(tooLarge(limit));
      chunks.push(buffer);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    const onError = () =>
      finish(new ApiError(400, 'body_incomplete', 'body: the connection ended before the body did.'));
    const timer = setTimeout(
      () =>
        finish(
          new ApiError(400, 'body_timeout', `body: did not arrive within ${timeoutMs} ms.`, { limitMs: timeoutMs }),
        ),
      timeoutMs,
    );
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('aborted', onError);
  });
}

/** Bodies handed over as plain async iterables (unit tests). */
async function readIterable(body: AsyncIterable<Buffer | string>, limit: number): Promise<Buffer | ApiError> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) return tooLarge(limit);
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
