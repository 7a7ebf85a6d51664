/**
 * The usage report's shape and its readable form: what the mock answered, per operation × status × outcome, and
 * what the contract states that no request met. Standalone (types, and the markdown escaping that imports
 * nothing), so the control client exports it for Node and the browser alike.
 */
import type { operations } from '../../generators/generated/openapi';
import { escapeMarkdown, markdownCode } from '../../spec/lib/escape';

type OperationId = keyof operations & string;

/**
 * One cell of the count table. `outcome` tells answers of one operation and status apart:
 * - `job:<status>`: the answer carries a run or batch in that status (`job:error`, `job:pending`);
 * - `reason:<reason>`: an error answer's `reason` (`reason:rate_limited`, `reason:idempotency_key_reused`);
 * - `fault:<fault>`: a network fault replaced the answer (`fault:reset`); the request itself was processed;
 * - `-`: none of these.
 */
export type UsageRow = {
  operation: OperationId;
  status: number;
  outcome: string;
  count: number;
  /** Whether the operation states this status (exactly, by its range, or as `default`). */
  stated: boolean;
};

/** What one operation's answers left out: stated statuses never answered, terminal job statuses never polled. */
export type UsageGap = {
  operation: OperationId;
  /** Requests answered for this operation. */
  requests: number;
  /** Response keys of the contract (`200`, `404`, `4XX`, `default`) that no answer matched. */
  unexercisedStatuses: string[];
  /** For an operation that reads a run or batch (a poll): terminal statuses no answer showed. */
  unexercisedOutcomes: string[];
};

export type UsageReport = {
  /** The workspace the report is about (requests without a valid credential are counted for every one), or `all`. */
  scope: string;
  /** When counting began: the mock's start, or the last `resetUsage`. */
  since: string;
  /** Requests counted (answers of the API's operations). */
  requests: number;
  /** The count table: by operation in the contract's order, then status, then outcome. */
  rows: UsageRow[];
  /** Every operation, with what its answers did not exercise. */
  operations: UsageGap[];
  /** Answers not counted because the table was full (it keeps at most `maxCells` cells). */
  dropped: number;
  maxCells: number;
};

/** The report as markdown: the count table, then what was never exercised. Every value is escaped for markdown. */
export function formatUsageMarkdown(report: UsageReport): string {
  const lines = [
    `# Mock usage (${escapeMarkdown(report.scope)}, since ${escapeMarkdown(report.since)})`,
    '',
    `${report.requests} requests answered.${report.dropped > 0 ? ` ${report.dropped} more not counted: the table holds at most ${report.maxCells} cells.` : ''}`,
    '',
    '## Answers seen',
    '',
    '| operation | status | outcome | count |',
    '|---|---:|---|---:|',
    ...report.rows.map(
      (row) =>
        `| ${markdownCode(row.operation)} | ${row.status}${row.stated ? '' : ' (not stated)'} | ${row.outcome === '-' ? '-' : markdownCode(row.outcome)} | ${row.count} |`,
    ),
    ...(report.rows.length === 0 ? ['| (none) | | | |'] : []),
    '',
    '## Never exercised',
    '',
    'Stated statuses (the contract’s responses) no answer matched, and terminal statuses no poll showed:',
    '',
    '| operation | requests | statuses never answered | outcomes never seen |',
    '|---|---:|---|---|',
  ];
  const gaps = report.operations.filter((gap) => gap.unexercisedStatuses.length + gap.unexercisedOutcomes.length > 0);
  for (const gap of gaps)
    lines.push(
      `| ${markdownCode(gap.operation)} | ${gap.requests} | ${gap.unexercisedStatuses.map(markdownCode).join(', ') || '-'} | ${gap.unexercisedOutcomes.map(markdownCode).join(', ') || '-'} |`,
    );
  if (gaps.length === 0) lines.push('| (none: every stated status and outcome was met) | | | |');
  return `${lines.join('\n')}\n`;
}
