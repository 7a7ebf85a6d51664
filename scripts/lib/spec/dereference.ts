// A small $ref resolver for local and relative-file references (the only kinds a spec split under spec/ uses).
// Written here because @apidevtools/swagger-parser 13 pulls an ESM-only dependency jest cannot load as CommonJS.
// Every reference to the same target yields the same object, so rules can test identity
// (`schema === components.schemas.Error`); cycles become circular objects.
// @see https://spec.openapis.org/oas/v3.1.0#reference-object

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import YAML from 'yaml';
import { isObject, type Json, type JsonObject } from './openapi';

export function parseDocument(text: string): Json {
  return YAML.parse(text, { schema: 'core', merge: false }) as Json;
}

/** Look up an RFC 6901 JSON pointer (without the leading `#`). */
export function getPointer(root: Json, pointer: string): Json | undefined {
  if (pointer === '' || pointer === '/') return root;
  let node: Json | undefined = root;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

/** `$ref` pointers in URI fragments may be percent-encoded; keys holding a bare `%` are taken as written. */
function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** RFC 6901 tokens of a pointer (`/a~1b/c` → ['a/b', 'c']). */
export function pointerTokens(pointer: string): string[] {
  return pointer.replace(/^\//, '').split('/').filter((t, i, all) => t !== '' || all.length > 1)
    .map((raw) => safeDecode(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function canonicalPointer(parts: string[]): string {
  return parts.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Where a node of the dereferenced document was written: its file and JSON pointer there. */
export type Origin = { file: string; pointer: string };

/**
 * `origins`, when given, receives the file and pointer of every object and array of the result, so a
 * reviewer tool can point at the line of a split file a node came from.
 */
export function dereferenceFile(entry: string, origins?: WeakMap<object, Origin>): JsonObject {
  const documents = new Map<string, Json>();
  // Resolved node per `file#pointer`: the node walked in place and every $ref to it share one object.
  const resolved = new Map<string, Json>();

  const load = (file: string): Json => {
    if (!documents.has(file)) documents.set(file, parseDocument(readFileSync(file, 'utf8')));
    return documents.get(file)!;
  };

  const resolveRef = (ref: string, file: string): Json => {
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const pointer = hash === -1 ? '' : ref.slice(hash + 1);
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) throw new Error(`remote $ref "${ref}" is not supported (in ${file})`);
    const targetFile = filePart ? resolve(dirname(file), filePart) : file;
    const parts = pointer === '' ? [] : pointerTokens(pointer);
    const raw = getPointer(load(targetFile), canonicalPointer(parts));
    if (raw === undefined) throw new Error(`$ref "${ref}" in ${file} points at nothing`);
    return walk(raw, targetFile, parts);
  };

  const walk = (node: Json, file: string, at: string[]): Json => {
    if (!isObject(node) && !Array.isArray(node)) return node;
    const key = `${file}#${canonicalPointer(at)}`;
    if (resolved.has(key)) return resolved.get(key)!;
    if (isObject(node) && typeof node.$ref === 'string') {
      const target = resolveRef(node.$ref, file);
      const siblings = Object.keys(node).filter((k) => k !== '$ref');
      if (siblings.length === 0 || !isObject(target)) {
        resolved.set(key, target);
        return target;
      }
      // OAS 3.1 allows summary/description (and, in schemas, any keyword) beside $ref.
      const merged: JsonObject = { ...target };
      resolved.set(key, merged);
      origins?.set(merged, { file, pointer: canonicalPointer(at) });
      for (const k of siblings) merged[k] = walk(node[k], file, [...at, k]);
      return merged;
    }
    // Register before walking children, so a cycle back to this node finds it.
    if (Array.isArray(node)) {
      const out: Json[] = [];
      resolved.set(key, out);
      origins?.set(out, { file, pointer: canonicalPointer(at) });
      node.forEach((item, i) => out.push(walk(item, file, [...at, String(i)])));
      return out;
    }
    const out: JsonObject = {};
    resolved.set(key, out);
    origins?.set(out, { file, pointer: canonicalPointer(at) });
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, file, [...at, k]);
    return out;
  };

  const root = resolve(entry);
  const result = walk(load(root), root, []);
  if (!isObject(result)) throw new Error(`${entry} is not an OpenAPI document`);
  return result;
}
