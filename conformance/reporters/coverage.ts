/**
 * What a run covered: for every selected operation, each declared status (seen how often, failed, or not reached)
 * and each contract rule (passed, warned, failed, not reached by the checks that verify it, or not run at all).
 */
import type { Check } from '../checks/registry';
import type { Failure } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import type { Contract } from '../../spec/lib';
import type { CheckResult } from '../runner';
import { PASSIVE_TRAFFIC } from '../run/types';

export type CellState = 'passed' | 'warned' | 'failed' | 'not reached' | 'not run';

export type CoverageRow = {
  operationId: string;
  method: string;
  path: string;
  statuses: Array<{ status: string; seen: number; state: CellState }>;
  /** Statuses the target answered that the operation does not declare. */
  undeclared: Array<{ status: number; seen: number }>;
  rules: Record<string, CellState>;
};

export type Coverage = { rules: Array<{ id: string; text: string; checks: string[] }>; rows: CoverageRow[] };

function statusMatches(key: string, status: number): boolean {
  if (/^\dXX$/i.test(key)) return Math.floor(status / 100) === Number(key[0]);
  return key === String(status);
}

export function buildCoverage(
  contract: Contract,
  target: string,
  operationIds: string[] | undefined,
  checks: Check[],
  results: CheckResult[],
  exchanges: Exchange[],
): Coverage {
  const base = new URL(target).pathname.replace(/\/+$/, '');
  const opOfPath = (method: string, url: string) => {
    const pathname = new URL(url).pathname;
    return contract.findOperation(method, pathname.startsWith(base) ? pathname.slice(base.length) : pathname)
      ?.operationId;
  };
  const opOfExchange = (exchange: Exchange) =>
    exchange.operationId ?? opOfPath(exchange.request.method, exchange.request.url);
  const opOfFailure = (failure: Failure) =>
    failure.request ? opOfPath(failure.request.method, failure.request.url) : undefined;

  const ran = new Set(results.filter((r) => r.status !== 'skipped').map((r) => r.id));
  const hooks = checks.filter((c) => c.onExchange && ran.has(c.id));
  // A passive run (the proxy's exchanges) is also judged by the checks' traffic judges, each on its operations.
  const passive = exchanges.some((e) => e.checkId === PASSIVE_TRAFFIC);
  const judges = passive ? checks.filter((c) => c.traffic && ran.has(c.id)) : [];
  const checkRule = new Map(checks.map((c) => [c.id, c.ruleId]));
  const ruleIds = new Set([...contract.rules.map((r) => r.id), ...checks.map((c) => c.ruleId)]);
  const rules = [...ruleIds].map((id) => ({
    id,
    text: contract.rules.find((r) => r.id === id)?.text ?? '',
    checks: checks.filter((c) => c.ruleId === id).map((c) => c.id),
  }));
  const findings = results.flatMap((r) => [...r.failures, ...r.warnings]);

  const byOp = new Map<string, Exchange[]>();
  for (const exchange of exchanges) {
    const op = opOfExchange(exchange);
    if (op) byOp.set(op, [...(byOp.get(op) ?? []), exchange]);
  }
  const operations = contract.operations.filter((op) => !operationIds || operationIds.includes(op.operationId));
  const rows = operations.map((op): CoverageRow => {
    const mine = byOp.get(op.operationId) ?? [];
    const opFindings = findings.filter((f) => opOfFailure(f) === op.operationId);
    const statuses = Object.keys(op.responses).map((key) => {
      const seen = mine.filter((e) => e.response && statusMatches(key, e.response.status)).length;
      const failed = opFindings.some(
        (f) => f.severity === 'failure' && f.response && statusMatches(key, f.response.status),
      );
      return { status: key, seen, state: (failed ? 'failed' : seen > 0 ? 'passed' : 'not reached') as CellState };
    });
    const counts = new Map<number, number>();
    for (const { response } of mine)
      if (response && !Object.keys(op.responses).some((key) => statusMatches(key, response.status)))
        counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
    const ruleStates: Record<string, CellState> = {};
    for (const rule of rules) {
      const judged = hooks.some((h) => h.ruleId === rule.id)
        ? mine.length > 0
        : mine.some((e) => checkRule.get(e.checkId) === rule.id) ||
          (mine.length > 0 && judges.some((j) => j.ruleId === rule.id && j.traffic?.covers(op)));
      const cited = opFindings.filter((f) => f.ruleId === rule.id);
      if (cited.some((f) => f.severity === 'failure')) ruleStates[rule.id] = 'failed';
      else if (cited.length > 0) ruleStates[rule.id] = 'warned';
      else if (judged) ruleStates[rule.id] = 'passed';
      else ruleStates[rule.id] = rule.checks.some((id) => ran.has(id)) ? 'not reached' : 'not run';
    }
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      statuses,
      undeclared: [...counts].map(([status, seen]) => ({ status, seen })),
      rules: ruleStates,
    };
  });
  return { rules, rows };
}
