import { LINT_RULES } from './rules';
import type { LintContext, LintRule, Problem } from './types';
import { makeLocator } from './locate';
import { dereferenceFile } from '../spec/dereference';
import { listOperations, pointerToken } from '../spec/openapi';

export type LintResult = { file: string; problems: Problem[] };

export function lintSpec(file: string, rules: LintRule[] = LINT_RULES): LintResult {
  const api = dereferenceFile(file);
  const operations = listOperations(api);
  const locate = makeLocator(file);
  const problems: Problem[] = [];
  for (const rule of rules) {
    const ctx: LintContext = {
      api,
      operations,
      report(op, path, message) {
        const base = op ? ['paths', op.path, op.method] : [];
        const pointer = `#/${[...base, ...path].map(pointerToken).join('/')}`;
        problems.push({ rule: rule.id, operation: op ? op.key : '(document)', pointer, message, line: locate(pointer) });
      },
    };
    rule.check(ctx);
  }
  return { file, problems };
}

/** eslint-like text: one block per operation, each problem with its line, pointer, message and rule. */
export function formatProblems(result: LintResult, displayName = result.file): string {
  if (result.problems.length === 0) return `${displayName}: contract lint passed (${LINT_RULES.length} rules)\n`;
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
  lines.push('', `✖ ${count} contract problem${count === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}
