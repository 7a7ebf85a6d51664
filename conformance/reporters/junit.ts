/** JUnit XML reporter: one testcase per check; failures and skips in JUnit's own elements. */
import { writeFileSync } from 'node:fs';
import { escapeTerminal, escapeXml as escapeXmlChars } from '../../spec/lib';
import { formatFailure } from './console';
import type { Reporter, RunEvent, RunSummary } from '../runner';

/**
 * Every text and attribute value of the report passes here once: only characters XML 1.0 allows (the others shown
 * as `\uNNNN`), and, since CI systems print JUnit messages into their logs, no escape sequence or workflow command.
 */
function escapeXml(text: string): string {
  return escapeXmlChars(escapeTerminal(text));
}

export function toJunitXml(summary: RunSummary): string {
  const failed = summary.results.filter((r) => r.status === 'failed').length;
  const skipped = summary.results.filter((r) => r.status === 'skipped').length;
  const cases = summary.results.map((r) => {
    const attrs = `name="${escapeXml(r.id)}" classname="conformance.${escapeXml(r.ruleId)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
    const body: string[] = [];
    if (r.status === 'failed') {
      const text = r.failures.map(formatFailure).join('\n\n');
      body.push(
        `<failure message="${escapeXml(r.failures[0].title)}" type="${escapeXml(r.failures[0].ruleId)}">${escapeXml(text)}</failure>`,
      );
    }
    if (r.status === 'skipped') body.push(`<skipped message="${escapeXml(r.skippedReason ?? '')}"/>`);
    const out = [
      ...r.notes,
      ...(r.unjudged ?? []).map((u) => `not judged: ${u.what} (how: ${u.how})`),
      ...r.warnings.map(formatFailure),
      `requests: ${r.requests}`,
    ].join('\n');
    body.push(`<system-out>${escapeXml(out)}</system-out>`);
    return `    <testcase ${attrs}>\n      ${body.join('\n      ')}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" tests="${summary.results.length}" failures="${failed}" skipped="${skipped}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="conformance ${escapeXml(summary.target)}" tests="${summary.results.length}" failures="${failed}" skipped="${skipped}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `    <properties><property name="seed" value="${summary.seed}"/><property name="requests" value="${summary.requests}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export class JunitReporter implements Reporter {
  constructor(private readonly file: string) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'run-end' || event.type === 'snapshot') writeFileSync(this.file, toJunitXml(event.summary));
  }
}
