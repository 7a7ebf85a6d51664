import { LINT_RULES } from './rules';
import type { LintContext, LintRule, Problem } from './types';
import {
  bundleFile,
  dereferenceFile,
  escapeToken,
  HTTP_METHODS,
  listOperations,
  makeLineLocator,
  operationKey,
  parsePointer,
} from '../../../spec/lib';
import { globMatches, isExpired, loadWaivers, type Waiver } from '../diff/waivers';

export type LintResult = {
  file: string;
  /** Problems no waiver accepts (and expired waivers): these fail. */
  problems: Problem[];
  /** Problems a lint waiver in force accepts. */
  waived: Problem[];
};

export type LintOptions = { rules?: LintRule[]; waiversFile?: string; now?: Date };

/** `#/paths/~1things/get/...` → `GET /things`; anything else is document-wide. */
function operationOfPointer(pointer: string): string {
  const [root, path, method] = parsePointer(pointer);
  return root === 'paths' && path && (HTTP_METHODS as readonly string[]).includes(method ?? '')
    ? operationKey(method, path)
    : '(document)';
}

export function lintSpec(file: string, options: LintOptions | LintRule[] = {}): LintResult {
  const { rules = LINT_RULES, waiversFile, now = new Date() } = Array.isArray(options) ? { rules: options } : options;
  const api = dereferenceFile(file);
  const bundled = bundleFile(file);
  const operations = listOperations(api);
  const locate = makeLineLocator(file);
  const found: Problem[] = [];
  for (const rule of rules) {
    const push = (operation: string, pointer: string, message: string) => {
      found.push({ rule: rule.id, operation, pointer, message, line: locate(pointer) });
    };
    const ctx: LintContext = {
      api,
      operations,
      bundled,
      report(op, path, message) {
        const base = op ? ['paths', op.path, op.method.toLowerCase()] : [];
        push(
          op ? operationKey(op.method, op.path) : '(document)',
          `#/${[...base, ...path].map(escapeToken).join('/')}`,
          message,
        );
      },
      reportAt(pointer, message) {
        push(operationOfPointer(pointer), pointer, message);
      },
    };
    rule.check(ctx);
  }
  const waivers = loadWaivers(waiversFile).waivers.filter((w) => w.section === 'lint');
  const inForce = waivers.filter((w) => !isExpired(w, now));
  const matches = (w: Waiver, p: Problem) => w.rule === p.rule && globMatches(w.target, p.pointer);
  const problems: Problem[] = [];
  const waived: Problem[] = [];
  for (const p of found) {
    const waiver = inForce.find((w) => matches(w, p));
    if (waiver)
      waived.push({ ...p, waived: { reason: waiver.reason, approvedBy: waiver.approvedBy, expires: waiver.expires } });
    else problems.push(p);
  }
  for (const w of waivers.filter((x) => isExpired(x, now))) {
    problems.push({
      rule: 'expired-waiver',
      operation: '(document)',
      pointer: w.target ?? '#',
      message: `the lint waiver for ${w.rule}${w.target ? ` on ${w.target}` : ''} (approved by ${w.approvedBy}: ${w.reason}) expired ${w.expires}: renew it or fix what it accepts`,
    });
  }
  return { file, problems, waived };
}

/** eslint-like text: one block per operation, each problem with its line, pointer, message and rule. */
export function formatProblems(result: LintResult, displayName = result.file): string {
  const accepted = result.waived.length > 0 ? ` (${result.waived.length} accepted by waivers)` : '';
  if (result.problems.length === 0)
    return `${displayName}: contract lint passed (${LINT_RULES.length} rules)${accepted}\n`;
  const lines: string[] = [displayName];
  const byOperation = new Map<string, Problem[]>();
  for (const p of result.problems) byOperation.set(p.operation, [...(byOperation.get(p.operation) ?? []), p]);
  for (const [operation, problems] of byOperation) {
    lines.push(`  ${operation}`);
    for (const p of problems) {
      lines.push(`    ${p.line ? `line ${p.line}`.padEnd(9) : ''.padEnd(9)} error  ${p.message}`);
      lines.push(`    ${''.padEnd(9)}        at ${p.pointer}  [${p.rule}]`);
    }
  }
  const count = result.problems.length;
  lines.push('', `✖ ${count} contract problem${count === 1 ? '' : 's'}${accepted}`);
  return `${lines.join('\n')}\n`;
}
