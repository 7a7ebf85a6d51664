// Beyond the wire: for each breaking change (and warning), which generated client types change (openapi-typescript
// run on base and head, compared member by member, named by where the change is written) and which conformance
// checks read what it changes (check-inputs.ts; conformance/ never imports mocks/, so neither does this).

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import { type JsonObject, listOperationObjects, parsePointer } from '../../../spec/lib';
import type { Change } from './change';
import { checksOfChange, partOfChange } from './check-inputs';

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
export function generateTypes(files: string[], signal?: AbortSignal): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', GENERATE, JSON.stringify(files)],
      { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, signal },
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

async function loadCheckIds(): Promise<string[]> {
  const { allChecks } = await import('../../../conformance/checks');
  return allChecks().map((c) => c.id);
}

const typeKey = (...names: string[]) => names.map((n) => `[${JSON.stringify(n)}]`).join('');

/**
 * The client types named by where a change is written: the component holding it (`components["schemas"]["Thing"]`)
 * or, inline in an operation, the operation's own type; only those whose generated text changed. A change read from
 * a split file (no document pointer) falls back to every changed type the operation reaches.
 */
function typesOfChange(change: Change, operationIds: string[], sides: TypeMembers[], changed: Set<string>): string[] {
  const pointer = (change.source?.pointer ?? '').replace(/^#/, '');
  const tokens = parsePointer(`#${pointer}`);
  if (tokens[0] === 'components' && tokens.length >= 3) {
    const name = `components${typeKey(tokens[1], tokens[2])}`;
    return changed.has(name) ? [name] : [];
  }
  if (tokens[0] === 'paths' && tokens.length >= 2) {
    const names = [...operationIds.map((id) => `operations${typeKey(id)}`), `paths${typeKey(tokens[1])}`];
    return names.filter((n) => changed.has(n));
  }
  return [...new Set(operationIds.flatMap((id) => typesOfOperation(id, sides, changed)))].sort();
}

export type ImpactInput = {
  baseApi: JsonObject;
  headApi: JsonObject;
  /** openapi-typescript output for base and head (generateTypes), started early: it runs in its own process. */
  types: Promise<string[]>;
};

/**
 * Adds `impact` to every breaking change and warning of the report: the client types it changes, by name, and the
 * conformance checks whose inputs (check-inputs.ts) it touches. Each is computed once per operation and place.
 */
export async function addImpact(changes: Change[], input: ImpactInput, checkIds?: string[]): Promise<void> {
  const targets = changes.filter((c) => c.classification === 'breaking' || c.classification === 'warning');
  if (targets.length === 0) return;
  const [baseTypes, headTypes] = (await input.types).map(typeMembers);
  const changed = changedMembers(baseTypes, headTypes);
  const ids = checkIds ?? (await loadCheckIds());
  const sides = [listOperationObjects(input.headApi), listOperationObjects(input.baseApi)];
  const operationIds = new Map<string, string[]>();
  for (const op of sides.flat()) {
    const id = op.operation.operationId;
    if (typeof id === 'string') operationIds.set(op.key, [...new Set([...(operationIds.get(op.key) ?? []), id])]);
  }
  const typesMemo = new Map<string, string[]>();
  const checksMemo = new Map<string, string[]>();
  for (const c of targets) {
    const typesAt = `${c.operation}\u0000${c.source?.pointer ?? c.location}`;
    let clientTypes = typesMemo.get(typesAt);
    if (!clientTypes) {
      clientTypes = typesOfChange(c, operationIds.get(c.operation) ?? [], [baseTypes, headTypes], changed);
      typesMemo.set(typesAt, clientTypes);
    }
    const checksAt = `${c.operation}\u0000${JSON.stringify(partOfChange(c))}`;
    let conformanceChecks = checksMemo.get(checksAt);
    if (!conformanceChecks) {
      conformanceChecks = checksOfChange(ids, c, sides);
      checksMemo.set(checksAt, conformanceChecks);
    }
    c.impact = { clientTypes, conformanceChecks };
  }
}
