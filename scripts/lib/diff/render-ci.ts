// Machine formats of the diff report: JSON, JUnit XML (one test case per change) and GitHub Actions workflow
// commands (an annotation on the file and line of each change).
// @see https://docs.github.com/actions/reference/workflow-commands-for-github-actions
// @see https://github.com/testmoapp/junitxml

import type { Change } from './change';
import { placeOf } from './render-markdown';
import type { DiffReport } from './run-diff';

export type Format = 'markdown' | 'json' | 'junit' | 'github';
export const FORMATS: readonly Format[] = ['markdown', 'json', 'junit', 'github'];

export function renderJson(report: DiffReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function xml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // Characters XML 1.0 cannot carry.

      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

function where(c: Change): string {
  return c.source ? placeOf(c.source) : '';
}

/** One test case per change, grouped in a suite per classification; failing changes are failures. */
export function renderJunit(report: DiffReport): string {
  const failing = new Set(report.failing);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = report.failing.length + report.waivers.expired.length;
  lines.push(
    `<testsuites name="spec-diff" tests="${report.changes.length + report.waivers.expired.length}" failures="${failures}">`,
  );
  const groups = new Map<string, Change[]>();
  for (const c of report.changes) groups.set(c.classification, [...(groups.get(c.classification) ?? []), c]);
  for (const [classification, changes] of groups) {
    const count = changes.filter((c) => failing.has(c)).length;
    lines.push(`  <testsuite name="${xml(classification)}" tests="${changes.length}" failures="${count}">`);
    for (const c of changes) {
      const name = `${c.operation}: ${c.detail}`;
      const attrs = `classname="${xml(`spec-diff.${c.rule}`)}" name="${xml(name)}"${c.source ? ` file="${xml(c.source.file)}"${c.source.line ? ` line="${c.source.line}"` : ''}` : ''}`;
      const body = [`${c.location}`, `${c.rule} (${c.classification}): ${c.reason}`];
      if (where(c)) body.push(`at ${where(c)}`);
      if (c.waived) body.push(`waived until ${c.waived.expires} by ${c.waived.approvedBy}: ${c.waived.reason}`);
      if (failing.has(c)) {
        lines.push(
          `    <testcase ${attrs}>`,
          `      <failure message="${xml(c.detail)}" type="${xml(c.rule)}">${xml(body.join('\n'))}</failure>`,
          '    </testcase>',
        );
      } else {
        lines.push(
          `    <testcase ${attrs}>`,
          `      <system-out>${xml(body.join('\n'))}</system-out>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  if (report.waivers.expired.length > 0) {
    lines.push(
      `  <testsuite name="waivers" tests="${report.waivers.expired.length}" failures="${report.waivers.expired.length}">`,
    );
    for (const w of report.waivers.expired) {
      lines.push(
        `    <testcase classname="spec-diff.waivers" name="${xml(`waiver for ${w.rule}${w.operation ? ` on ${w.operation}` : ''}`)}">`,
        `      <failure message="${xml(`expired ${w.expires}`)}" type="expired-waiver">${xml(`approved by ${w.approvedBy}: ${w.reason}`)}</failure>`,
        '    </testcase>',
      );
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions annotations: `error` for a failing change, `warning` for any other breaking change or warning,
 * `notice` for the rest; each on the head spec's file and line (split files included).
 */
export function renderGithub(report: DiffReport): string {
  const failing = new Set(report.failing);
  const lines: string[] = [];
  for (const c of report.changes) {
    const level = failing.has(c)
      ? 'error'
      : c.classification === 'breaking' || c.classification === 'warning'
        ? 'warning'
        : 'notice';
    const props = [`title=${escapeProperty(`${c.classification}: ${c.rule}`)}`];
    if (c.source) {
      props.unshift(`file=${escapeProperty(c.source.file)}`, ...(c.source.line ? [`line=${c.source.line}`] : []));
    }
    const waived = c.waived ? ` [waived until ${c.waived.expires} by ${c.waived.approvedBy}]` : '';
    // A file without useful lines (one-line JSON): the pointer says where.
    const at = c.source && !c.source.line && c.source.pointer ? ` (at ${c.source.pointer})` : '';
    lines.push(
      `::${level} ${props.join(',')}::${escapeData(`${c.operation} › ${c.location}${at}: ${c.detail}. ${c.reason}${waived}`)}`,
    );
  }
  for (const w of report.waivers.expired) {
    const file = report.waivers.file ? `file=${escapeProperty(report.waivers.file)},` : '';
    lines.push(
      `::error ${file}title=expired waiver::${escapeData(`waiver for ${w.rule}${w.operation ? ` on ${w.operation}` : ''} expired ${w.expires} (approved by ${w.approvedBy}); renew or delete it`)}`,
    );
  }
  const s = report.summary;
  lines.push(
    `spec:diff: ${s.breaking} breaking, ${s.warning} warning(s), ${s['non-breaking']} non-breaking, ${s.informational} informational; ${report.failing.length} failing (fail on ${report.failOn})`,
  );
  return `${lines.join('\n')}\n`;
}
