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

function row(c: Change): string {
  return `| \`${cell(c.operation)}\` | ${cell(c.detail)} | \`${c.rule}\` | ${cell(c.reason)} |`;
}

/** A report fit for a pull-request comment: verdict first, then one table per classification, breaking first. */
export function renderMarkdown(report: DiffReport): string {
  const lines: string[] = [];
  const { breaking, informational } = report.summary;
  const nonBreaking = report.summary['non-breaking'];
  lines.push(`## API contract diff`, '');
  lines.push(`\`${report.base}\` → \`${report.head}\``, '');
  if (report.changes.length === 0) {
    lines.push('✅ No changes to the contract.');
  } else if (report.failing.length > 0) {
    lines.push(`❌ **${report.failing.length} breaking change(s) to existing /v1 operations.** A breaking change ships as a new path and never alters an existing one.`);
  } else if (breaking > 0) {
    lines.push(`⚠️ ${breaking} breaking change(s), none to an existing /v1 operation.`);
  } else {
    lines.push('✅ No breaking changes.');
  }
  lines.push('', `**${breaking}** breaking · **${nonBreaking}** non-breaking · **${informational}** informational`, '');
  for (const classification of ['breaking', 'non-breaking', 'informational'] as const) {
    const group = report.changes.filter((c) => c.classification === classification);
    if (group.length === 0) continue;
    lines.push(`### ${HEADINGS[classification]} (${group.length})`, '');
    lines.push('| Operation | Change | Rule | Why |', '|---|---|---|---|');
    lines.push(...group.map(row), '');
  }
  const cc = report.crossCheck;
  if (cc.ran) lines.push(`<sub>Contract rules plus a ${cc.engine} cross-check (${cc.added} extra finding(s)). Clock: ${report.now.slice(0, 10)}.</sub>`);
  else if (cc.note) lines.push(`<sub>${cell(cc.note)}</sub>`);
  return `${lines.join('\n').trimEnd()}\n`;
}
