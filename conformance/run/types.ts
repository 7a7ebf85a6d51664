/** What a run produces and the events reporters receive. */
import type { Check } from '../checks/registry';
import type { Failure } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import type { Contract } from '../../spec/lib';

/** The check id of the exchanges a passive run sees: live traffic, sent by none of the suite's checks. */
export const PASSIVE_TRAFFIC = 'passive';

export type CheckStatus = 'passed' | 'failed' | 'warned' | 'skipped';

export type CheckResult = {
  id: string;
  ruleId: string;
  title: string;
  fixture: string;
  status: CheckStatus;
  failures: Failure[];
  warnings: Failure[];
  notes: string[];
  skippedReason?: string;
  /** Requests the check sent (active checks) or responses it inspected (hooks). */
  requests: number;
  durationMs: number;
  /** Stated rules (or parts) the check could not judge against this target, each with what would let it. */
  unjudged?: Unjudged[];
  /** The check judged a scenario another check sent (ctx.shared): it judged something without requests of its own. */
  usedShared?: boolean;
};

/** A stated rule, or a part of one, that a run could not judge, and how to judge it. */
export type Unjudged = { checkId: string; ruleId: string; what: string; how: string };

/**
 * Everything a run could not judge: each check's own list, and each skipped check as a whole with its reason (which
 * names the flag or setting that would run it).
 */
export function unjudgedOf(results: CheckResult[]): Unjudged[] {
  return results.flatMap((r) =>
    r.status === 'skipped'
      ? [{ checkId: r.id, ruleId: r.ruleId, what: r.title, how: r.skippedReason ?? 'skipped' }, ...(r.unjudged ?? [])]
      : (r.unjudged ?? []),
  );
}

export type RunSummary = {
  target: string;
  seed: number;
  results: CheckResult[];
  requests: number;
  durationMs: number;
  /** 0 every check passed, 1 a check failed, 2 stopped (--max-time) before judging everything, with no failure. */
  exitCode: 0 | 1 | 2;
  /** Why the run stopped before judging everything (the checks not judged say so in their skipped reason). */
  stopped?: string;
  /** Operations the run was restricted to (all of the contract's when nothing was selected). */
  operations?: string[];
  /** `i/n` when the run was one shard of several. */
  shard?: string;
  workers?: number;
  /** Passive mode: endpoints the traffic reached that the contract does not describe, with how often. */
  undescribed?: Array<{ endpoint: string; seen: number }>;
};

/** One generated case of a property: its input and verdict (a failing case may be followed by shrinking). */
export type CaseEvent = {
  type: 'case';
  checkId: string;
  property: string;
  index: number;
  passed: boolean;
  value: string;
};

export type RunEvent =
  | {
      type: 'run-start';
      target: string;
      seed: number;
      checks: Check[];
      specPath: string;
      contract?: Contract;
      operations?: string[];
      shard?: string;
      workers?: number;
    }
  | { type: 'check-start'; check: Check }
  | CaseEvent
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'finding'; failure: Failure }
  | { type: 'check-end'; result: CheckResult }
  | { type: 'run-end'; summary: RunSummary }
  /** A passive run's report so far (written periodically and on a signal); the run goes on. */
  | { type: 'snapshot'; summary: RunSummary };

export type Reporter = { onEvent(event: RunEvent): void | Promise<void> };

/** A check's result before it ran: passed until it records otherwise. */
export function newResult(check: Pick<Check, 'id' | 'ruleId' | 'title' | 'fixture'>): CheckResult {
  return {
    id: check.id,
    ruleId: check.ruleId,
    title: check.title,
    fixture: check.fixture,
    status: 'passed',
    failures: [],
    warnings: [],
    notes: [],
    requests: 0,
    durationMs: 0,
    unjudged: [],
  };
}

/** Why a check that sent nothing and judged nothing is skipped rather than passed. */
export const NOTHING_JUDGED = 'sent no request and judged no response: nothing to verify the rule on';

export function settle(result: CheckResult): void {
  // A check that neither sent a request nor judged one proves nothing: a PASS would claim what it never saw.
  const idle = result.requests === 0 && !result.usedShared && result.warnings.length === 0;
  if (idle && result.failures.length === 0 && result.skippedReason === undefined)
    result.skippedReason = result.notes.length > 0 ? `${NOTHING_JUDGED} (${result.notes.join('; ')})` : NOTHING_JUDGED;
  if (result.skippedReason !== undefined && result.failures.length === 0) result.status = 'skipped';
  else if (result.failures.length > 0) result.status = 'failed';
  else if (result.warnings.length > 0) result.status = 'warned';
  else result.status = 'passed';
}
