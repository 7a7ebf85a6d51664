/**
 * x-rules: list-filters-and-count — The suppressions list answers, for every `reasons` value given (one, two, or
 * all four), only suppressions of those reasons, and its `count` is the total matching the filters: the number of
 * items of those reasons the unfiltered list shows, and the same whatever `limit` pages it.
 * Proved by fixtures/broken/reasons-first-value-only.ts (and the harness's count-ignores-filter, count-is-page-length).
 */
import { CheckSkipped } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import { named } from './inputs';
import { defineCheck, type CheckContext } from './registry';

type Page = { exchange: Exchange; count?: number; items: Array<{ reason?: unknown }> };

async function list(
  ctx: CheckContext,
  path: string,
  operationId: string,
  query: Array<[string, string]>,
): Promise<Page> {
  const exchange = await ctx.send({ method: 'GET', path, query, operationId });
  const body =
    exchange.response?.status === 200
      ? (exchange.response.body as { count?: unknown; suppressions?: unknown })
      : undefined;
  return {
    exchange,
    count: typeof body?.count === 'number' ? body.count : undefined,
    items: Array.isArray(body?.suppressions) ? body.suppressions : [],
  };
}

export const listFiltersSelectAndCount = defineCheck({
  id: 'list-filters-select-and-count',
  ruleId: 'list-filters-and-count',
  title: 'A list filter selects by every value given, and count is the total matching the filters.',
  fixture: 'reasons-first-value-only',
  covers: ['list-filters-and-count: listSuppressions *'],
  needs: ['listSuppressions'],
  inputs: { operations: named('listSuppressions'), reads: { parts: ['operation', 'parameter'], responses: ['2XX'] } },
  async run(ctx) {
    const op = ctx.contract.operation('listSuppressions');
    if (!op) throw new CheckSkipped('the contract has no listSuppressions operation');
    const items = op.parameters.find((p) => p.name === 'reasons')?.schema.items as { enum?: string[] } | undefined;
    const reasons: string[] = items?.enum ?? [];
    const all = await list(ctx, op.path, op.operationId, [['limit', '1000']]);
    if (all.count === undefined) throw new CheckSkipped('the unfiltered list did not answer 200 with a count');
    const complete = all.count <= all.items.length;
    const byReason = (wanted: string[]) => all.items.filter((item) => wanted.includes(item.reason as string)).length;
    const selections = [...reasons.map((r) => [r]), reasons.slice(0, 2), reasons.slice(1, 4), reasons];
    for (const wanted of selections) {
      const page = await list(ctx, op.path, op.operationId, [
        ...wanted.map((r): [string, string] => ['reasons', r]),
        ['limit', '1000'],
      ]);
      if (page.count === undefined) continue;
      const stray = page.items.find((item) => !wanted.includes(item.reason as string));
      if (stray)
        ctx.report({
          title: `reasons=${wanted.join('&reasons=')} answered a suppression of another reason`,
          expected: `only reasons ${wanted.join(', ')}`,
          received: `reason ${String(stray.reason)}`,
          exchange: page.exchange,
        });
      if (complete) {
        const expected = byReason(wanted);
        if (page.items.length !== expected && page.items.length < 1000)
          ctx.report({
            title: `reasons=${wanted.join('&reasons=')} did not answer every suppression of those reasons`,
            expected: `${expected} suppressions (as the unfiltered list shows)`,
            received: `${page.items.length}`,
            exchange: page.exchange,
          });
        if (page.count !== expected)
          ctx.report({
            title: `count is not the total matching reasons=${wanted.join('&reasons=')}`,
            expected: `count ${expected}`,
            received: `count ${page.count}`,
            exchange: page.exchange,
          });
      }
      // The total does not depend on the page.
      const one = await list(ctx, op.path, op.operationId, [
        ...wanted.map((r): [string, string] => ['reasons', r]),
        ['limit', '1'],
      ]);
      if (one.count !== undefined && one.count !== page.count)
        ctx.report({
          title: 'count changes with limit',
          expected: `count ${page.count} (the total matching the filters) with limit=1`,
          received: `count ${one.count}`,
          exchange: one.exchange,
        });
    }
    if (!complete) ctx.note(`more than 1000 suppressions: counts per reason not compared with the unfiltered list`);
  },
});
