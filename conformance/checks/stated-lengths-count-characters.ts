/**
 * x-rules: request-validation — Stated lengths count characters (code points, astral ones included), and every
 * character a pattern excludes is refused: an MCP server `name` and `description` of their `maxLength` in astral
 * characters (twice as many UTF-16 units) are accepted and one character more is refused; a valid `SELECT` of
 * exactly its `maxLength` runs and one character more (otherwise valid) is refused; with --allow-writes, a
 * workspace `name` of its `maxLength` is accepted and one containing a character its pattern excludes (`<`, `>`)
 * is refused. Proved by fixtures/broken/length-in-utf16.ts (and the harness's query-length-unchecked,
 * pattern-allows-gt).
 */
import { describe } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';
import { conformanceName, NAME_PREFIX, requestBodySchema } from '../lib/operations';
import { namedClientErrors, omittedFields, requiredNotShown } from '../lib/stated';
import { assumptionOf, type Operation } from '../../spec/lib';
import { judgeRefusal } from './invalid-requests-are-rejected-with-400';
import { named } from './inputs';
import { defineCheck, type CheckContext } from './registry';

const ASTRAL = '\u{1F600}';

/** A recognisable string of exactly `points` code points, astral after the prefix. */
export function astralText(points: number): string {
  const prefix = NAME_PREFIX.slice(0, Math.min(points, NAME_PREFIX.length));
  return prefix + ASTRAL.repeat(points - Array.from(prefix).length);
}

/** A read-only SELECT of exactly `points` code points, padded with an astral string literal. */
export function selectOf(points: number): string {
  const head = "SELECT '";
  return `${head}${ASTRAL.repeat(points - head.length - 1)}'`;
}

function judgeAccepted(ctx: CheckContext, op: Operation, exchange: Exchange, what: string, stated?: string): void {
  const status = exchange.response?.status ?? 0;
  if (status >= 200 && status < 300) return;
  // A query stopped for its running time is refused for something the contract leaves open, not for its length.
  if (/time|took|longer than \d+ ?ms/i.test(exchange.response?.text ?? '') && op.operationId === 'executeQuery') {
    ctx.report({
      severity: 'warning',
      title: `${op.operationId} stopped ${what} for its running time`,
      expected: '2xx',
      received: describe(exchange),
      assumption: assumptionOf(op.node),
      exchange,
    });
    return;
  }
  const open = requiredNotShown(op);
  if (
    open &&
    namedClientErrors(op).includes(status) &&
    omittedFields(op, exchange.request.body).length > 0 &&
    /requir|missing/i.test(exchange.response?.text ?? '')
  ) {
    ctx.report({
      severity: 'warning',
      title: `${op.operationId} requires body fields the contract does not show as required`,
      expected: '2xx',
      received: describe(exchange),
      assumption: open,
      exchange,
    });
    return;
  }
  ctx.report({
    title: `${op.operationId} refused ${what}`,
    expected: '2xx (the value keeps the stated rule, counted in characters)',
    received: describe(exchange),
    stated,
    exchange,
  });
}

export const statedLengthsCountCharacters = defineCheck({
  id: 'stated-lengths-count-characters',
  ruleId: 'request-validation',
  title:
    'Stated lengths count characters (astral ones included), overlong valid values are refused, and every excluded character is.',
  fixture: 'length-in-utf16',
  inputs: {
    operations: named('createMcpServer', 'executeQuery', 'updateCurrentWorkspace'),
    reads: { parts: ['operation', 'request-body'], statuses: ['400'] },
  },
  async run(ctx) {
    const create = ctx.contract.operation('createMcpServer');
    if (create) {
      const props = requestBodySchema(create)?.properties ?? {};
      for (const [field, max] of [
        ['name', props.name?.maxLength],
        ['description', props.description?.maxLength],
      ] as const) {
        if (typeof max !== 'number') continue;
        const stated = props[field]?.['x-stated'];
        const base = field === 'name' ? {} : { name: conformanceName() };
        const send = (value: string) =>
          ctx.send({
            method: create.method,
            path: create.path,
            body: { ...base, [field]: value },
            operationId: create.operationId,
          });
        judgeAccepted(
          ctx,
          create,
          await send(astralText(max)),
          `a ${field} of ${max} characters (${max * 2 - NAME_PREFIX.length} UTF-16 units)`,
          stated,
        );
        judgeRefusal(
          ctx,
          create,
          await send(astralText(max + 1)),
          `a ${field} of ${max + 1} characters`,
          `${field}: at most ${max} characters`,
          stated,
        );
      }
    }
    const query = ctx.contract.operation('executeQuery');
    const max = query && requestBodySchema(query)?.properties?.query?.maxLength;
    if (query && typeof max === 'number') {
      const stated = requestBodySchema(query)?.properties?.query?.['x-stated'];
      const send = (text: string) =>
        ctx.send({ method: query.method, path: query.path, body: { query: text }, operationId: query.operationId });
      judgeAccepted(ctx, query, await send(selectOf(max)), `a valid SELECT of ${max} characters`, stated);
      judgeRefusal(
        ctx,
        query,
        await send(selectOf(max + 1)),
        `a valid SELECT of ${max + 1} characters`,
        `query: at most ${max} characters`,
        stated,
      );
      judgeRefusal(
        ctx,
        query,
        await send(`SELECT 1${' '.repeat(max + 1 - 'SELECT 1'.length)}`),
        `a valid SELECT of ${max + 1} characters (padded with spaces)`,
        `query: at most ${max} characters`,
        stated,
      );
    }
    const update = ctx.contract.operation('updateCurrentWorkspace');
    if (update && ctx.config.allowWrites) {
      const name = requestBodySchema(update)?.properties?.name;
      const excluded = typeof name?.pattern === 'string' ? (/^\^\[\^(.+)\]\*\$$/.exec(name.pattern)?.[1] ?? '') : '';
      for (const character of Array.from(excluded)) {
        const exchange = await ctx.send({
          method: update.method,
          path: update.path,
          body: { name: `${conformanceName(20)}${character}` },
          operationId: update.operationId,
        });
        judgeRefusal(
          ctx,
          update,
          exchange,
          `a workspace name containing ${character}`,
          `name: must match ${name.pattern}`,
          name['x-stated'],
        );
      }
      const nameMax = name?.maxLength;
      if (typeof nameMax === 'number')
        judgeAccepted(
          ctx,
          update,
          await ctx.send({
            method: update.method,
            path: update.path,
            body: { name: astralText(nameMax) },
            operationId: update.operationId,
          }),
          `a workspace name of ${nameMax} characters`,
          name?.['x-stated'],
        );
      // Leave a recognisable name behind rather than a row of emoji.
      await ctx.send({
        method: update.method,
        path: update.path,
        body: { name: conformanceName() },
        operationId: update.operationId,
      });
    } else if (update) {
      ctx.note('workspace name rules not tried without --allow-writes');
      ctx.unjudged?.(
        'the workspace name rules (lengths, `^[^<>]*$`)',
        'run with --allow-writes (it renames the workspace)',
      );
    }
  },
});
