import type { Change } from './change';
import type { DiffReport } from './run-diff';
import type { Classification } from './rules';

const HEADINGS: Record<Classification, string> = {
  breaking: '🔴 Breaking',
  'non-breaking': '🟢 Non-breaking',
  informational: 'ℹ️ Informational',
};

/** Table cells may not hold pipes or newlines. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function listSome(items: string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

type Row = { rule: string; detail: string; reason: string; operations: string[]; locations: string[] };

/**
 * One row per distinct change: a shared header or component changed under many operations and statuses reads
 * as one line naming where, not dozens of identical lines.
 */
export function groupRows(changes: Change[]): Row[] {
  const rows = new Map<string, Row>();
  for (const c of changes) {
    const key = `${c.rule}\u0000${c.detail}`;
    const row = rows.get(key) ?? { rule: c.rule, detail: c.detail, reason: c.reason, operations: [], locations: [] };
    if (!row.operations.includes(c.operation)) row.operations.push(c.operation);
    if (!row.locations.includes(c.location)) row.locations.push(c.location);
    rows.set(key, row);
  }
  return [...rows.values()];
}

function renderRow(r: Row): string {
  const operations = r.operations.length <= 3
    ? r.operations.map((o) => `\`${cell(o)}\``).join('<br>')
    : `${r.operations.length} operations: ${cell(listSome(r.operations, 2))}`;
  return `| ${operations} | ${cell(r.detail)} | ${cell(listSome(r.locations, 3))} | \`${r.rule}\` | ${cell(r.reason)} |`;
}

/** A report fit for a pull-request comment: verdict first, then one table per classification, breaking first. */
export function renderMarkdown(report: DiffReport): string {
  const lines: string[] = [];
  const { breaking } = report.summary;
  lines.push(`## API contract diff`, '');
  lines.push(`\`${report.base}\` → \`${report.head}\``, '');
  if (report.changes.length === 0) {
    lines.push('✅ No changes to the contract.');
  } else if (report.failing.length > 0) {
    lines.push(`❌ **${groupRows(report.failing).length} breaking change(s) to existing /v1 operations.** A breaking change ships as a new path and never alters an existing one.`);
  } else if (breaking > 0) {
    lines.push(`⚠️ ${breaking} breaking change(s), none to an existing /v1 operation.`);
  } else {
    lines.push('✅ No breaking changes.');
  }
  const count = (k: Classification) => groupRows(report.changes.filter((c) => c.classification === k)).length;
  lines.push('', `**${count('breaking')}** breaking · **${count('non-breaking')}** non-breaking · **${count('informational')}** informational`, '');
  for (const classification of ['breaking', 'non-breaking', 'informational'] as const) {
    const group = report.changes.filter((c) => c.classification === classification);
    if (group.length === 0) continue;
    const rows = groupRows(group);
    lines.push(`### ${HEADINGS[classification]} (${rows.length})`, '');
    lines.push('| Operation | Change | Where | Rule | Why |', '|---|---|---|---|---|');
    lines.push(...rows.map(renderRow), '');
  }
  const cc = report.crossCheck;
  if (cc.ran) lines.push(`<sub>Contract rules plus a ${cc.engine} cross-check (${cc.added} extra finding(s)). Clock: ${report.now.slice(0, 10)}.</sub>`);
  else if (cc.note) lines.push(`<sub>${cell(cc.note)}</sub>`);
  return `${lines.join('\n').trimEnd()}\n`;
}
