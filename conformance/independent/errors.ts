/**
 * What the framework would otherwise answer: the JSON body parser, unknown routes, and every error, written in the
 * contract's error shape. The broken variants here leave a part of it to Express's defaults.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { HttpError, type Context } from './context';

/** body-parser's defaults (strict JSON, its own error pages) are a mutant; this server reads any JSON value. */
export const parseJson = (ctx: Context) =>
  ctx.broken('body-parser-defaults')
    ? express.json()
    : express.json({ limit: '10mb', strict: false, type: () => true });

/** An error the framework raised (body-parser's, or a handler's own 404): its status and body-parser type. */
type FrameworkError = { status?: number; type?: string };

const answerError = (ctx: Context) => (error: unknown, _req: Request, res: Response, next: NextFunction) => {
  if (ctx.broken('error-body-message-key') && error instanceof HttpError)
    return res.status(error.status).json({ message: error.message, code: error.reason });
  if (error instanceof HttpError)
    return res.status(error.status).json({ errorMessage: error.message, reason: error.reason, ...error.extra });
  const { status, type } = error as FrameworkError;
  if (
    (ctx.broken('framework-404-page') && status === 404) ||
    (ctx.broken('body-parser-defaults') && type !== undefined)
  )
    return next(error);
  if (status === 413)
    return res.status(413).json({ errorMessage: 'The body is over 10 MB.', reason: 'body_too_large' });
  if (status !== undefined && status >= 400 && status < 500)
    return res
      .status(400)
      .json({ errorMessage: `The body is not valid JSON: ${(error as Error).message}`, reason: 'malformed_body' });
  res.status(500).json({ errorMessage: 'Something went wrong on our side.', reason: 'internal' });
};

/** Anything else is not found, in the error shape (a framework's own 404 page is a mutant); then the error handler. */
export function mountFallbacks(app: Express, ctx: Context): void {
  if (!ctx.broken('framework-404-page'))
    app.use((req, _res, next) =>
      next(new HttpError(404, 'no_such_route', `${req.method} ${req.path} is not an operation of this API.`)),
    );
  if (!ctx.broken('framework-error-body')) app.use(answerError(ctx));
}
