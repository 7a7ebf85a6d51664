/**
 * Idempotency-Key: the same key and request replays the first answer, another request with it is 422, a concurrent
 * one 409; a multipart upload refuses the header before anything reads its body.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { HttpError, type Answer, type Context, type Run, type Stored, type Workspace } from './context';
import { IDEMPOTENCY_KEY_FIELD } from '../../spec/lib';

/** Node's request headers are lower-case. */
const KEY_HEADER = IDEMPOTENCY_KEY_FIELD;

const MAX_KEYS = 10_000;

/** Multipart uploads refuse Idempotency-Key before anything reads the body. */
export const refuseMultipartKey = (ctx: Context) => async (req: Request, _res: Response, next: NextFunction) => {
  const type = req.headers['content-type'] ?? '';
  if (ctx.broken('multipart-key-accepted') && type.startsWith('multipart/')) {
    // The broken server reads the form's fields as the body, key and all.
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const name = /name="name"\r\n\r\n([^\r]*)/.exec(text)?.[1];
    req.body = name === undefined ? {} : { name };
    return next();
  }
  if (req.headers[KEY_HEADER] !== undefined && type.startsWith('multipart/'))
    return next(new HttpError(400, 'idempotency_key_not_allowed', 'Multipart uploads do not take an Idempotency-Key.'));
  next();
};

/** A broken server that implements idempotency on some routes only (`idempotency-ignored <path glob>`). */
function ignoredOn(ctx: Context, path: string): boolean {
  for (const mutation of ctx.mutations)
    if (mutation.startsWith('idempotency-ignored ')) {
      const glob = mutation.slice('idempotency-ignored '.length);
      if (new RegExp(`^${glob.split('*').join('[^/]+')}$`).test(path)) return true;
    }
  return false;
}

function replay(res: Response, answer: Answer): void {
  res.set(answer.headers);
  res.set('Idempotent-Replayed', 'true');
  res.status(answer.status).json(answer.body);
}

/** A broken server whose replay answers the stored batch but enqueues its runs again. */
function requeueBatch(ctx: Context, body: unknown): void {
  const batch = ctx.batches.get(String((body as { batch?: { uuid?: unknown } } | undefined)?.batch?.uuid));
  if (!batch) return;
  const now = Date.now();
  for (const uuid of [...batch.runs]) {
    const run = ctx.runs.get(uuid);
    if (!run) continue;
    const copy: Run = { ...run, uuid: randomUUID(), createdAt: now, finishAt: now + ctx.runDurationMs };
    ctx.runs.set(copy.uuid, copy);
    batch.runs.push(copy.uuid);
  }
}

/** A request whose key is known: 422 for another request, 409 while the first runs, else its replay. */
function answerKnown(
  ctx: Context,
  req: Request,
  res: Response,
  next: NextFunction,
  stored: Stored,
  fingerprint: string,
) {
  if (stored.fingerprint !== fingerprint && !ctx.broken('key-reuse-accepted'))
    return next(new HttpError(422, 'key_mismatch', 'This Idempotency-Key belongs to another request.'));
  const { answer } = stored;
  if (!answer) {
    if (ctx.broken('concurrent-retry-waits')) {
      stored.waiters.push((first) => replay(res, first));
      return;
    }
    return next(new HttpError(409, 'key_in_flight', 'The first request with this Idempotency-Key is still running.'));
  }
  if (ctx.broken('batch-runs-duplicated-on-replay') && req.path === '/orchestration/batches')
    requeueBatch(ctx, answer.body);
  return replay(res, answer);
}

/** Keeps the first answer under `id` (a 5xx forgets the key), and hands it to concurrent retries waiting for it. */
function keepAnswer(ctx: Context, res: Response, id: string, entry: Stored): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode >= 500) ctx.keys.delete(id);
    else {
      const headers: Record<string, string> = {};
      const location = res.get('Location');
      if (location && !ctx.broken('replay-drops-location')) headers.Location = location;
      const answer: Answer = { status: res.statusCode, headers, body };
      entry.answer = answer;
      for (const waiter of entry.waiters.splice(0)) waiter(answer);
    }
    return json(body);
  };
}

export const idempotency = (ctx: Context) => (req: Request, res: Response, next: NextFunction) => {
  const key = req.headers[KEY_HEADER];
  if (typeof key !== 'string' || !['POST', 'PUT', 'PATCH'].includes(req.method)) return next();
  if (ignoredOn(ctx, req.path)) return next();
  if (Array.from(key).length > ctx.facts.keyMaxLength && !ctx.broken('overlong-key-accepted'))
    return next(
      new HttpError(
        400,
        'idempotency_key_too_long',
        `Idempotency-Key takes at most ${ctx.facts.keyMaxLength} characters.`,
      ),
    );
  const id = `${(res.locals.caller as Workspace).uuid}|${key}`;
  const fingerprint = createHash('sha256')
    .update(`${req.method} ${req.path} ${JSON.stringify(req.body ?? null)}`)
    .digest('hex');
  const now = Date.now();
  const stored = ctx.keys.get(id);
  if (stored && stored.expires > now && !ctx.broken('replay-creates-new-record'))
    return answerKnown(ctx, req, res, next, stored, fingerprint);
  const { keys } = ctx;
  if (keys.size >= MAX_KEYS) for (const [k, v] of keys) if (v.expires <= now || keys.size >= MAX_KEYS) keys.delete(k);
  const entry: Stored = { fingerprint, expires: now + ctx.facts.idempotencyTtlMs, waiters: [] };
  keys.set(id, entry);
  keepAnswer(ctx, res, id, entry);
  next();
};
