/**
 * The independent server's routing helpers: a handler wrapper that passes errors on, the request's query, body and
 * path id read through its own validation, the caller, and the extra fields it adds to open objects.
 */
import type { NextFunction, Request, Response } from 'express';
import { HttpError, type Context, type Workspace } from './context';
import { readQuery, UUID, validateField, type Field, type Problem } from './validate';

export type Handler = (req: Request, res: Response) => unknown;

/** An Express handler that passes what the handler throws to the error handler. */
export const route = (handler: Handler) => async (req: Request, res: Response, next: NextFunction) => {
  try {
    await handler(req, res);
  } catch (error) {
    next(error);
  }
};

/** The authenticated caller's workspace (the /v1 stages refuse a request without one). */
export const callerOf = (res: Response) => res.locals.caller as Workspace;

export const uuidField: Field = { type: 'string', uuid: true };

function refuse(out: Problem[]): void {
  if (out.length > 0)
    throw new HttpError(400, 'validation_failed', out.map((p) => p.message).join('; '), {
      fields: out.map((p) => p.key.split(':')[1]),
    });
}

export function queryOf(ctx: Context, req: Request, scope: string, fields: Record<string, Field>) {
  const values: Record<string, unknown> = {};
  const out: Problem[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const raw = req.query[name];
    const list = raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String);
    values[name] = readQuery(field, list, scope, name, ctx.validation, out);
  }
  refuse(out);
  return values;
}

export function bodyOf(
  ctx: Context,
  req: Request,
  scope: string,
  fields: Record<string, Field>,
  required: string[] = [],
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the validated body, read by each route by field
): Record<string, any> {
  // No bytes at all is no body (whatever the parser left in req.body).
  const empty = req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0;
  const body = empty ? undefined : req.body;
  const out: Problem[] = [];
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    if (!ctx.validation.off.has(`${scope}:body:type`))
      out.push({ key: `${scope}:body:type`, message: 'the body must be a JSON object' });
  } else {
    for (const name of required)
      if (body[name] === undefined && !ctx.validation.off.has(`${scope}:${name}:required`))
        out.push({ key: `${scope}:${name}:required`, message: `${name} is required` });
    validateField({ type: 'object', fields }, body, scope, '', ctx.validation, out);
  }
  refuse(out);
  return body ?? {};
}

/** The path's uuid, lower-cased; a malformed one is 404 (this server's reading) or 400 (the contract's). */
export function pathId(ctx: Context, req: Request, scope: string): string {
  const id = String(req.params.uuid);
  if (!UUID.test(id) && !ctx.validation.off.has(`${scope}:uuid:pattern`)) {
    if (ctx.readings.malformedPathId === 404)
      throw new HttpError(404, 'no_such_resource', `Nothing is identified by ${JSON.stringify(id)}.`);
    throw new HttpError(400, 'validation_failed', 'uuid: must be a UUID');
  }
  return id.toLowerCase();
}

export function notFound(ctx: Context, what: string): never {
  // A framework's own 404 page: the handler gives up and Express answers "Cannot GET …" in HTML.
  if (ctx.broken('framework-404-page')) throw Object.assign(new Error(`No ${what}`), { status: 404, expose: true });
  throw new HttpError(404, 'no_such_resource', `No ${what} with this uuid in your workspace.`);
}

export const absolute = (req: Request, path: string) => `${req.protocol}://${req.get('host')}${path}`;

/** This server adds fields to the objects the contract leaves open (unless read the contract's way). */
export const extra = (ctx: Context, object: Record<string, unknown>) =>
  ctx.readings.extraFields ? { ...object, revision: 1, links: { self: `urn:x:${String(object.uuid)}` } } : object;
