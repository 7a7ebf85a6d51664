// Second opinion from `redocly diff` (in @redocly/cli 2.x, marked experimental): every verdict it reaches that the
// contract engine did not already report for the same operation is added, so neither engine's blind spot is lost.
// Redocly knows no deprecation grace nor the contract's marking of open enumerations; the contract rules win there.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Change } from './change';
import type { Classification } from './rules';
import { operationKey, parsePointer } from '../../../spec/lib';

type RedoclyVerdict = { ruleId: string; impact: 'major' | 'minor' | 'patch'; message: string };
type RedoclyChange = { path: string; kind: string; impact: string; verdicts?: RedoclyVerdict[] };
export type RedoclyReport = { changes: RedoclyChange[] };

/** Engine rules a redocly verdict corresponds to: when one of them fired on the operation, the verdict is covered. */
const FAMILIES: Record<string, RegExp> = {
  'enum-values-added': /enum|constraint/,
  'enum-values-removed': /enum|constraint/,
  'schema-constraint-changed': /constraint|enum|type|opened/,
  'schema-type-changed': /type|nullability/,
  'schema-combinator-changed': /type|nullability/,
  'required-properties-added': /required|field-added|made-required/,
  'required-properties-removed': /optional|field-removed|renamed/,
  'response-header-removed': /response-header/,
  'request-body-removed': /request-body/,
  'media-type-removed': /media-type/,
  'parameter-serialization-changed': /type-changed/,
  'security-requirement-changed': /security/,
  'security-scheme-changed': /security/,
  'operation-id-changed': /operation-id/,
};
const REMOVAL = /removed|renamed/;

const IMPACT: Record<string, Classification> = { major: 'breaking', minor: 'non-breaking', patch: 'informational' };

export function redoclyCli(root: string): string | undefined {
  const bin = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  return existsSync(bin) ? bin : undefined;
}

export function runRedoclyDiff(root: string, baseFile: string, headFile: string): Promise<RedoclyReport> {
  const bin = redoclyCli(root);
  if (!bin) return Promise.reject(new Error('@redocly/cli is not installed'));
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [bin, 'diff', baseFile, headFile, '--format', 'json', '--fail-on', 'none', '--lint-config', 'off'],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
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
  });
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

/** Redocly verdicts the engine did not report, as changes (rule ids prefixed `redocly/`). */
export function uncoveredVerdicts(report: RedoclyReport, engine: Change[]): Change[] {
  const out: Change[] = [];
  for (const change of report.changes ?? []) {
    const operation = operationOfPointer(change.path) ?? '(document)';
    const sameOperation = engine.filter((c) => sameEndpoint(c.operation, operation));
    for (const verdict of change.verdicts ?? []) {
      const family = FAMILIES[verdict.ruleId] ?? (change.kind === 'removed' ? REMOVAL : /./);
      if (sameOperation.some((c) => family.test(c.rule))) continue;
      if (
        out.some(
          (c) => c.rule === `redocly/${verdict.ruleId}` && c.operation === operation && c.detail === verdict.message,
        )
      )
        continue;
      const classification = isResponseEnumAddition(change, verdict)
        ? 'informational'
        : (IMPACT[verdict.impact] ?? 'informational');
      out.push({
        rule: `redocly/${verdict.ruleId}`,
        classification,
        operation,
        location: change.path,
        detail: verdict.message.replace(/\s+/g, ' ').trim(),
        reason:
          classification === 'informational' && verdict.impact === 'major'
            ? 'redocly rates it major; the contract lets clients ignore unknown response values'
            : `rated ${verdict.impact} by redocly diff; no contract rule covers it`,
      });
    }
  }
  return out;
}
