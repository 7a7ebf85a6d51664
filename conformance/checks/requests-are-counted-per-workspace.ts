/**
 * x-rules: ratelimit-headers-every-response — "requests are counted per workspace": with --token-b, requests of
 * workspace B between two requests of workspace A do not lower A's RateLimit-Remaining. Fails only when A's
 * remaining drops by exactly B's requests plus one in every attempt (two attempts with different counts, so other
 * traffic in workspace A cannot pass for a shared counter). Proved by fixtures/broken/rate-limit-shared-across-workspaces.ts.
 */
import { CheckSkipped } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import { remainingOf } from '../lib/quota';
import { RATE_LIMIT_HEADERS } from './inputs';
import { defineCheck } from './registry';

/** Requests of workspace B sent between A's two readings, one attempt each. */
const ATTEMPTS = [3, 5];

export const requestsAreCountedPerWorkspace = defineCheck({
  id: 'requests-are-counted-per-workspace',
  ruleId: 'ratelimit-headers-every-response',
  title: "Requests of one workspace do not lower another workspace's RateLimit-Remaining.",
  fixture: 'rate-limit-shared-across-workspaces',
  inputs: { operations: 'all', reads: { parts: ['operation'], headers: RATE_LIMIT_HEADERS } },
  runsAlone: true,
  async run(ctx) {
    if (!ctx.config.tokenB) throw new CheckSkipped('needs --token-b (the token of a second workspace)');
    const probe = ctx.contract.operations.find((op) => op.method === 'GET' && !op.path.includes('{'));
    if (!probe) throw new CheckSkipped('the contract has no GET operation without parameters to count requests on');
    const send = (auth: 'a' | 'b') =>
      ctx.send({ method: 'GET', path: probe.path, auth, operationId: probe.operationId });
    const shared: Array<{ others: number; before: Exchange; after: Exchange; drop: number }> = [];
    for (const others of ATTEMPTS) {
      const before = await send('a');
      for (let i = 0; i < others; i++) await send('b');
      const after = await send('a');
      const [r1, r2] = [remainingOf(before), remainingOf(after)];
      if (r1 === undefined || r2 === undefined) continue;
      if (r1 - r2 === 1) return; // counted apart
      if (r1 - r2 === others + 1) shared.push({ others, before, after, drop: r1 - r2 });
    }
    if (shared.length < ATTEMPTS.length) {
      // An inconclusive reading is not a pass: it warns, and the run lists the rule as not judged.
      const why = "workspace A's RateLimit-Remaining moved for other reasons (a window reset or other traffic)";
      ctx.report({
        severity: 'warning',
        title: 'Inconclusive: whether requests are counted per workspace',
        expected: `A's remaining to drop by 1 across ${ATTEMPTS.join(' and ')} requests of B (counted apart) or by all of them (shared)`,
        received: why,
      });
      ctx.unjudged?.('requests are counted per workspace', `a run while no other traffic reaches workspace A (${why})`);
      return;
    }
    const last = shared[shared.length - 1];
    ctx.report({
      title: "Workspace B's requests lowered workspace A's RateLimit-Remaining",
      expected: `A's remaining to drop by 1 (its own request) with ${shared.map((s) => s.others).join(' and ')} requests of B in between`,
      received: `drops of ${shared.map((s) => s.drop).join(' and ')}: every request of B was counted against A`,
      exchange: last.after,
    });
  },
});
