// Machine and terminal formats of the diff report: JSON, JUnit XML (one test case per distinct change), GitHub
// Actions workflow commands (an annotation on the file and line of each distinct change) and plain text for a
// terminal. Text from a spec reaches each through spec/lib's escaping layer for that format.
// @see https://docs.github.com/actions/reference/workflow-commands-for-github-actions
// @see https://github.com/testmoapp/junitxml

import { groupRows, listSome, type Row } from './rows';
import { headline, summaryLine } from './render-markdown';
import type { DiffReport } from './run-diff';
import { CLASSIFICATIONS } from './rules';
import {
  escapeTerminalLine,
  escapeWorkflowData,
  escapeWorkflowProperty,
  escapeXml,
  stringifyJson,
} from '../../../spec/lib/escape';

export type Format = 'text' | 'markdown' | 'json' | 'junit' | 'github';
export const FORMATS: readonly Format[] = ['text', 'markdown', 'json', 'junit', 'github'];

/** JSON with line separators escaped too, so a line-oriented reader never splits it inside a spec's string. */
export function renderJson(report: DiffReport): string {
  return `${stringifyJson(report, 2)}\n`;
}

/** `N operations` or the operations themselves. */
function operationsOf(r: Row): string {
  return r.operations.length <= 3
    ? r.operations.join(', ')
    : `${r.operations.length} operations: ${listSome(r.operations, 2)}`;
}

/** One test case per distinct change, grouped in a suite per classification; failing changes are failures. */
export function renderJunit(report: DiffReport): string {
  const failing = new Set(report.failing);
  const fails = (r: Row) => r.changes.some((c) => failing.has(c));
  const rows = groupRows(report.changes);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = report.failingCount + report.waivers.expired.length;
  lines.push(
    `<testsuites name="spec-diff" tests="${rows.length + report.waivers.expired.length}" failures="${failures}">`,
  );
  for (const classification of CLASSIFICATIONS) {
    const group = rows.filter((r) => r.classification === classification);
    if (group.length === 0) continue;
    lines.push(
      `  <testsuite name="${classification}" tests="${group.length}" failures="${group.filter(fails).length}">`,
    );
    for (const r of group) {
      const first = r.changes.find((c) => c.source)?.source;
      const name = `${operationsOf(r)}: ${r.detail}`;
      const attrs = `classname="${escapeXml(`spec-diff.${r.rule}`)}" name="${escapeXml(name)}"${first ? ` file="${escapeXml(first.file)}"${first.line ? ` line="${first.line}"` : ''}` : ''}`;
      const body = [listSome(r.locations, 5), `${r.rule} (${r.classification}): ${r.reason}`];
      if (r.sources.length) body.push(`at ${listSome(r.sources, 5)}`);
      if (r.waived) body.push(`waived until ${r.waived.expires} by ${r.waived.approvedBy}: ${r.waived.reason}`);
      lines.push(
        `    <testcase ${attrs}>`,
        fails(r)
          ? `      <failure message="${escapeXml(r.detail)}" type="${escapeXml(r.rule)}">${escapeXml(body.join('\n'))}</failure>`
          : `      <system-out>${escapeXml(body.join('\n'))}</system-out>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  if (report.waivers.expired.length > 0) {
    lines.push(
      `  <testsuite name="waivers" tests="${report.waivers.expired.length}" failures="${report.waivers.expired.length}">`,
    );
    for (const w of report.waivers.expired) {
      lines.push(
        `    <testcase classname="spec-diff.waivers" name="${escapeXml(`waiver for ${w.rule}${w.operation ? ` on ${w.operation}` : ''}`)}">`,
        `      <failure message="${escapeXml(`expired ${w.expires}`)}" type="expired-waiver">${escapeXml(`approved by ${w.approvedBy}: ${w.reason}`)}</failure>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/**
 * GitHub Actions annotations, one per distinct change: `error` when it fails the check, `warning` for any other
 * breaking change or warning, `notice` for the rest; on the file (its path in the repository) and line of its first
 * place. Every value is encoded as the runner decodes it, so a spec's text stays inside its annotation.
 */
export function renderGithub(report: DiffReport): string {
  const failing = new Set(report.failing);
  const lines: string[] = [];
  for (const r of groupRows(report.changes)) {
    const level = r.changes.some((c) => failing.has(c))
      ? 'error'
      : r.classification === 'breaking' || r.classification === 'warning'
        ? 'warning'
        : 'notice';
    const source = r.changes.find((c) => c.source)?.source;
    const props = [`title=${escapeWorkflowProperty(`${r.classification}: ${r.rule}`)}`];
    if (source)
      props.unshift(`file=${escapeWorkflowProperty(source.file)}`, ...(source.line ? [`line=${source.line}`] : []));
    const waived = r.waived ? ` [waived until ${r.waived.expires} by ${r.waived.approvedBy}]` : '';
    // A file without useful lines (one-line JSON): the pointer says where.
    const at = source && !source.line && source.pointer ? ` (at ${source.pointer})` : '';
    const more = r.sources.length > 1 ? ` Also at ${listSome(r.sources.slice(1), 3)}.` : '';
    lines.push(
      `::${level} ${props.join(',')}::${escapeWorkflowData(`${operationsOf(r)} › ${listSome(r.locations, 2)}${at}: ${r.detail}. ${r.reason}${waived}${more}`)}`,
    );
  }
  for (const w of report.waivers.expired) {
    const file = report.waivers.file ? `file=${escapeWorkflowProperty(report.waivers.file)},` : '';
    lines.push(
      `::error ${file}title=expired waiver::${escapeWorkflowData(`waiver for ${w.rule}${w.operation ? ` on ${w.operation}` : ''} expired ${w.expires} (approved by ${w.approvedBy}); renew or delete it`)}`,
    );
  }
  lines.push(
    `spec:diff: ${escapeTerminalLine(summaryLine(report, String))}; ${report.failingCount} failing (fail on ${report.failOn})`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Plain text for a terminal: the verdict, then one block per distinct change, breaking first. Text from a spec is
 * shown with every control and escape character visible, one line per field, so it cannot move the cursor, recolour
 * the terminal or begin a CI workflow command.
 */
export function renderText(report: DiffReport): string {
  const t = escapeTerminalLine;
  const verdict = headline(report);
  const mark = { '✅': 'OK', '⚠️': 'NOTE', '❌': 'FAIL' }[verdict.mark];
  const lines = [`API contract diff: ${t(report.base)} -> ${t(report.head)}`, `${mark}: ${t(verdict.text)}`];
  for (const w of report.waivers.expired)
    lines.push(
      `FAIL: expired waiver for ${t(w.rule)}${w.operation ? ` on ${t(w.operation)}` : ''} (expired ${t(w.expires)}, approved by ${t(w.approvedBy)})`,
    );
  lines.push(summaryLine(report, String), '');
  const failing = new Set(report.failing);
  for (const classification of CLASSIFICATIONS) {
    const rows = groupRows(report.changes.filter((c) => c.classification === classification));
    if (rows.length === 0) continue;
    lines.push(`${classification.toUpperCase()} (${rows.length})`);
    for (const r of rows) {
      const fails = r.changes.some((c) => failing.has(c)) ? ' [fails]' : '';
      lines.push(`  ${t(operationsOf(r))}: ${t(r.detail)}${fails}`);
      lines.push(
        `    where: ${t(listSome(r.locations, 3))}${r.sources.length ? ` (${t(listSome(r.sources, 2))})` : ''}`,
      );
      lines.push(`    rule:  ${t(r.rule)}: ${t(r.reason)}`);
      if (r.waived)
        lines.push(`    waived until ${t(r.waived.expires)} by ${t(r.waived.approvedBy)}: ${t(r.waived.reason)}`);
    }
    lines.push('');
  }
  const cc = report.crossCheck;
  if (cc.ran) {
    lines.push(
      `Second opinion (${cc.engine}, annotations only): ${cc.disagreements.length} disagreement(s), ${groupRows(cc.findings).length} finding(s) of its own.`,
    );
    for (const d of cc.disagreements) lines.push(`  ${t(d.operation)} at ${t(d.location)}: ${t(d.summary)}`);
    for (const r of groupRows(cc.findings))
      lines.push(`  ${t(operationsOf(r))}: ${t(r.detail)} (${t(r.rule)}, ${r.classification})`);
  } else if (cc.note) lines.push(t(cc.note));
  return `${lines.join('\n').trimEnd()}\n`;
}
