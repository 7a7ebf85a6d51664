/**
 * One operation broken for one rule (`op <rule> <METHOD> <path glob>`, the mutation catalogue's mutants per matrix
 * cell): served without auth, with a valid token refused, without RateLimit-Remaining, with errors in another
 * shape, marked deprecated, or one status answered as another.
 */
import type { NextFunction, Request, Response } from 'express';
import { callerOf } from './auth';
import { TOKEN_A, type Context } from './context';

type OpBreak = { rule: string; method: string; path: RegExp };

export function opBreaksOf(mutations: Iterable<string>): OpBreak[] {
  return [...mutations]
    .filter((m) => m.startsWith('op '))
    .map((m) => {
      const [, rule, method, glob] = m.split(' ');
      return { rule, method, path: new RegExp(`^/v1${glob.split('*').join('[^/]+')}$`) };
    });
}

/** The response's `json` with the rules broken on the way out. */
function breakAnswer(ctx: Context, res: Response, rules: string[]): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (rules.includes('ratelimit-headers-every-response')) res.removeHeader(ctx.facts.remainingHeader);
    if (rules.includes('deprecation-sunset')) res.set('Deprecation', '@1700000000');
    if (rules.includes('error-shape') && res.statusCode >= 400 && body && typeof body === 'object') {
      const { errorMessage, ...rest } = body as Record<string, unknown>;
      return json({ ...rest, message: errorMessage });
    }
    const status = rules.find((rule) => rule === `status-${res.statusCode}`);
    if (status && res.statusCode < 300) {
      res.status(204).end();
      return res;
    }
    if (status) res.status(418);
    return json(body);
  };
}

export const breakOperations =
  (ctx: Context, breaks: OpBreak[]) => (req: Request, res: Response, next: NextFunction) => {
    const rules = breaks.filter((b) => b.method === req.method && b.path.test(req.path)).map((b) => b.rule);
    if (rules.length === 0) return next();
    if (rules.includes('auth-required-401') && !callerOf(ctx, req.headers.authorization))
      req.headers.authorization = `Bearer ${TOKEN_A}`;
    if (rules.includes('bearer-refused')) delete req.headers.authorization;
    breakAnswer(ctx, res, rules);
    next();
  };
