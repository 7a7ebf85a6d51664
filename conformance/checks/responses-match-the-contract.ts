/**
 * x-rules: response-conformance — Every response has a declared status, a JSON Content-Type, its declared
 * headers (valid against their schemas) and a body valid against the declared schema (the contract's UUID
 * pattern, not a generic uuid format); unknown fields pass wherever the schema is open (unknown-fields-ignored);
 * a list's total `count` is never below its page. A hook on every response, plus a sweep that calls every
 * operation once. Proved by fixtures/broken/suppression-with-extra-property.ts and suppression-count-below-page.ts.
 */
import { answerOf } from './answer';
import type { ErrorObject } from 'ajv';
import type { Operation, Violation } from '../../spec/lib';
import { describe } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';
import { changesExistingState, fillPath, hasPathParameters, minimalBody, unknownUuid } from '../lib/operations';
import { refusalReason } from '../lib/refused-request';
import { statedStatuses, STATUSES_NOT_SHOWN } from '../lib/stated';
import { defineCheck, type CheckContext } from './registry';

function formatErrors(errors: ErrorObject[]): string {
  const shown = errors
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '/'} ${e.message}${e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : ''}`,
    );
  return shown.join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '');
}

/** The title, expectation and observation a violation of the contract library is reported with. */
function present(violation: Violation, exchange: Exchange): { title: string; expected: string; received: string } {
  switch (violation.kind) {
    case 'undeclared-status':
      return { title: 'Undeclared status', expected: violation.expected, received: describe(exchange) };
    case 'missing-header':
      return {
        title: `Declared header ${violation.header} missing`,
        expected: violation.expected,
        received: violation.received,
      };
    case 'invalid-header':
      return {
        title: `Header ${violation.header} is invalid`,
        expected: "a value valid against the header's schema",
        received: `${violation.header}: ${exchange.response?.headers[(violation.header ?? '').toLowerCase()]} (${formatErrors(violation.errors ?? [])})`,
      };
    case 'not-json':
      return violation.expected === 'application/json'
        ? { title: 'Content-Type is not JSON', expected: violation.expected, received: violation.received }
        : { title: 'Body is not JSON', expected: violation.expected, received: violation.received };
    case 'invalid-body':
      return {
        title: 'Body does not match the declared schema',
        expected: violation.expected,
        received: formatErrors(violation.errors ?? []),
      };
    default:
      return { title: violation.message, expected: violation.expected, received: violation.received };
  }
}

/**
 * A status the operation does not declare. Where the description names the operation's statuses (the suppressions
 * list) it fails on those words; elsewhere the failure statuses are not shown, so a 4xx answering a request the
 * contract refuses anyway (a form body, a bound broken) is another reading of an open point: a warning with it.
 */
function reportUndeclaredStatus(ctx: CheckContext, op: Operation, exchange: Exchange, expected: string): void {
  const status = answerOf(exchange).status;
  const words = statedStatuses(op);
  const refused = status >= 400 && status < 500 && !words ? refusalReason(ctx.contract, op, exchange) : undefined;
  if (refused)
    ctx.report({
      severity: 'warning',
      title: `Undeclared ${status} for a request the contract refuses (${op.operationId} ${status})`,
      expected: `${expected} (the contract's reading; ${refused})`,
      received: describe(exchange),
      assumption: STATUSES_NOT_SHOWN,
      exchange,
    });
  else
    ctx.report({
      title: `Undeclared status (${op.operationId} ${status})`,
      expected,
      received: describe(exchange),
      stated: words ?? false,
      exchange,
    });
}

/** Validates one exchange against the contract; used by the hook for every response of the run. */
export function inspectResponse(exchange: Exchange, ctx: CheckContext): void {
  const res = exchange.response;
  if (!res) return;
  // Paths the contract does not have are the error-shape and rate-limit checks' business.
  const op = ctx.contract.findOperation(exchange.request.method, exchange.request.path);
  if (!op) return;
  const violations = ctx.contract.validateResponse({
    method: exchange.request.method,
    path: exchange.request.path,
    status: res.status,
    headers: res.headers,
    body: res.body,
    text: res.text,
  });
  // The rule's own words are about the suppressions list: elsewhere the rule is quoted instead of them.
  const stated = op.operationId === 'listSuppressions' ? undefined : false;
  for (const violation of violations) {
    const { title, expected, received } = present(violation, exchange);
    if (violation.kind === 'undeclared-status') {
      reportUndeclaredStatus(ctx, op, exchange, expected);
      continue;
    }
    ctx.report({ title: `${title} (${op.operationId} ${res.status})`, expected, received, stated, exchange });
  }
  if (!violations.some((v) => v.kind === 'invalid-body' || v.kind === 'not-json' || v.kind === 'undeclared-status')) {
    const short = countBelowPage(res.body, exchange.request.path);
    if (short)
      ctx.report({
        title: `count is below the items the page shows (${op.operationId} ${res.status})`,
        expected: short.expected,
        received: short.received,
        exchange,
      });
  }
}

/**
 * A list's `count` is the total of matching items, not only this page (ListSuppressionsResponse), so it is never
 * below the page's items, nor, once the page shows any, below the skipped items plus those shown.
 */
export function countBelowPage(body: unknown, requestPath: string): { expected: string; received: string } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { count, ...rest } = body as Record<string, unknown>;
  const page = Object.entries(rest).find(([, value]) => Array.isArray(value)) as [string, unknown[]] | undefined;
  if (typeof count !== 'number' || !page || page[1].length === 0) return undefined;
  const offset = Number(new URLSearchParams(requestPath.split('?')[1] ?? '').get('offset') ?? 0);
  const atLeast = page[1].length + (Number.isSafeInteger(offset) && offset > 0 ? offset : 0);
  if (count >= atLeast) return undefined;
  return {
    expected: `count >= ${atLeast} (${page[1].length} ${page[0]} on the page${atLeast > page[1].length ? ` after offset ${atLeast - page[1].length}` : ''})`,
    received: `count ${count}`,
  };
}

/** Ids the read-only SQL query can reveal (workflows, models), so that GETs by id can see a 200. */
async function discoverIds(ctx: CheckContext): Promise<Record<string, string[]>> {
  const query = ctx.contract.operation('executeQuery');
  const found: Record<string, string[]> = { workflow: [], model: [] };
  if (!query) return found;
  for (const [kind, sql] of [
    ['workflow', 'SELECT DISTINCT workflowUuid AS id FROM runs WHERE workflowUuid IS NOT NULL LIMIT 2'],
    ['model', 'SELECT DISTINCT modelUuid AS id FROM records WHERE modelUuid IS NOT NULL LIMIT 2'],
  ] as const) {
    const ex = await ctx.send({
      method: query.method,
      path: query.path,
      body: { query: sql },
      operationId: query.operationId,
    });
    const rows = (ex.response?.body as { rows?: Array<{ id?: unknown }> } | undefined)?.rows;
    if (Array.isArray(rows)) for (const row of rows) if (typeof row?.id === 'string') found[kind].push(row.id);
  }
  return found;
}

function idsFor(op: Operation, discovered: Record<string, string[]>): string[] {
  if (/workflows/i.test(op.path)) return discovered.workflow;
  if (/models/i.test(op.path)) return discovered.model;
  return [];
}

export const responsesMatchTheContract = defineCheck({
  id: 'responses-match-the-contract',
  ruleId: 'response-conformance',
  title:
    'Every response has a declared status, JSON Content-Type, its declared headers and a body valid against its schema.',
  fixture: 'suppression-with-extra-property',
  covers: ['response-conformance: *'],
  declines: {
    'response-conformance: * 500': 'a correct server never answers 500 (no-request-gets-a-server-error fails any 5xx)',
    'response-conformance: * 429':
      'the 429 is provoked once a run, on the first GET without parameters: the limit is per workspace, not per operation',
    'response-conformance: * 409':
      'a concurrent retry overlaps only a request still running: provoked on the waitUntilFinished run alone',
    'response-conformance: listSuppressions 404': 'a list without ids names nothing that could be missing',
  },
  inputs: { operations: 'all', reads: { parts: ['operation'], responses: ['*'] } },
  onExchange: inspectResponse,
  async run(ctx) {
    const discovered = await discoverIds(ctx);
    const skipped: string[] = [];
    for (const op of ctx.contract.operations) {
      const writes = changesExistingState(op);
      if (writes && !hasPathParameters(op) && !ctx.config.allowWrites) {
        skipped.push(op.operationId);
        continue;
      }
      // Runs and batches get their own scenario (polling checks); here a uuid of nothing is enough.
      const ids = writes ? [unknownUuid()] : [...idsFor(op, discovered), unknownUuid()];
      for (const id of ids) {
        const path = fillPath(
          op,
          Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, id])),
        );
        await ctx.send({ method: op.method, path, body: minimalBody(op), operationId: op.operationId });
        if (!hasPathParameters(op)) break;
      }
    }
    if (skipped.length > 0) {
      ctx.note(`not called without --allow-writes: ${skipped.join(', ')}`);
      ctx.unjudged?.(`the responses of ${skipped.join(', ')}`, 'run with --allow-writes (they change what exists)');
    }
  },
});
