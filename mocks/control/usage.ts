/**
 * The mock's usage: a count table of the answers it gave, operation × status × outcome, per workspace, and the
 * report built from it (with what the contract states that no answer met). Bounded: a count per cell, at most
 * `maxCells` cells in all (later new cells are counted as dropped), outcomes cut to 64 characters. Web-standard
 * (nothing from Node), so every adapter of the mock keeps one; each process counts what it answered.
 */
import type { Stage } from '../context';
import { whenKnown } from '../maybe-promise';
import type { Operation } from '../../spec/lib/operations';
import { responseFor } from '../../spec/lib/responses';
import type { MockResponse } from '../types';
import type { UsageGap, UsageReport, UsageRow } from './usage-report';

export type { UsageGap, UsageReport, UsageRow } from './usage-report';
export { formatUsageMarkdown } from './usage-report';

/** Cells kept in all (every workspace): operations × statuses × outcomes met in practice stay far below it. */
export const USAGE_MAX_CELLS = 10_000;
const OUTCOME_MAX_LENGTH = 64;
/** The scope of answers to requests without a valid credential: no workspace can be told, so each counts them. */
const ANONYMOUS = '';

export type UsageDeps = {
  /** The contract's operations (their order is the report's). */
  operations: readonly Operation[];
  /** The contract's terminal statuses of a run or batch (`contract.constants.terminalStatuses`). */
  terminalStatuses: readonly string[];
  now: () => number;
  maxCells?: number;
};

export type UsageCounter = ReturnType<typeof createUsageCounter>;

/** What distinguishes answers of one operation and status (the vocabulary is `UsageRow.outcome`'s). */
export function outcomeOf(response: MockResponse): string {
  if (response.fault) return `fault:${response.fault}`;
  const body = response.body as { run?: { status?: unknown }; batch?: { status?: unknown }; reason?: unknown };
  if (body && typeof body === 'object') {
    const job = body.run?.status ?? body.batch?.status;
    if (typeof job === 'string') return `job:${job}`.slice(0, OUTCOME_MAX_LENGTH);
    if (response.status >= 400 && typeof body.reason === 'string')
      return `reason:${body.reason}`.slice(0, OUTCOME_MAX_LENGTH);
  }
  return '-';
}

/** An operation whose answers show a run or batch, and which reads it (a poll): its terminal statuses are outcomes. */
function readsJob(operation: Operation): boolean {
  if (operation.method !== 'GET') return false;
  return Object.entries(operation.responses).some(([key, response]) => {
    if (!key.startsWith('2')) return false;
    const properties = response.content['application/json']?.schema?.properties as Record<string, unknown> | undefined;
    return properties !== undefined && ('run' in properties || 'batch' in properties);
  });
}

/** One scope's counts: operation → status → outcome → count. */
type Cells = Map<string, Map<number, Map<string, number>>>;

/** A scope's cells as `"operationId status outcome"` and count (the report's keys). */
function* cellsOf(table: Cells): Generator<[string, number]> {
  for (const [operationId, byStatus] of table)
    for (const [status, byOutcome] of byStatus)
      for (const [outcome, count] of byOutcome) yield [`${operationId} ${status} ${outcome}`, count];
}

export function createUsageCounter(deps: UsageDeps) {
  const maxCells = deps.maxCells ?? USAGE_MAX_CELLS;
  const byId = new Map(deps.operations.map((operation, order) => [operation.operationId, { operation, order }]));
  /**
   * scope → operation → status → outcome → count. Nested rather than keyed by one joined string: counting an
   * answer makes no string and hashes none (every request is counted here).
   */
  const scopes = new Map<string, Cells>();
  let cells = 0;
  let dropped = 0;
  let since = deps.now();
  /** Workspaces whose counting began again later than `since` (their own resetUsage). */
  const sinceOf = new Map<string, number>();

  const record = (workspaceUuid: string | undefined, operationId: string, status: number, outcome: string) => {
    const scope = workspaceUuid ?? ANONYMOUS;
    let table = scopes.get(scope);
    let byStatus = table?.get(operationId);
    let byOutcome = byStatus?.get(status);
    const count = byOutcome?.get(outcome);
    if (byOutcome && count !== undefined) return void byOutcome.set(outcome, count + 1);
    if (cells >= maxCells) return void (dropped += 1);
    if (!table) scopes.set(scope, (table = new Map()));
    if (!byStatus) table.set(operationId, (byStatus = new Map()));
    if (!byOutcome) byStatus.set(status, (byOutcome = new Map()));
    byOutcome.set(outcome, 1);
    cells += 1;
  };

  /** The report of one workspace (with the answers to requests without a credential), or of all (`undefined`). */
  const report = (workspaceUuid?: string): UsageReport => {
    const merged = new Map<string, number>();
    for (const [scope, table] of scopes) {
      if (workspaceUuid !== undefined && scope !== workspaceUuid && scope !== ANONYMOUS) continue;
      for (const [key, count] of cellsOf(table)) merged.set(key, (merged.get(key) ?? 0) + count);
    }
    const rows: UsageRow[] = [];
    for (const [key, count] of merged) {
      // The operation id and the status hold no space; the outcome (an error's reason) may.
      const first = key.indexOf(' ');
      const second = key.indexOf(' ', first + 1);
      const [operationId, statusText, outcome] = [
        key.slice(0, first),
        key.slice(first + 1, second),
        key.slice(second + 1),
      ];
      const known = byId.get(operationId);
      if (!known) continue;
      const status = Number(statusText);
      const stated = responseFor(known.operation, status) !== undefined;
      rows.push({ operation: operationId as UsageRow['operation'], status, outcome, count, stated });
    }
    const order = (id: string) => byId.get(id)?.order ?? 0;
    rows.sort(
      (a, b) => order(a.operation) - order(b.operation) || a.status - b.status || (a.outcome < b.outcome ? -1 : 1),
    );
    const operations = deps.operations.map((operation): UsageGap => {
      const own = rows.filter((row) => row.operation === operation.operationId);
      const met = new Set(own.map((row) => responseFor(operation, row.status)?.response.key));
      const outcomes = new Set(own.map((row) => row.outcome));
      return {
        operation: operation.operationId as UsageGap['operation'],
        requests: own.reduce((sum, row) => sum + row.count, 0),
        unexercisedStatuses: Object.keys(operation.responses).filter((key) => !met.has(key)),
        unexercisedOutcomes: readsJob(operation)
          ? deps.terminalStatuses.filter((status) => !outcomes.has(`job:${status}`))
          : [],
      };
    });
    return {
      scope: workspaceUuid ?? 'all',
      since: new Date((workspaceUuid !== undefined && sinceOf.get(workspaceUuid)) || since).toISOString(),
      requests: rows.reduce((sum, row) => sum + row.count, 0),
      rows,
      operations,
      dropped,
      maxCells,
    };
  };

  return {
    record,
    report,
    /** Counting starts again for one workspace, or for all (`undefined`): for a suite that reads it per file. */
    reset(workspaceUuid?: string) {
      if (workspaceUuid === undefined) {
        scopes.clear();
        sinceOf.clear();
        cells = 0;
        dropped = 0;
        since = deps.now();
        return;
      }
      for (const byStatus of scopes.get(workspaceUuid)?.values() ?? [])
        for (const byOutcome of byStatus.values()) cells -= byOutcome.size;
      scopes.delete(workspaceUuid);
      if (sinceOf.size < maxCells || sinceOf.has(workspaceUuid)) sinceOf.set(workspaceUuid, deps.now());
    },
    /** The pipeline stage that counts each answer of the API (placed above the one that renders errors). */
    stage(routeOf: (method: string, path: string) => string | undefined): Stage {
      return (ctx, next) =>
        whenKnown(next(), (response) => {
          const operationId = ctx.route?.operation.operationId ?? routeOf(ctx.req.method, ctx.req.path);
          if (operationId !== undefined) {
            const identity = ctx.identity && 'caller' in ctx.identity ? ctx.identity.caller : undefined;
            record((ctx.caller ?? identity)?.workspaceUuid, operationId, response.status, outcomeOf(response));
          }
          return response;
        });
    },
  };
}
