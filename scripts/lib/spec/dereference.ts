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
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

export function dereferenceFile(entry: string): JsonObject {
  const documents = new Map<string, Json>();
  const targets = new Map<string, Json>();

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
    const key = `${targetFile}#${pointer}`;
    if (targets.has(key)) return targets.get(key)!;
    const raw = getPointer(load(targetFile), pointer);
    if (raw === undefined) throw new Error(`$ref "${ref}" in ${file} points at nothing`);
    if (!isObject(raw) && !Array.isArray(raw)) {
      targets.set(key, raw);
      return raw;
    }
    // Register a placeholder before walking, so a cycle back to this target finds it.
    const placeholder: Json = Array.isArray(raw) ? [] : {};
    targets.set(key, placeholder);
    const value = walk(raw, targetFile);
    if (Array.isArray(placeholder)) placeholder.push(...(value as Json[]));
    else Object.assign(placeholder, value);
    return placeholder;
  };

  const walk = (node: Json, file: string): Json => {
    if (Array.isArray(node)) return node.map((item) => walk(item, file));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const target = resolveRef(node.$ref, file);
      const siblings = Object.keys(node).filter((k) => k !== '$ref');
      if (siblings.length === 0 || !isObject(target)) return target;
      // OAS 3.1 allows summary/description (and, in schemas, any keyword) beside $ref.
      const merged: JsonObject = { ...target };
      for (const k of siblings) merged[k] = walk(node[k], file);
      return merged;
    }
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, file);
    return out;
  };

  const root = resolve(entry);
  const result = walk(load(root), root);
  if (!isObject(result)) throw new Error(`${entry} is not an OpenAPI document`);
  return result;
}
