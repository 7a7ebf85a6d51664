// The report as a pull-request comment. Every string that comes from a spec, a waiver file or the cross-check (names,
// paths, details, messages, file names) enters the markdown through spec/lib's escaping layer: prose through
// escapeMarkdown, names through markdownCode, so a spec cannot add a heading, a link, HTML or a mention of its own.

import type { DiffReport } from './run-diff';
import { CLASSIFICATIONS, type Classification } from './rules';
import { groupRows, listSome, type Row } from './rows';
import { escapeMarkdown as prose, markdownCode as code } from '../../../spec/lib/escape';

export { groupRows, placeOf, sourceLabel } from './rows';

const HEADINGS: Record<Classification, string> = {
  breaking: '🔴 Breaking',
  warning: '🟠 Warnings',
  'non-breaking': '🟢 Non-breaking',
  informational: 'ℹ️ Informational',
};

/** One table row per distinct change. */
function renderRow(r: Row): string {
  const operations =
    r.operations.length <= 3
      ? r.operations.map(code).join('<br>')
      : `${r.operations.length} operations: ${prose(listSome(r.operations, 2))}`;
  const where =
    prose(listSome(r.locations, 3)) + (r.sources.length ? `<br><sub>${prose(listSome(r.sources, 2))}</sub>` : '');
  const why = r.waived
    ? `${prose(r.reason)}<br>**Waived** until ${prose(r.waived.expires)} by ${prose(r.waived.approvedBy)}: ${prose(r.waived.reason)}`
    : prose(r.reason);
  return `| ${operations} | ${prose(r.detail)} | ${where} | ${code(r.rule)} | ${why} |`;
}

/** Client types and conformance checks touched by the breaking changes, one line per operation. */
function renderImpact(report: DiffReport): string[] {
  const byOperation = new Map<string, { types: Set<string>; checks: Set<string> }>();
  for (const c of report.changes) {
    if (!c.impact || (c.classification !== 'breaking' && c.classification !== 'warning')) continue;
    const entry = byOperation.get(c.operation) ?? { types: new Set(), checks: new Set() };
    c.impact.clientTypes.forEach((t) => entry.types.add(t));
    c.impact.conformanceChecks.forEach((t) => entry.checks.add(t));
    byOperation.set(c.operation, entry);
  }
  if (byOperation.size === 0) return [];
  const lines = [
    '### Impact of breaking changes and warnings',
    '',
    '| Operation | Generated client types that change | Conformance checks that cover it |',
    '|---|---|---|',
  ];
  for (const [operation, { types, checks }] of byOperation) {
    const t = types.size ? [...types].map(code).join('<br>') : 'none';
    const k = checks.size ? [...checks].map(code).join('<br>') : 'none';
    lines.push(`| ${code(operation)} | ${t} | ${k} |`);
  }
  return [...lines, ''];
}

/** The verdict in one line, in the same unit as every other count of the report (distinct changes). */
export function headline(report: DiffReport): { mark: '✅' | '⚠️' | '❌'; text: string } {
  const gate = report.failOn === 'warning' ? 'breaking change(s) or warning(s)' : 'breaking change(s)';
  const open = groupRows(report.changes.filter((c) => !c.waived && c.classification === 'breaking')).length;
  if (report.changes.length === 0) return { mark: '✅', text: 'No changes to the contract.' };
  if (report.failingCount > 0) {
    const failing = groupRows(report.failing);
    const notifications = failing.filter((r) => r.changes.some((c) => c.channel)).length;
    const operations = failing.length - notifications;
    const kinds = [
      ...(operations > 0
        ? [
            {
              n: operations,
              to: 'to existing /v1 operations',
              advice: 'a breaking change ships as a new path and never alters an existing one',
            },
          ]
        : []),
      ...(notifications > 0
        ? [
            {
              n: notifications,
              to: 'to webhooks or callbacks the API sends',
              advice:
                'a breaking change to a notification ships as a new webhook or callback, never altering one subscribers receive',
            },
          ]
        : []),
    ];
    const to = kinds.length === 1 ? ` ${kinds[0].to}` : `: ${kinds.map((k) => `${k.n} ${k.to}`).join(' and ')}`;
    return {
      mark: '❌',
      text: `${report.failingCount} ${gate}${to}. ${capitalise(kinds.map((k) => k.advice).join('; '))}.`,
    };
  }
  if (open > 0)
    return { mark: '⚠️', text: `${open} breaking change(s), none to an existing /v1 operation or notification.` };
  return { mark: '✅', text: 'No breaking changes.' };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `**3** breaking · **1** warning(s) · …`, waived ones said apart. */
export function summaryLine(report: DiffReport, bold: (n: number) => string): string {
  const parts = CLASSIFICATIONS.map((k) => `${bold(report.summary[k])} ${k === 'warning' ? 'warning(s)' : k}`);
  return `${parts.join(' · ')}${report.waived > 0 ? ` (${report.waived} waived)` : ''}`;
}

/** The cross-check's table of findings and disagreements: shown as its opinion, never counted in the verdict. */
function renderCrossCheck(report: DiffReport): string[] {
  const cc = report.crossCheck;
  const lines: string[] = [];
  if (!cc.ran) return cc.note ? [`<sub>${prose(cc.note)}</sub>`] : [];
  const rows = groupRows(cc.findings);
  if (cc.disagreements.length > 0 || rows.length > 0) {
    lines.push(
      `### ⚖️ Second opinion: ${cc.engine} (${cc.disagreements.length} disagreement(s), ${rows.length} finding(s) of its own)`,
      '',
      `Annotations only: the contract's rules decide the verdict and the exit code. \`${cc.engine}\` ran with its recommended diff rules on the same bundled documents.`,
      '',
    );
  }
  if (cc.disagreements.length > 0) {
    lines.push(
      '| Operation | Where | spec:diff | redocly | |',
      '|---|---|---|---|---|',
      ...cc.disagreements.map(
        (d) =>
          `| ${code(d.operation)} | ${prose(d.location)} | ${d.specDiff ? `${d.specDiff.classification} ${code(d.specDiff.rule)}` : 'no change'} | ${d.redocly ? `${prose(d.redocly.impact)} ${code(d.redocly.ruleId)}: ${prose(d.redocly.message)}` : 'no change'} | ${prose(d.summary)} |`,
      ),
      '',
    );
  }
  if (rows.length > 0) {
    lines.push(
      `Findings no contract rule covers (as ${cc.engine} rates them):`,
      '',
      '| Operation | Change | Where | Rule | Rated |',
      '|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.operations.map(code).join('<br>')} | ${prose(r.detail)} | ${prose(listSome(r.locations, 3))} | ${code(r.rule)} | ${r.classification} |`,
      ),
      '',
    );
  }
  lines.push(
    `<sub>Contract rules decide; ${cc.engine} (recommended diff rules) cross-checked: ${rows.length} finding(s) of its own, ${cc.disagreements.length} disagreement(s). Clock: ${report.now.slice(0, 10)}.</sub>`,
  );
  return lines;
}

/** A report fit for a pull-request comment: verdict first, then one table per classification, breaking first. */
export function renderMarkdown(report: DiffReport): string {
  const lines: string[] = [];
  lines.push(`## API contract diff`, '');
  lines.push(`${code(report.base)} → ${code(report.head)}`, '');
  const verdict = headline(report);
  lines.push(verdict.mark === '❌' ? `❌ **${prose(verdict.text)}**` : `${verdict.mark} ${prose(verdict.text)}`);
  for (const w of report.waivers.expired) {
    lines.push(
      '',
      `❌ **Expired waiver** for ${code(w.rule)}${w.operation ? ` on ${code(w.operation)}` : ''} (expired ${prose(w.expires)}, approved by ${prose(w.approvedBy)}): renew it or delete it from ${prose(report.waivers.file ?? 'the waiver file')}.`,
    );
  }
  lines.push(
    '',
    summaryLine(report, (n) => `**${n}**`),
    '',
  );
  for (const classification of CLASSIFICATIONS) {
    const group = report.changes.filter((c) => c.classification === classification);
    if (group.length === 0) continue;
    const rows = groupRows(group);
    lines.push(`### ${HEADINGS[classification]} (${rows.length})`, '');
    lines.push('| Operation | Change | Where | Rule | Why |', '|---|---|---|---|---|');
    // One push per row: a spread of 150 000 rows as arguments overflowed the call stack.
    for (const row of rows) lines.push(renderRow(row));
    lines.push('');
  }
  for (const line of renderImpact(report)) lines.push(line);
  if (report.waivers.unused.length > 0) {
    lines.push(
      `<sub>${report.waivers.unused.length} waiver(s) in ${prose(report.waivers.file ?? 'the waiver file')} matched no change: ${prose(report.waivers.unused.map((w) => w.rule).join(', '))}.</sub>`,
      '',
    );
  }
  lines.push(...renderCrossCheck(report));
  return `${lines.join('\n').trimEnd()}\n`;
}
