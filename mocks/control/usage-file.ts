import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatUsageMarkdown, type UsageReport } from './usage-report';

/** Where the readable form goes beside the JSON: `report.json` → `report.md`, any other name gets `.md` added. */
export const markdownPathOf = (path: string) =>
  /\.json$/i.test(path) ? path.replace(/\.json$/i, '.md') : `${path}.md`;

/**
 * MOCK_USAGE_REPORT=<path>: the usage report as JSON at `path` and as markdown beside it (`markdownPathOf`), its
 * folder made if missing. Node only: the adapters that stop a process call it, the web-standard core never does.
 */
export function writeUsageReport(path: string, report: UsageReport): { json: string; markdown: string } {
  const markdown = markdownPathOf(path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(markdown, formatUsageMarkdown(report));
  return { json: path, markdown };
}
