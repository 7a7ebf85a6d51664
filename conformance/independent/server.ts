/**
 * An independent implementation of the Workspace Automation API on Express, written from the description alone: it
 * shares no code with mocks/ or with the suite, and wherever the description is open it takes the other
 * legitimate reading (its own `reason` strings, 404 for a malformed id in a path, `name` required, PUT as a full
 * replacement, a sliding-window limiter, a relative `Location`, 201 for a created MCP server, its own page sizes
 * and orderings, extra fields on open objects, no `retryAfter` in a 429 body). In memory; `readings` switches a
 * point back to the contract's own reading and `mutations` breaks one stated rule (the mutation harness; the
 * hand-written ones are listed in variants.ts).
 *
 * One stage or resource family per module: op-breaks (per-operation mutants), rate-limit and auth, idempotency,
 * errors (body parsing, fallbacks), lists, resources, query, jobs. This file holds the contract's facts as this
 * server's team typed them, and puts the stages together in order.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { requireCaller } from './auth';
import { createContext, TOKEN_A, TOKEN_B, type Context, type Facts, type IndependentOptions } from './context';
import { mountFallbacks, parseJson } from './errors';
import { idempotency, refuseMultipartKey } from './idempotency';
import { mountJobs } from './jobs';
import { mountLists } from './lists';
import { breakOperations, opBreaksOf } from './op-breaks';
import { mountQuery } from './query';
import { rateLimit } from './rate-limit';
import { mountResources } from './resources';
import { seedRuns, seedWorkspace } from './seed';

export { DEFAULT_READINGS, TOKEN_A, TOKEN_B, TOKENS, type IndependentOptions, type Readings } from './context';

const FACTS: Facts = {
  runStatuses: ['idle', 'pending', 'running', 'success', 'error', 'cancelling', 'cancelled', 'skipped'],
  terminal: ['success', 'error', 'cancelled', 'skipped'],
  keyMaxLength: 255,
  nameMaxLength: 255,
  idempotencyTtlMs: 24 * 3600 * 1000,
  remainingHeader: 'RateLimit-Remaining',
  rateLimitHeaders: (limit, remaining, reset, window) => ({
    RateLimit: `"workspace";r=${remaining};t=${window}`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(reset),
    'RateLimit-Policy': `${limit};w=${window}`,
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(reset),
  }),
};

let sqlPromise: Promise<SqlJsStatic> | undefined;

export type RunningIndependent = { url: string; close(): Promise<void>; tokenA: string; tokenB: string };

/** The stages and routes, in order: the rate limiter first, so 401s and 404s carry its headers too. */
function buildApp(ctx: Context): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Express's own error handler prints stacks outside 'test'; its pages are what the framework mutants show.
  app.set('env', 'test');
  app.set('query parser', 'extended');
  const opBreaks = opBreaksOf(ctx.mutations);
  if (opBreaks.length > 0) app.use(breakOperations(ctx, opBreaks));
  app.use(rateLimit(ctx));
  app.use('/v1', requireCaller(ctx));
  app.use('/v1', refuseMultipartKey(ctx));
  app.use('/v1', parseJson(ctx));
  app.use('/v1', idempotency(ctx));
  mountLists(app, ctx);
  mountResources(app, ctx);
  mountQuery(app, ctx);
  mountJobs(app, ctx);
  mountFallbacks(app, ctx);
  return app;
}

export async function startIndependentServer(options: IndependentOptions = {}): Promise<RunningIndependent> {
  const sql = await (sqlPromise ??= initSqlJs());
  const workspaces = { a: seedWorkspace('a'), b: seedWorkspace('b') };
  const ctx = createContext(options, FACTS, sql, workspaces);
  for (const run of seedRuns([workspaces.a, workspaces.b])) ctx.runs.set(run.uuid, run);
  const server: Server = await new Promise((resolve) => {
    const s = buildApp(ctx).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    tokenA: TOKEN_A,
    tokenB: TOKEN_B,
    close: () =>
      new Promise<void>((resolve) => {
        ctx.shared.db?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (require.main === module) {
  startIndependentServer({ rateLimit: Number(process.env.RATE_LIMIT ?? 600) }).then((s) => {
    process.stdout.write(`independent server on ${s.url} (tokens ${s.tokenA}, ${s.tokenB})\n`);
  });
}
