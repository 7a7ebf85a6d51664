import { dirname, join, relative, resolve, sep } from 'node:path';
import { type Anchor, anchorOf, type Change } from './change';
import { compareSpecs } from './compare-operations';
import {
  crossCheck as checkAgainstRedocly,
  CrossCheckRefused,
  type Disagreement,
  REDOCLY_ROOTS,
  redoclyCli,
  runRedoclyDiff,
} from './redocly-cross-check';
import { groupRows } from './rows';
import { CLASSIFICATIONS, type Classification } from './rules';
import { isExpired, loadWaivers, type Waiver, waiverMatchesChange } from './waivers';
import { createLineLocator } from '../../../spec/lib/locate';
import { bundleFile, dereferenceFile, type Origin } from '../../../spec/lib/load';
import { escapeToken } from '../../../spec/lib/pointer';
import { type JsonObject } from '../../../spec/lib/json';
import { serverBasePath } from '../../../spec/lib/document';
import {
  findSpecPath,
  pathInRepository,
  resolveSource,
  type SpecSource,
  sourceFile,
  workingTreeFile,
} from './spec-source';

export type FailOn = 'breaking' | 'warning';

export type DiffOptions = {
  base: string;
  /** File or git ref; undefined: the working tree's spec. */
  head?: string;
  cwd: string;
  specPath?: string;
  now?: Date;
  /**
   * Also run `redocly diff` on the same bundled documents and annotate the report with where it disagrees: `true`
   * (asked for: the report says when it could not run), `'auto'` (run when installed, silent when not), `false`.
   */
  crossCheck?: boolean | 'auto';
  /** Folders whose node_modules may hold @redocly/cli (default: the working folder, then this tool's own). */
  redoclyRoots?: readonly string[];
  /** Lowest classification that fails the check (default: breaking). */
  failOn?: FailOn;
  /** Waiver file; undefined: none. */
  waiversFile?: string;
  /** Add the generated client types and conformance checks each breaking change touches (impact.ts). */
  impact?: boolean;
};

export type WaiverSummary = {
  file?: string;
  /** Waivers that accepted at least one change. */
  applied: number;
  /** Expired waivers: each fails the check until it is renewed or deleted. */
  expired: Waiver[];
  /** Waivers in force that matched nothing (stale entries to delete). */
  unused: Waiver[];
};

export type DiffReport = {
  base: string;
  head: string;
  now: string;
  failOn: FailOn;
  /** Every occurrence of every change (a change to a shared schema occurs once per operation that uses it). */
  changes: Change[];
  /**
   * Distinct changes by classification (occurrences of one rule with one detail are one change), waived ones
   * included: the unit of every count in every format of the report.
   */
  summary: Record<Classification, number>;
  /** Distinct changes accepted by a waiver. */
  waived: number;
  /** Occurrences by classification. */
  occurrences: Record<Classification, number>;
  /** Occurrences at or above the threshold to operations that exist under /v1, not waived: these fail the check. */
  failing: Change[];
  /** Distinct changes among `failing`. */
  failingCount: number;
  waivers: WaiverSummary;
  exitCode: 0 | 1;
  /** The second opinion: shown beside the verdict, never part of it. */
  crossCheck: {
    engine: string;
    ran: boolean;
    /** Verdicts of the other engine that no contract rule covers (`redocly/<id>`); not in `changes`. */
    findings: Change[];
    /** Where the two engines disagree on whether a change breaks clients. */
    disagreements: Disagreement[];
    /** Why it did not run, when it was asked for or refused a side. */
    note?: string;
  };
};

/** Breaking first, then by operation and location, so the report reads the same on every run. */
export function sortChanges(changes: Change[]): Change[] {
  return [...changes].sort(
    (a, b) =>
      CLASSIFICATIONS.indexOf(a.classification) - CLASSIFICATIONS.indexOf(b.classification) ||
      a.operation.localeCompare(b.operation) ||
      a.location.localeCompare(b.location) ||
      a.rule.localeCompare(b.rule),
  );
}

/**
 * The version an operation lives under: the first `/vN` segment of its server path plus its path.
 * A spec without any version segment is taken as /v1, the contract's only version.
 */
export function versionOf(api: JsonObject, path: string): string {
  const match = /\/(v\d+)(?:\/|$)/.exec(`${serverBasePath(api)}${path.startsWith('/') ? path : ''}`);
  return match ? match[1] : 'v1';
}

function pathOfOperation(operation: string): string {
  return operation.includes(' ') ? operation.slice(operation.indexOf(' ') + 1) : operation;
}

type Side = { api: JsonObject; origins: WeakMap<object, Origin>; display(file: string): string };

/** The tokens of an anchor below its node, as far as the node has them. */
function anchorTokens(node: unknown, anchor: Anchor): string[] {
  const tokens = anchor.path ?? (anchor.key !== undefined ? [anchor.key] : []);
  const out: string[] = [];
  let at = node;
  for (const token of tokens) {
    if (typeof at !== 'object' || at === null || !(token in at)) break;
    out.push(token);
    at = (at as Record<string, unknown>)[token];
  }
  return out;
}

/** File and pointer of the node a change is anchored at: the head side when it exists there, else the base. */
function placeChange(
  change: Change,
  head: Side,
  base: Side,
): { side: 'head' | 'base'; file: string; pointer: string } | undefined {
  const anchor = anchorOf(change);
  if (!anchor) return undefined;
  for (const [side, node] of [
    ['head', anchor.head],
    ['base', anchor.base],
  ] as const) {
    if (typeof node !== 'object' || node === null) continue;
    const origin = (side === 'head' ? head : base).origins.get(node);
    if (!origin) continue;
    const below = anchorTokens(node, anchor).map(escapeToken);
    return { side, file: origin.file, pointer: [origin.pointer, ...below].join('/') };
  }
  return undefined;
}

/** Sets `source` on every change: file, line (when the file has useful lines) and JSON pointer. */
function locateChanges(changes: Change[], head: Side, base: Side): void {
  const placed = changes.map((change) => placeChange(change, head, base));
  const wanted = new Map<string, Set<string>>();
  for (const p of placed) if (p) wanted.set(p.file, (wanted.get(p.file) ?? new Set()).add(p.pointer));
  const lineOf = createLineLocator(wanted);
  changes.forEach((change, i) => {
    const p = placed[i];
    if (!p) return;
    const display = (p.side === 'head' ? head : base).display(p.file);
    const line = lineOf(p.file, p.pointer);
    change.source = { side: p.side, file: display, ...(line !== undefined ? { line } : {}), pointer: `#${p.pointer}` };
  });
}

/** A side that is not an OpenAPI 3 description is a usage error, not a diff of everything against nothing. */
export class NotOpenApiError extends Error {}

function assertOpenApi(api: JsonObject, label: string): void {
  if (typeof api.swagger === 'string')
    throw new NotOpenApiError(`${label} is Swagger ${api.swagger}; spec:diff compares OpenAPI 3.x descriptions`);
  if (typeof api.openapi !== 'string' || !/^3\./.test(api.openapi))
    throw new NotOpenApiError(
      `${label} is not an OpenAPI 3.x description (it has ${typeof api.openapi === 'string' ? `openapi: ${api.openapi}` : 'no `openapi` version field'})`,
    );
}

/** The component (`/components/schemas/Thing`) a node of either side was written as, when it was. */
function componentOf(base: Side, head: Side, node: object): string | undefined {
  const origin = head.origins.get(node) ?? base.origins.get(node);
  const match = origin && /^\/components\/[^/]+\/[^/]+$/.exec(origin.pointer);
  return match ? match[0] : undefined;
}

/** Counts of distinct changes by classification. */
export function countDistinct(changes: Change[]): Record<Classification, number> {
  const counts = Object.fromEntries(CLASSIFICATIONS.map((k) => [k, 0])) as Record<Classification, number>;
  for (const row of groupRows(changes)) counts[row.classification] += 1;
  return counts;
}

export async function runDiff(options: DiffOptions): Promise<DiffReport> {
  const now = options.now ?? new Date();
  const failOn = options.failOn ?? 'breaking';
  const waiverFile = loadWaivers(options.waiversFile);
  const gitSides = [options.base, options.head].some(
    (arg) => arg !== undefined && resolveSource(arg, options.cwd, 'x').kind === 'git',
  );
  // The spec's path in the repository: named, else found (needed for a git side or a head from the working tree).
  const specPath = options.specPath ?? (gitSides || options.head === undefined ? findSpecPath(options.cwd) : undefined);
  const baseSource = resolveSource(options.base, options.cwd, specPath);
  const headSource =
    options.head !== undefined
      ? resolveSource(options.head, options.cwd, specPath)
      : workingTreeSource(options.cwd, specPath ?? findSpecPath(options.cwd));
  const baseFile = sourceFile(baseSource, options.cwd);
  const headFile = sourceFile(headSource, options.cwd);
  const abort = new AbortController();
  try {
    const sideOf = (source: typeof baseSource, entry: string): Side => {
      const origins = new WeakMap<object, Origin>();
      const api = dereferenceFile(entry, origins);
      assertOpenApi(api, source.label);
      return { api, origins, display: displayOf(source, entry, options) };
    };
    const base = sideOf(baseSource, baseFile.file);
    const head = sideOf(headSource, headFile.file);
    // The second opinion reads the documents our loader has read and checked, never the files themselves; it runs
    // in its own process while this one compares.
    const roots = options.redoclyRoots ?? [options.cwd, ...REDOCLY_ROOTS];
    const wanted = options.crossCheck === true || (options.crossCheck === 'auto' && redoclyCli(roots) !== undefined);
    const redocly = wanted
      ? Promise.resolve()
          .then(() => runRedoclyDiff(roots, bundleFile(baseFile.file), bundleFile(headFile.file), abort.signal))
          .then(
            (report) => ({ report }),
            (error: Error) => ({ error }),
          )
      : undefined;
    const changes = compareSpecs(base.api, head.api, { now, targetOf: (node) => componentOf(base, head, node) });
    locateChanges(changes, head, base);
    const crossCheck: DiffReport['crossCheck'] = {
      engine: 'redocly diff',
      ran: false,
      findings: [],
      disagreements: [],
    };
    if (redocly) {
      const outcome = await redocly;
      if ('report' in outcome) {
        const found = checkAgainstRedocly(outcome.report, changes);
        crossCheck.ran = true;
        crossCheck.findings = sortChanges(found.added);
        crossCheck.disagreements = found.disagreements;
      } else if (options.crossCheck === true || outcome.error instanceof CrossCheckRefused)
        crossCheck.note = `redocly diff did not run: ${outcome.error.message.split('\n')[0]}`;
    }
    const sorted = sortChanges(changes);

    const diffWaivers = waiverFile.waivers.filter((w) => w.section === 'diff');
    const inForce = diffWaivers.filter((w) => !isExpired(w, now));
    const used = new Set<Waiver>();
    for (const change of sorted) {
      const waiver = inForce.find((w) => waiverMatchesChange(w, change));
      if (!waiver) continue;
      used.add(waiver);
      change.waived = { reason: waiver.reason, approvedBy: waiver.approvedBy, expires: waiver.expires };
    }
    const waivers: WaiverSummary = {
      ...(waiverFile.file ? { file: relative(options.cwd, waiverFile.file) || waiverFile.file } : {}),
      applied: used.size,
      expired: diffWaivers.filter((w) => isExpired(w, now)),
      unused: inForce.filter((w) => !used.has(w)),
    };

    // Impact reads the conformance checks' declared inputs: loaded only when a breaking change or warning has one.
    if (options.impact && sorted.some((c) => c.classification === 'breaking' || c.classification === 'warning')) {
      const { addImpact } = await import('./impact');
      addImpact(sorted, { baseApi: base.api, headApi: head.api });
    }

    const threshold = new Set<Classification>(failOn === 'warning' ? ['breaking', 'warning'] : ['breaking']);
    const failing = sorted.filter(
      (c) => threshold.has(c.classification) && !c.waived && versionOfChange(base.api, c) === 'v1',
    );
    const occurrences = Object.fromEntries(CLASSIFICATIONS.map((k) => [k, 0])) as Record<Classification, number>;
    for (const c of sorted) occurrences[c.classification] += 1;
    return {
      base: baseSource.label,
      head:
        headSource.kind === 'file' && options.head === undefined
          ? `${headSource.label} (working tree)`
          : headSource.label,
      now: now.toISOString(),
      failOn,
      changes: sorted,
      summary: countDistinct(sorted),
      waived: groupRows(sorted.filter((c) => c.waived)).length,
      occurrences,
      failing,
      failingCount: groupRows(failing).length,
      waivers,
      exitCode: failing.length > 0 || waivers.expired.length > 0 ? 1 : 0,
      crossCheck,
    };
  } finally {
    abort.abort(); // the second opinion is not waited for when a side cannot be read
    baseFile.cleanup();
    headFile.cleanup();
  }
}

/** The head side when none is given: the spec in the working tree, at its path from the repository's root. */
function workingTreeSource(cwd: string, specPath: string) {
  const source = resolveSource(workingTreeFile(cwd, specPath), cwd, specPath);
  if (source.kind !== 'file')
    throw new Error(`the working tree has no ${specPath}; name the spec with --spec <path from the repository root>`);
  return { ...source, label: specPath };
}

/**
 * How a side's files are named in the report: by their path in the repository, which is what GitHub annotations and
 * reviewers need. A git side's files by their path at that commit; a file inside a git work tree by its path from the
 * tree's root; a file elsewhere (a copy in a temporary folder) by `--spec` when given, else from the working folder.
 */
function displayOf(source: SpecSource, entry: string, options: DiffOptions): (file: string) => string {
  if (source.kind === 'git') {
    const root = resolve(entry, ...source.specPath.split('/').map(() => '..'));
    return (file) => relative(root, file);
  }
  if (pathInRepository(entry) !== undefined) return (file) => pathInRepository(file) ?? relative(options.cwd, file);
  if (options.specPath) {
    const folder = dirname(entry);
    const specPath = options.specPath;
    return (file) =>
      resolve(file) === resolve(entry)
        ? specPath
        : join(dirname(specPath), relative(folder, file)).split(sep).join('/');
  }
  return (file) => relative(options.cwd, file) || file;
}

/** Document-wide changes, webhooks and callbacks belong to the version of the base document's servers. */
function versionOfChange(api: JsonObject, c: Change): string {
  return c.operation === '(document)' || c.channel ? versionOf(api, '') : versionOf(api, pathOfOperation(c.operation));
}
