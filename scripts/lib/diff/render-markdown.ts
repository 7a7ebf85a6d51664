import type { Change } from './change';
import type { DiffReport } from './run-diff';
import { CLASSIFICATIONS, type Classification } from './rules';

const HEADINGS: Record<Classification, string> = {
  breaking: '🔴 Breaking',
  warning: '🟠 Warnings',
  'non-breaking': '🟢 Non-breaking',
  informational: 'ℹ️ Informational',
};

/** `file:line`, or `file#/pointer` where the file has no useful lines (a document on one line). */
export function placeOf(source: NonNullable<Change['source']>): string {
  return source.line ? `${source.file}:${source.line}` : `${source.file}${source.pointer ?? ''}`;
}

/** Table cells may not hold pipes or newlines. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function listSome(items: string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

type Row = {
  rule: string;
  detail: string;
  reason: string;
  operations: string[];
  locations: string[];
  sources: string[];
  waived?: Change['waived'];
};

export function sourceLabel(c: Change): string | undefined {
  if (!c.source) return undefined;
  return `${c.source.side === 'base' ? 'base ' : ''}${placeOf(c.source)}`;
}

/**
 * One row per distinct change: a shared header or component changed under many operations and statuses reads
 * as one line naming where, not dozens of identical lines.
 */
export function groupRows(changes: Change[]): Row[] {
  const rows = new Map<string, Row>();
  for (const c of changes) {
    const key = `${c.rule}\u0000${c.detail}\u0000${c.waived ? 'waived' : ''}`;
    const row = rows.get(key) ?? {
      rule: c.rule,
      detail: c.detail,
      reason: c.reason,
      operations: [],
      locations: [],
      sources: [],
      waived: c.waived,
    };
    if (!row.operations.includes(c.operation)) row.operations.push(c.operation);
    if (!row.locations.includes(c.location)) row.locations.push(c.location);
    const source = sourceLabel(c);
    if (source && !row.sources.includes(source)) row.sources.push(source);
    rows.set(key, row);
  }
  return [...rows.values()];
}

function renderRow(r: Row): string {
  const operations =
    r.operations.length <= 3
      ? r.operations.map((o) => `\`${cell(o)}\``).join('<br>')
      : `${r.operations.length} operations: ${cell(listSome(r.operations, 2))}`;
  const where =
    cell(listSome(r.locations, 3)) + (r.sources.length ? `<br><sub>${cell(listSome(r.sources, 2))}</sub>` : '');
  const why = r.waived
    ? `${cell(r.reason)}<br>**Waived** until ${r.waived.expires} by ${cell(r.waived.approvedBy)}: ${cell(r.waived.reason)}`
    : cell(r.reason);
  return `| ${operations} | ${cell(r.detail)} | ${where} | \`${r.rule}\` | ${why} |`;
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
    const t = types.size ? [...types].map((x) => `\`${cell(x)}\``).join('<br>') : 'none';
    const k = checks.size ? [...checks].map((x) => `\`${cell(x)}\``).join('<br>') : 'none';
    lines.push(`| \`${cell(operation)}\` | ${t} | ${k} |`);
  }
  return [...lines, ''];
}

/** A report fit for a pull-request comment: verdict first, then one table per classification, breaking first. */
export function renderMarkdown(report: DiffReport): string {
  const lines: string[] = [];
  const open = report.changes.filter((c) => !c.waived);
  const breaking = open.filter((c) => c.classification === 'breaking').length;
  const gate = report.failOn === 'warning' ? 'breaking change(s) or warning(s)' : 'breaking change(s)';
  lines.push(`## API contract diff`, '');
  lines.push(`\`${report.base}\` → \`${report.head}\``, '');
  if (report.changes.length === 0) {
    lines.push('✅ No changes to the contract.');
  } else if (report.failing.length > 0) {
    lines.push(
      `❌ **${groupRows(report.failing).length} ${gate} to existing /v1 operations.** A breaking change ships as a new path and never alters an existing one.`,
    );
  } else if (breaking > 0) {
    lines.push(`⚠️ ${breaking} breaking change(s), none to an existing /v1 operation.`);
  } else {
    lines.push('✅ No breaking changes.');
  }
  for (const w of report.waivers.expired) {
    lines.push(
      '',
      `❌ **Expired waiver** for \`${w.rule}\`${w.operation ? ` on \`${w.operation}\`` : ''} (expired ${w.expires}, approved by ${w.approvedBy}): renew it or delete it from ${report.waivers.file ?? 'the waiver file'}.`,
    );
  }
  const count = (k: Classification) => groupRows(report.changes.filter((c) => c.classification === k)).length;
  lines.push('', CLASSIFICATIONS.map((k) => `**${count(k)}** ${k === 'warning' ? 'warning(s)' : k}`).join(' · '), '');
  for (const classification of CLASSIFICATIONS) {
    const group = report.changes.filter((c) => c.classification === classification);
    if (group.length === 0) continue;
    const rows = groupRows(group);
    lines.push(`### ${HEADINGS[classification]} (${rows.length})`, '');
    lines.push('| Operation | Change | Where | Rule | Why |', '|---|---|---|---|---|');
    lines.push(...rows.map(renderRow), '');
  }
  lines.push(...renderImpact(report));
  if (report.waivers.unused.length > 0) {
    lines.push(
      `<sub>${report.waivers.unused.length} waiver(s) in ${report.waivers.file} matched no change: ${cell(report.waivers.unused.map((w) => w.rule).join(', '))}.</sub>`,
      '',
    );
  }
  const cc = report.crossCheck;
  if (cc.ran && cc.disagreements.length > 0) {
    lines.push(
      `### ⚖️ ${cc.engine} disagrees (${cc.disagreements.length})`,
      '',
      `The contract's rules keep their verdict; each line is a place where \`${cc.engine}\` (diff-recommended rules) sees it otherwise.`,
      '',
      '| Operation | Where | spec:diff | redocly | |',
      '|---|---|---|---|---|',
      ...cc.disagreements.map(
        (d) =>
          `| \`${cell(d.operation)}\` | ${cell(d.location)} | ${d.specDiff ? `${d.specDiff.classification} \`${d.specDiff.rule}\`` : 'no change'} | ${d.redocly ? `${d.redocly.impact} \`${d.redocly.ruleId}\`: ${cell(d.redocly.message)}` : 'no change'} | ${cell(d.summary)} |`,
      ),
      '',
    );
  }
  if (cc.ran)
    lines.push(
      `<sub>Contract rules plus a ${cc.engine} cross-check with its recommended diff rules: ${cc.added} extra finding(s), ${cc.disagreements.length} disagreement(s). Clock: ${report.now.slice(0, 10)}.</sub>`,
    );
  else if (cc.note) lines.push(`<sub>${cell(cc.note)}</sub>`);
  return `${lines.join('\n').trimEnd()}\n`;
}
