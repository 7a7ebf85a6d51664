import { ApiError } from '../../errors';
import { withRequest, type Ctx, type Stage } from '../../context';
import { INPUT_LIMITS } from '../../limits';
import { announcesBody } from './announces-body';

export { announcesBody };
import { checkJsonShape } from './json-shape';
import { concatBytes, EMPTY_BYTES, utf8Decode, utf8Encode } from '../../web/bytes';

/** The bounds every mount reads a body with (`mocks/limits.ts`); a mount may allow more bytes, never more time. */
export type BodyLimits = { bytes: number; timeoutMs: number; jsonDepth: number; jsonArrayItems: number };

export const API_BODY_LIMITS: BodyLimits = {
  bytes: INPUT_LIMITS.bodyBytes,
  timeoutMs: INPUT_LIMITS.bodyTimeoutMs,
  jsonDepth: INPUT_LIMITS.jsonDepth,
  jsonArrayItems: INPUT_LIMITS.jsonArrayItems,
};

/**
 * The whole body within the limits, or the refusal: 413 for a declared or streamed length over `bytes` (nothing
 * more is read), 400 body_timeout when it has not ended within `timeoutMs`, 400 body_incomplete when the
 * connection ends first. After a refusal the rest stays unread and finish closes the connection.
 */
export async function readRequestBody(ctx: Ctx, limits: Pick<BodyLimits, 'bytes' | 'timeoutMs'>): Promise<Uint8Array> {
  if (!announcesBody(ctx.req.headers)) {
    ctx.bodyRead = true;
    return EMPTY_BYTES;
  }
  const read = bodyArrived(ctx, limits) ?? (await readStream(ctx.source.body, limits.bytes, limits.timeoutMs));
  if (read instanceof ApiError) throw read;
  ctx.bodyRead = true;
  return read;
}

/**
 * An announced body that has arrived whole, or its refusal (413 for a declared length over `bytes`: nothing is
 * read); undefined when it is still to be read as it comes.
 */
function bodyArrived(ctx: Ctx, limits: Pick<BodyLimits, 'bytes'>): Uint8Array | ApiError | undefined {
  if (Number(ctx.req.headers['content-length']) > limits.bytes) return tooLarge(limits.bytes);
  return readArrived(ctx.source.body, limits.bytes, declaredLength(ctx.req.headers));
}

/** JSON text → its value, its shape checked in one pass before parsing (depth, array items). */
export function decodeJson(raw: Uint8Array, limits: Pick<BodyLimits, 'jsonDepth' | 'jsonArrayItems'>): unknown {
  const text = utf8Decode(raw);
  const shapeError = checkJsonShape(text, limits);
  if (shapeError) throw shapeError;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'malformed_json', 'body: is not valid JSON.');
  }
}

export function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true; // a body without a type is read as JSON, the API's only body format
  if (contentType === 'application/json') return true; // the usual one, without splitting it
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * The API's body stage, after route: an operation that takes a body gets it read and, when JSON, decoded
 * (413, 400 body_timeout, json_too_deep, json_array_too_long, malformed_json). An operation that takes none
 * ignores one (no 413 its responses do not declare); a large or slow one is left unread and the connection closed.
 */
export function readBody(limits: BodyLimits = API_BODY_LIMITS): Stage {
  /** The body read (or its refusal) given to the request: an operation without a body ignores both. */
  const accept = (ctx: Ctx, read: Uint8Array | ApiError): void => {
    if (ctx.route?.operation.requestBody === undefined) {
      if (!(read instanceof ApiError)) ctx.bodyRead = true;
      return;
    }
    if (read instanceof ApiError) throw read;
    ctx.bodyRead = true;
    const { req } = ctx;
    ctx.req =
      read.length > 0 && isJson(req.headers['content-type'])
        ? withRequest(req, { rawBody: read, body: decodeJson(read, limits) })
        : withRequest(req, { rawBody: read });
  };
  return (ctx, next) => {
    if (!announcesBody(ctx.req.headers)) {
      ctx.bodyRead = true;
      return next();
    }
    // A body that has arrived whole (the usual small one) is taken at once: no turn waited, no promise made.
    const arrived = bodyArrived(ctx, limits);
    if (arrived !== undefined) {
      try {
        accept(ctx, arrived);
      } catch (error) {
        return Promise.reject(error);
      }
      return next();
    }
    // The stages before this one may all have run inside Node's parse of the packet that carries the body too
    // (none of them waited for anything): the parser pushes that body once the request's listener returns. One
    // turn later it is looked for again, before the stream is waited for (with its events and its timer).
    return Promise.resolve(ctx).then((later) => {
      const arrivedNow = bodyArrived(later, limits);
      if (arrivedNow !== undefined) {
        accept(later, arrivedNow);
        return next();
      }
      return readStream(later.source.body, limits.bytes, limits.timeoutMs).then((read) => {
        accept(later, read);
        return next();
      });
    });
  };
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'payload_too_large', `body: exceeds the limit of ${limit} bytes.`, { limitBytes: limit });
}

type Readable = AsyncIterable<Uint8Array | string> & {
  on?(event: string, listener: (...args: never[]) => void): unknown;
  off?(event: string, listener: (...args: never[]) => void): unknown;
  pause?(): unknown;
  /** Node's request: the whole message has arrived (its body waits in the stream's buffer). */
  complete?: boolean;
  read?(): Uint8Array | string | null;
  readableFlowing?: boolean | null;
  readableEnded?: boolean;
  readableLength?: number;
};

/** The body's length as Content-Length declares it (none for a chunked body). */
function declaredLength(headers: Record<string, string>): number | undefined {
  if (headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(headers['content-length']);
  return Number.isSafeInteger(length) && length > 0 ? length : undefined;
}

/**
 * A body that has arrived whole (the usual small one, in the packet of its headers: every declared byte is in
 * the stream's buffer) is taken from that buffer at once, without waiting for its events; undefined when it has
 * not (then it is read as it comes).
 */
function readArrived(body: Readable, limit: number, declared: number | undefined): Uint8Array | ApiError | undefined {
  if (typeof body.read !== 'function' || body.readableFlowing || body.readableEnded) return undefined;
  if (body.complete !== true && (declared === undefined || body.readableLength !== declared)) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = body.read(); chunk !== null; chunk = body.read()) {
    const buffer = typeof chunk === 'string' ? utf8Encode(chunk) : chunk;
    size += buffer.length;
    if (size > limit) return tooLarge(limit);
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks, size);
}

/** Reading stops at once on a refusal; the server closes the connection after answering. */
function readStream(body: Readable, limit: number, timeoutMs: number): Promise<Uint8Array | ApiError> {
  if (typeof body.on !== 'function' || typeof body.off !== 'function') return readIterable(body, limit);
  const stream = body as Required<Readable>;
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const finish = (result: Uint8Array | ApiError) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('aborted', onError);
      if (result instanceof ApiError) stream.pause();
      resolve(result);
    };
    const onData = (chunk: Uint8Array | string) => {
      const buffer = typeof chunk === 'string' ? utf8Encode(chunk) : chunk;
      size += buffer.length;
      if (size > limit) return finish(tooLarge(limit));
      chunks.push(buffer);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0] : concatBytes(chunks, size));
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
async function readIterable(body: AsyncIterable<Uint8Array | string>, limit: number): Promise<Uint8Array | ApiError> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? utf8Encode(chunk) : chunk;
    size += buffer.length;
    if (size > limit) return tooLarge(limit);
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks, size);
}
