// One row per distinct change: the unit every count of a report is in (its headline, its summary, its tables, its
// annotations, its test cases). A shared header or component changed under many operations and statuses is one
// change at many places, not dozens.

import type { Change } from './change';

/** `file:line`, or `file#/pointer` where the file has no useful lines (a document on one line). */
export function placeOf(source: NonNullable<Change['source']>): string {
  return source.line ? `${source.file}:${source.line}` : `${source.file}${source.pointer ?? ''}`;
}

/** `a, b and 3 more`. */
export function listSome(items: string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

export type Row = {
  classification: Change['classification'];
  rule: string;
  detail: string;
  reason: string;
  operations: string[];
  locations: string[];
  sources: string[];
  /** Every occurrence, in report order. */
  changes: Change[];
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
      classification: c.classification,
      rule: c.rule,
      detail: c.detail,
      reason: c.reason,
      operations: [],
      locations: [],
      sources: [],
      changes: [],
      waived: c.waived,
    };
    row.changes.push(c);
    if (!row.operations.includes(c.operation)) row.operations.push(c.operation);
    if (!row.locations.includes(c.location)) row.locations.push(c.location);
    const source = sourceLabel(c);
    if (source && !row.sources.includes(source)) row.sources.push(source);
    rows.set(key, row);
  }
  return [...rows.values()];
}
