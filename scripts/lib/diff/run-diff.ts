import type { Change } from './change';
import { compareSpecs } from './compare-operations';
import { runRedoclyDiff, uncoveredVerdicts } from './redocly-cross-check';
import type { Classification } from './rules';
import { dereferenceSpec, resolveSource, sourceFile } from '../spec/load-spec';
import { type JsonObject, serverPath } from '../spec/openapi';

export type DiffOptions = {
  base: string;
  /** File or git ref; undefined: the working tree's spec. */
  head?: string;
  cwd: string;
  specPath?: string;
  now?: Date;
  /** Also run `redocly diff` and add what it finds that the contract rules did not. */
  crossCheck?: boolean;
};

export type DiffReport = {
  base: string;
  head: string;
  now: string;
  changes: Change[];
  summary: Record<Classification, number>;
  /** Breaking changes to operations that exist under /v1: these fail the check. */
  failing: Change[];
  exitCode: 0 | 1;
  crossCheck: { engine: string; ran: boolean; added: number; note?: string };
};

const ORDER: Classification[] = ['breaking', 'non-breaking', 'informational'];

/** Breaking first, then by operation and location, so the report reads the same on every run. */
export function sortChanges(changes: Change[]): Change[] {
  return [...changes].sort((a, b) =>
    ORDER.indexOf(a.classification) - ORDER.indexOf(b.classification)
    || a.operation.localeCompare(b.operation)
    || a.location.localeCompare(b.location)
    || a.rule.localeCompare(b.rule));
}

/**
 * The version an operation lives under: the first `/vN` segment of its server path plus its path.
 * A spec without any version segment is taken as /v1, the contract's only version.
 */
export function versionOf(api: JsonObject, path: string): string {
  const match = /\/(v\d+)(?:\/|$)/.exec(`${serverPath(api)}${path.startsWith('/') ? path : ''}`);
  return match ? match[1] : 'v1';
}

function pathOfOperation(operation: string): string {
  return operation.includes(' ') ? operation.slice(operation.indexOf(' ') + 1) : operation;
}

export async function runDiff(options: DiffOptions): Promise<DiffReport> {
  const now = options.now ?? new Date();
  const baseSource = resolveSource(options.base, options.cwd, options.specPath);
  const headSource = options.head !== undefined
    ? resolveSource(options.head, options.cwd, options.specPath)
    : resolveSource(options.specPath ?? 'spec/openapi.yaml', options.cwd, options.specPath);
  const baseFile = sourceFile(baseSource, options.cwd);
  const headFile = sourceFile(headSource, options.cwd);
  try {
    const [baseApi, headApi] = await Promise.all([dereferenceSpec(baseFile.file), dereferenceSpec(headFile.file)]);
    const changes = compareSpecs(baseApi, headApi, { now });
    const crossCheck: DiffReport['crossCheck'] = { engine: 'redocly diff', ran: false, added: 0 };
    if (options.crossCheck) {
      try {
        const extra = uncoveredVerdicts(await runRedoclyDiff(options.cwd, baseFile.file, headFile.file), changes);
        changes.push(...extra);
        crossCheck.ran = true;
        crossCheck.added = extra.length;
      } catch (error) {
        crossCheck.note = `redocly diff did not run: ${(error as Error).message.split('\n')[0]}`;
      }
    }
    const sorted = sortChanges(changes);
    const failing = sorted.filter((c) => c.classification === 'breaking'
      && (c.operation === '(document)' ? versionOf(baseApi, '') : versionOf(baseApi, pathOfOperation(c.operation))) === 'v1');
    const summary: Record<Classification, number> = { breaking: 0, 'non-breaking': 0, informational: 0 };
    for (const c of sorted) summary[c.classification] += 1;
    return {
      base: baseSource.label,
      head: headSource.kind === 'file' && options.head === undefined ? `${headSource.label} (working tree)` : headSource.label,
      now: now.toISOString(),
      changes: sorted,
      summary,
      failing,
      exitCode: failing.length > 0 ? 1 : 0,
      crossCheck,
    };
  } finally {
    baseFile.cleanup();
    headFile.cleanup();
  }
}
