/**
 * A server team's first run: a partial Express server with two operations (`--operations`), the framework's own
 * 415 for a form body (in the error shape), no idempotency, and a realistic rate limit of 5 000 a minute. The run
 * prints one failure per cause, never an "Undeclared status" failure for a request the contract refuses anyway, and
 * names what it could not judge and how.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { allChecks } from '../checks';
import { parseConfig } from '../config';
import { ConsoleReporter } from '../reporters/console';
import { runConformance } from '../runner';
import { unjudgedOf } from './types';

jest.setTimeout(60_000);

const LIMIT = 5000;

/** Two operations of the contract, written as a team would on Express; nothing else is routed. */
function partialServer() {
  const app = express();
  const used = new Map<string, number>();
  app.use((req, res, next) => {
    const token = req.get('authorization');
    const key = token === 'Bearer partial-a' || token === 'Bearer partial-b' ? token : 'anonymous';
    const count = (used.get(key) ?? 0) + 1;
    used.set(key, count);
    const remaining = Math.max(0, LIMIT - count);
    res.set({
      RateLimit: `"workspace";r=${remaining};t=60`,
      'RateLimit-Limit': String(LIMIT),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': '60',
      'RateLimit-Policy': `${LIMIT};w=60`,
      'X-RateLimit-Limit': String(LIMIT),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': '60',
    });
    if (key === 'anonymous') return void res.status(401).json({ errorMessage: 'unauthorized' });
    next();
  });
  app.get('/v1/mailboxManagement/suppressions', (req, res) => {
    const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
    const offset = req.query.offset === undefined ? 0 : Number(req.query.offset);
    const reasons = ([] as unknown[]).concat(req.query.reasons ?? []);
    if (
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > 1000 ||
      !Number.isSafeInteger(offset) ||
      offset < 0 ||
      reasons.some((r) => !['unsubscribed', 'bounced', 'complained', 'manual'].includes(String(r)))
    )
      return void res.status(400).json({ errorMessage: 'bad request' });
    res.json({ count: 0, suppressions: [] });
  });
  // The framework's 415 for anything but JSON (with the team's error handler, so in the error shape).
  app.post('/v1/ai/mcpServers', (req, res, next) =>
    req.is('application/json') ? next() : void res.status(415).json({ errorMessage: 'Unsupported Media Type' }),
  );
  app.post('/v1/ai/mcpServers', express.json({ limit: '64kb' }), (req, res) => {
    const { name } = req.body as { name?: unknown };
    if (name !== undefined && (typeof name !== 'string' || name.length < 1 || [...name].length > 255))
      return void res.status(400).json({ errorMessage: 'bad request' });
    res.status(201).json({ mcpServer: { uuid: crypto.randomUUID(), name } });
  });
  app.use(
    (error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      void res.status(error.status && error.status < 500 ? error.status : 400).json({ errorMessage: 'bad request' }),
  );
  app.use((_req, res) => void res.status(404).json({ errorMessage: 'not found' }));
  return app;
}

it("should print one failure per cause, no failure for the framework's 415, and what went unjudged", async () => {
  const server = partialServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  let out = '';
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const config = parseConfig(
      [
        ...['--target', url, '--token', 'partial-a', '--token-b', 'partial-b', '--runs', '3', '--seed', '5'],
        ...['--operations', 'listSuppressions,createMcpServer', '--max-requests', '600'],
        ...['--skip', 'stated-rules-hold-across-command-sequences'],
      ],
      {},
    );
    const summary = await runConformance(config, {
      checks: allChecks(),
      reporters: [new ConsoleReporter((text) => (out += text))],
    });
    const failures = summary.results.flatMap((r) => r.failures);
    const warnings = summary.results.flatMap((r) => r.warnings);
    // The team's server misses idempotency: that fails, once per cause, whatever the number of requests.
    expect(summary.exitCode).toBe(1);
    expect(failures.map((f) => `${f.checkId}: ${f.title}`)).not.toContainEqual(expect.stringMatching(/415/));
    expect(warnings.map((w) => w.title)).toContainEqual(
      expect.stringMatching(/^Undeclared 415 for a request the contract refuses/),
    );
    const causes = new Set(failures.map((f) => `${f.checkId}|${f.ruleId}|${f.title}`));
    expect(causes.size).toBe(failures.length);
    // 21 invalid bodies the server accepts are one cause, with a count.
    expect(failures.length).toBeLessThan(15);
    expect(failures.find((f) => f.checkId === 'invalid-requests-are-rejected-with-400')?.occurrences).toBeGreaterThan(
      5,
    );
    // A check that judged nothing is not a PASS.
    for (const r of summary.results.filter((r) => r.status === 'passed')) expect(r.requests).toBeGreaterThan(0);
    // At 5 000 a minute the limit is beyond the budget: the run says what that left unjudged, and how to judge it.
    const unjudged = unjudgedOf(summary.results);
    expect(unjudged.map((u) => u.how).join('\n')).toMatch(/smaller rate limit/);
    expect(out).toContain('Not judged in this run');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(out).not.toMatch(/did not refuse/);
});
