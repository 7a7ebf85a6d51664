// Beyond the wire: for each breaking change (and warning), which generated client types change (openapi-typescript
// run on base and head, compared member by member) and which conformance checks exercise the changed operation
// (from the checks' own metadata; conformance/ never imports mocks/, so neither does this).

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import {
  asObject,
  effectiveParameters,
  listOperationObjects,
  type JsonObject,
  type OperationRef,
} from '../../../spec/lib';
import type { Change } from './change';

/** `operations["getThing"]`, `components["schemas"]["Thing"]` → the text openapi-typescript wrote for it. */
export type TypeMembers = Map<string, string>;

const ROOT = join(__dirname, '..', '..', '..');

// openapi-typescript runs in a child Node process: its dependencies are ES modules, which a CommonJS host
// (jest, tsx in CommonJS mode) cannot load. Same options as generators/generate-types.ts, so the types
// compared are the types clients compile.
const GENERATE = `
import openapiTS, { astToString } from 'openapi-typescript';
import { pathToFileURL } from 'node:url';
const out = [];
for (const file of JSON.parse(process.argv[1])) {
  const ast = await openapiTS(pathToFileURL(file), { additionalProperties: false, emptyObjectsUnknown: true, alphabetize: false, exportType: false, immutable: false, silent: true });
  out.push(astToString(ast));
}
process.stdout.write(JSON.stringify(out));
`;

/** openapi-typescript output for each file, in order. */
export function generateTypes(files: string[]): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', GENERATE, JSON.stringify(files)],
      { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`openapi-typescript failed: ${stderr.trim().split('\n').slice(-3).join(' ') || error.message}`),
          );
        else resolvePromise(JSON.parse(stdout) as string[]);
      },
    );
  });
}

function memberName(name: ts.PropertyName, source: ts.SourceFile): string {
  return ts.isStringLiteral(name) || ts.isIdentifier(name) ? name.text : name.getText(source);
}

/** Members of the `operations`, `components` (one level down), `webhooks` and `paths` interfaces. */
export function typeMembers(text: string): TypeMembers {
  const source = ts.createSourceFile('types.ts', text, ts.ScriptTarget.Latest, true);
  const out: TypeMembers = new Map();
  const walkMembers = (members: ts.NodeArray<ts.TypeElement>, prefix: string, depth: number) => {
    for (const m of members) {
      if (!ts.isPropertySignature(m) || !m.name) continue;
      const key = `${prefix}[${JSON.stringify(memberName(m.name, source))}]`;
      if (depth > 0 && m.type && ts.isTypeLiteralNode(m.type)) walkMembers(m.type.members, key, depth - 1);
      else out.set(key, m.type ? m.type.getText(source) : '');
    }
  };
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const name = statement.name.text;
    if (name === 'operations' || name === 'webhooks' || name === 'paths') walkMembers(statement.members, name, 0);
    if (name === 'components') walkMembers(statement.members, name, 1);
  }
  return out;
}

/** Members whose text differs (or exists on one side only). */
export function changedMembers(base: TypeMembers, head: TypeMembers): Set<string> {
  const out = new Set<string>();
  for (const key of new Set([...base.keys(), ...head.keys()])) if (base.get(key) !== head.get(key)) out.add(key);
  return out;
}

/** The operation's own type and every component type it reaches (transitively), that changed. */
export function typesOfOperation(operationId: string, sides: TypeMembers[], changed: Set<string>): string[] {
  const found = new Set<string>();
  const queue = [`operations[${JSON.stringify(operationId)}]`];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    seen.add(key);
    if (changed.has(key)) found.add(key);
    for (const side of sides) {
      const text = side.get(key);
      if (!text) continue;
      for (const m of text.matchAll(/components\["(\w+)"\]\["([^"]+)"\]/g))
        queue.push(`components[${JSON.stringify(m[1])}][${JSON.stringify(m[2])}]`);
    }
  }
  return [...found].sort();
}

type CheckMeta = { id: string; ruleId: string; operations?: string[] };

function hasIdempotencyKey(op: OperationRef): boolean {
  return effectiveParameters(op).some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
}

function isMultipart(op: OperationRef): boolean {
  return Object.keys(asObject(asObject(op.operation.requestBody).content)).some((t) => t.startsWith('multipart/'));
}

/**
 * Operations a check exercises. A check may name them (`operations`: operationIds); otherwise its contract rule
 * decides: idempotency rules run on operations taking Idempotency-Key, async rules on operations answering 202
 * and the GETs that poll them, every other rule (responses, auth, rate limits, errors, validation, scoping)
 * on every operation.
 */
export function operationsOfCheck(check: CheckMeta, api: JsonObject): Set<string> {
  const ops = listOperationObjects(api);
  const keys = (list: OperationRef[]) => new Set(list.map((op) => op.key));
  if (Array.isArray(check.operations))
    return keys(ops.filter((op) => check.operations!.includes(String(op.operation.operationId))));
  if (check.ruleId === 'idempotency-no-multipart') {
    const multipart = ops.filter(isMultipart);
    return keys(multipart.length > 0 ? multipart : ops.filter(hasIdempotencyKey));
  }
  if (check.ruleId.startsWith('idempotency-')) return keys(ops.filter(hasIdempotencyKey));
  if (check.ruleId.startsWith('async-')) {
    // The job a 202 answers is polled at `<collection>/{id}`: `POST /runs` → `GET /runs/{uuid}`, and an action
    // on a job (`POST /runs/{uuid}/cancel`) → `GET /runs/{uuid}`.
    const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
    const creates = ops.filter((op) => '202' in asObject(op.operation.responses));
    const targets = new Set(
      creates.flatMap((op) => [`${shape(op.path)}/{}`, shape(op.path).replace(/\/[^/{}]+$/, '')]),
    );
    const polls = ops.filter((op) => op.method === 'get' && targets.has(shape(op.path)));
    return keys([...creates, ...polls]);
  }
  return keys(ops);
}

async function loadChecks(): Promise<CheckMeta[]> {
  const { allChecks } = await import('../../../conformance/checks');
  return allChecks().map((c) => ({
    id: c.id,
    ruleId: c.ruleId,
    operations: (c as { operations?: string[] }).operations,
  }));
}

function operationIdOf(api: JsonObject, key: string): string | undefined {
  const op = listOperationObjects(api).find((o) => o.key === key);
  return op && typeof op.operation.operationId === 'string' ? op.operation.operationId : undefined;
}

export type ImpactInput = { baseFile: string; headFile: string; baseApi: JsonObject; headApi: JsonObject };

/** Adds `impact` to every breaking change and warning of the report. */
export async function addImpact(changes: Change[], input: ImpactInput, checks?: CheckMeta[]): Promise<void> {
  const targets = changes.filter((c) => c.classification === 'breaking' || c.classification === 'warning');
  if (targets.length === 0) return;
  const [baseTypes, headTypes] = (await generateTypes([input.baseFile, input.headFile])).map(typeMembers);
  const changed = changedMembers(baseTypes, headTypes);
  const allChecksMeta = checks ?? (await loadChecks());
  const scopes = allChecksMeta.map((c) => ({
    id: c.id,
    head: operationsOfCheck(c, input.headApi),
    base: operationsOfCheck(c, input.baseApi),
  }));
  for (const c of targets) {
    let clientTypes: string[];
    let conformanceChecks: string[];
    if (c.operation.includes(' ')) {
      const ids = [operationIdOf(input.headApi, c.operation), operationIdOf(input.baseApi, c.operation)].filter(
        (x): x is string => !!x,
      );
      clientTypes = [...new Set(ids.flatMap((id) => typesOfOperation(id, [baseTypes, headTypes], changed)))].sort();
      conformanceChecks = scopes.filter((s) => s.head.has(c.operation) || s.base.has(c.operation)).map((s) => s.id);
    } else {
      // A path or a document-wide change: the component it names, or every changed path entry under it.
      const named = [...changed].filter(
        (k) =>
          (k.startsWith('components[') &&
            c.detail.includes(`\`${JSON.parse(k.slice(k.lastIndexOf('[') + 1, -1))}\``)) ||
          (k.startsWith('paths[') && k === `paths[${JSON.stringify(c.operation)}]`),
      );
      clientTypes = named.sort();
      conformanceChecks = c.operation.startsWith('/')
        ? scopes.filter((s) => [...s.base].some((k) => k.endsWith(` ${c.operation}`))).map((s) => s.id)
        : [];
    }
    c.impact = { clientTypes, conformanceChecks };
  }
}
