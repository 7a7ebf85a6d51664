// Second opinion from `redocly diff` (in @redocly/cli 2.x, marked experimental), run with its recommended diff
// rules (`diff-recommended`): the project's redocly.yaml configures linting and enables none, and without diff
// rules redocly reports nothing. Each of its verdicts is matched with the contract engine's changes at the same
// place (pointer, else operation). Where the two engines disagree on whether a change breaks clients, or one of
// them sees a change the other does not, the report says so; a verdict no contract rule covers is listed as a
// finding of the cross-check (`redocly/<id>`). It annotates and never decides: the verdict and the exit code are
// the contract engine's alone.
// Redocly reads only what our loader has already read and checked: each side's bundle (split files inlined, YAML
// aliases expanded once, every `$ref` internal) written as JSON to a private temporary folder. A bundle that still
// names anything outside itself (`$ref`, `$dynamicRef`, `$id` base) is refused, so redocly never resolves a file
// or a network address of its own.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change } from './change';
import type { Classification } from './rules';
import { operationKey } from '../../../spec/lib/document';
import type { JsonObject } from '../../../spec/lib/json';
import { parsePointer } from '../../../spec/lib/pointer';

type RedoclyLocation = { file?: string; pointer?: string; line?: number };
type RedoclyVerdict = {
  ruleId: string;
  impact: 'major' | 'minor' | 'patch';
  message: string;
  location?: RedoclyLocation;
};
type RedoclyChange = {
  path: string;
  kind: string;
  impact: string;
  verdicts?: RedoclyVerdict[];
  base?: RedoclyLocation;
  revision?: RedoclyLocation;
};
export type RedoclyReport = { changes: RedoclyChange[] };

/** Where the two engines part: one of them sees a breaking change the other rates lower, or sees nothing. */
export type Disagreement = {
  operation: string;
  /** The redocly pointer, else the contract engine's location. */
  location: string;
  redocly?: { ruleId: string; impact: string; message: string };
  specDiff?: { rule: string; classification: Classification; detail: string };
  summary: string;
};

/** Engine rules a redocly verdict corresponds to: when one of them fired on the operation, the verdict is covered. */
const FAMILIES: Record<string, RegExp> = {
  'enum-values-added': /enum|constraint/,
  'enum-values-removed': /enum|constraint/,
  'schema-constraint-changed': /constraint|enum|type|opened|pattern/,
  'schema-type-changed': /type|nullability/,
  'schema-combinator-changed': /type|nullability|alternative|one-of/,
  'required-properties-added': /required|field-added|made-required/,
  'required-properties-removed': /optional|field-removed|renamed/,
  'response-header-removed': /response-header/,
  'request-body-removed': /request-body/,
  'media-type-removed': /media-type/,
  'parameter-serialization-changed': /type-changed|serialisation/,
  'security-requirement-changed': /security/,
  'security-scheme-changed': /security/,
  'operation-id-changed': /operation-id/,
};
const REMOVAL = /removed|renamed/;

const IMPACT: Record<string, Classification> = { major: 'breaking', minor: 'non-breaking', patch: 'informational' };

/** The arguments of `redocly diff` for a pair: JSON out, never failing on its own verdict, no lint. */
export function redoclyDiffArgs(baseFile: string, headFile: string, config: string): string[] {
  return [
    'diff',
    baseFile,
    headFile,
    '--config',
    config,
    '--format',
    'json',
    '--fail-on',
    'none',
    '--lint-config',
    'off',
  ];
}
/** Redocly's recommended diff rules, the configuration `redocly diff` is meant to run with. */
export const REDOCLY_DIFF_CONFIG = 'extends:\n  - diff-recommended\n';

/** Where @redocly/cli is looked for: the folder the diff runs in, then the installation of this tool. */
export const REDOCLY_ROOTS = [join(__dirname, '..', '..', '..'), join(__dirname, '..', '..', '..', '..')];

/** The redocly CLI installed under the first of `roots` that has it. */
export function redoclyCli(roots: string | readonly string[]): string | undefined {
  for (const root of typeof roots === 'string' ? [roots] : roots) {
    const bin = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    if (existsSync(bin)) return bin;
  }
  return undefined;
}

/** Keywords whose string value names a place redocly would resolve (a reference, or a base URI for references). */
const RESOLVING_KEYS = new Set(['$ref', '$dynamicRef', '$recursiveRef', '$id']);

/**
 * Readies a bundled document for redocly: an Example's `externalValue` (a URL redocly fetches; documentation this
 * diff does not compare) is dropped, and the first keyword that still names something outside the document is
 * returned as the reason to refuse it (only `#…` references may stay; a base URI, `$id`, would make them relative
 * to another document). Undefined: self-contained.
 */
export function outsideReference(document: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[document, '']];
  const seen = new Set<object>();
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, at] = top;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && typeof (node as Record<string, unknown>).externalValue === 'string')
      delete (node as Record<string, unknown>).externalValue;
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (typeof value === 'string' && RESOLVING_KEYS.has(key) && (key === '$id' || !value.startsWith('#')))
        return `${key} ${JSON.stringify(value.slice(0, 80))} at #${here}`;
      if (typeof value === 'object' && value !== null) stack.push([value, here]);
    }
  }
  return undefined;
}

/** Thrown when a side cannot be handed to redocly without it resolving something outside the bundle. */
export class CrossCheckRefused extends Error {}

/**
 * `redocly diff` on two bundled documents: each written as JSON to a private temporary folder (mode 0700) with the
 * diff configuration, and redocly run there, so it reads nothing but them.
 */
export function runRedoclyDiff(
  root: string | readonly string[],
  base: JsonObject,
  head: JsonObject,
  signal?: AbortSignal,
): Promise<RedoclyReport> {
  const bin = redoclyCli(root);
  if (!bin) return Promise.reject(new Error('@redocly/cli is not installed'));
  for (const [side, document] of [
    ['base', base],
    ['head', head],
  ] as const) {
    const outside = outsideReference(document);
    if (outside) return Promise.reject(new CrossCheckRefused(`the ${side} bundle is not self-contained (${outside})`));
  }
  const dir = mkdtempSync(join(tmpdir(), 'spec-diff-redocly-'));
  const config = join(dir, 'redocly.yaml');
  const baseFile = join(dir, 'base.json');
  const headFile = join(dir, 'head.json');
  writeFileSync(config, REDOCLY_DIFF_CONFIG, { mode: 0o600 });
  writeFileSync(baseFile, JSON.stringify(base), { mode: 0o600 });
  writeFileSync(headFile, JSON.stringify(head), { mode: 0o600 });
  return new Promise<RedoclyReport>((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [bin, ...redoclyDiffArgs(baseFile, headFile, config)],
      {
        cwd: dir,
        maxBuffer: 256 * 1024 * 1024,
        signal,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
      (error, stdout, stderr) => {
        const start = stdout.indexOf('{');
        try {
          resolvePromise(JSON.parse(stdout.slice(start)) as RedoclyReport);
        } catch {
          reject(
            new Error(`redocly diff gave no JSON report${error ? `: ${error.message}` : ''}\n${stderr.slice(-2000)}`),
          );
        }
      },
    );
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** `#/paths/~1a~1{uuid}/get/responses/200` → `GET /a/{uuid}`; undefined outside paths. */
export function operationOfPointer(pointer: string): string | undefined {
  const parts = parsePointer(pointer.startsWith('#') ? pointer : `#${pointer}`);
  if (parts[0] !== 'paths' || parts.length < 2) return undefined;
  const method = parts[2];
  if (method && /^(get|put|post|delete|options|head|patch|trace)$/.test(method)) return operationKey(method, parts[1]);
  return parts[1];
}

/** `GET /a` matches itself and the path-level entry `/a` (a whole path added or removed). */
function sameEndpoint(a: string, b: string): boolean {
  const pathOf = (s: string) => (s.includes(' ') ? s.slice(s.indexOf(' ') + 1) : s);
  return a === b || ((!a.includes(' ') || !b.includes(' ')) && pathOf(a) === pathOf(b));
}

function isResponseEnumAddition(change: RedoclyChange, verdict: RedoclyVerdict): boolean {
  return verdict.ruleId === 'enum-values-added' && /\/responses\//.test(change.path);
}

const RANK: Record<Classification, number> = { breaking: 3, warning: 2, 'non-breaking': 1, informational: 0 };

function bare(pointer: string | undefined): string | undefined {
  return pointer === undefined ? undefined : pointer.replace(/^#/, '');
}

const inside = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);

/**
 * Does the engine's change (at `ours`) stand at redocly's place (`theirs`)? Ours inside theirs, or theirs inside
 * ours when ours names one thing (a component, an operation or something in them), not a collection of them
 * (`/components/schemas`, where a removed schema is anchored, holds every other schema too).
 */
function nested(theirs: string, ours: string): boolean {
  if (inside(ours, theirs)) return true;
  const depth = ours.split('/').length - 1;
  const named = /^\/(components|paths)\//.test(ours) ? depth >= 3 : depth >= 2;
  return named && inside(theirs, ours);
}

/**
 * The contract engine's changes at the place of a redocly change: those whose pointer is nested with one of
 * redocly's (the deepest such match wins, so a change at the operation does not claim every verdict inside it).
 */
function samePlace(change: RedoclyChange, verdict: RedoclyVerdict, engine: Change[]): Change[] {
  const theirs = [verdict.location?.pointer, change.revision?.pointer, change.base?.pointer, change.path]
    .map(bare)
    .filter((p): p is string => p !== undefined);
  let best: Change[] = [];
  let depth = -1;
  for (const c of engine) {
    const ours = bare(c.source?.pointer);
    if (ours === undefined) continue;
    const matched = theirs.filter((p) => nested(p, ours));
    if (matched.length === 0) continue;
    const d = Math.min(ours.length, ...matched.map((p) => p.length));
    if (d > depth) [best, depth] = [[c], d];
    else if (d === depth) best.push(c);
  }
  return best;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export type CrossCheck = {
  /** Redocly verdicts no contract rule covers, as changes (rule ids prefixed `redocly/`). */
  added: Change[];
  disagreements: Disagreement[];
};

/** Matches every redocly verdict with the engine's changes and lists where the two disagree. */
export function crossCheck(report: RedoclyReport, engine: Change[]): CrossCheck {
  const added: Change[] = [];
  const disagreements: Disagreement[] = [];
  const seen = new Set<Change>();
  for (const change of report.changes ?? []) {
    const operation = operationOfPointer(change.path) ?? '(document)';
    const sameOperation = engine.filter((c) => sameEndpoint(c.operation, operation));
    for (const verdict of change.verdicts ?? []) {
      const redocly = { ruleId: verdict.ruleId, impact: verdict.impact, message: oneLine(verdict.message) };
      const location = verdict.location?.pointer ?? change.path;
      const family = FAMILIES[verdict.ruleId] ?? (change.kind === 'removed' ? REMOVAL : /./);
      // The engine's changes at the same place, those of the same rule family first; else the same operation and
      // family (document-wide changes have no operation to share).
      const placed = samePlace(change, verdict, engine);
      const ofOperation = placed.filter((c) => sameEndpoint(c.operation, operation));
      const candidates = ofOperation.length > 0 ? ofOperation : placed;
      const familyFallback = operation === '(document)' ? [] : sameOperation.filter((c) => family.test(c.rule));
      const ofFamily = candidates.filter((c) => family.test(c.rule));
      const matched = ofFamily.length > 0 ? ofFamily : familyFallback.length > 0 ? familyFallback : candidates;
      [...placed, ...matched].forEach((c) => seen.add(c));
      if (matched.length === 0) {
        const classification = isResponseEnumAddition(change, verdict)
          ? 'informational'
          : (IMPACT[verdict.impact] ?? 'informational');
        if (
          !added.some(
            (c) => c.rule === `redocly/${verdict.ruleId}` && c.operation === operation && c.detail === redocly.message,
          )
        ) {
          added.push({
            rule: `redocly/${verdict.ruleId}`,
            classification,
            operation,
            location,
            // Only redocly's pointer is known: the change counts for the whole operation.
            part: { kind: 'operation' },
            detail: redocly.message,
            reason:
              classification === 'informational' && verdict.impact === 'major'
                ? 'redocly rates it major; the contract lets clients ignore unknown response values'
                : `rated ${verdict.impact} by redocly diff; no contract rule covers it`,
          });
        }
        if (verdict.impact === 'major')
          disagreements.push({
            operation,
            location,
            redocly,
            summary: `redocly rates it major; no contract rule reports a change here`,
          });
        continue;
      }
      const top = matched.reduce((a, b) => (RANK[b.classification] > RANK[a.classification] ? b : a));
      const specDiff = { rule: top.rule, classification: top.classification, detail: top.detail };
      const theirs = IMPACT[verdict.impact] ?? 'informational';
      if (verdict.impact === 'major' && top.classification !== 'breaking')
        disagreements.push({
          operation,
          location,
          redocly,
          specDiff,
          summary: `redocly rates it major; spec:diff rates it ${top.classification} (${top.rule})`,
        });
      else if (top.classification === 'breaking' && theirs !== 'breaking')
        disagreements.push({
          operation,
          location,
          redocly,
          specDiff,
          summary: `spec:diff rates it breaking (${top.rule}); redocly rates it ${verdict.impact}`,
        });
    }
  }
  // A breaking change redocly has no verdict on at all, once per place (a shared schema is reported per operation).
  const places = new Set<string>();
  for (const c of engine) {
    if (seen.has(c) || c.classification !== 'breaking') continue;
    const place = `${c.rule} ${c.source?.pointer ?? `${c.operation} ${c.location}`}`;
    if (places.has(place)) continue;
    places.add(place);
    disagreements.push({
      operation: c.operation,
      location: c.source?.pointer ?? c.location,
      specDiff: { rule: c.rule, classification: c.classification, detail: c.detail },
      summary: `spec:diff rates it breaking (${c.rule}); redocly reports no change here`,
    });
  }
  return { added, disagreements };
}

/** Redocly verdicts the engine did not report, as changes (rule ids prefixed `redocly/`). */
export function uncoveredVerdicts(report: RedoclyReport, engine: Change[]): Change[] {
  return crossCheck(report, engine).added;
}
