// Reading the contract: YAML or JSON files, split files bundled into one document whose `$ref`s are all internal,
// and two dereferenced views of it. The only place that parses the document.
// @see https://spec.openapis.org/oas/v3.1.0#reference-object

import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import YAML from 'yaml';
import { isObject, type Json, type JsonObject } from './json';
import { lineOfOffset, lineStarts, yamlOffsets } from './locate';
import { formatPointer, getAtPointer, parsePointer } from './pointer';

/** The contract of this repository. */
export const DEFAULT_SPEC_PATH = resolve(__dirname, '..', 'openapi.yaml');

/** Parses YAML (JSON is YAML) with the 1.2 core schema: no Date objects, aliases unlimited (the contract uses many). */
export function parseDocumentText(text: string): Json {
  // JSON is YAML, but JSON.parse reads it a hundred times faster (an 11 MB description: 0.1 s instead of 3 s).
  if (/^\s*[[{]\s*["\]}]/.test(text)) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      // YAML in flow style, or JSON with comments: the YAML parser reads it or says why not.
    }
  }
  return YAML.parse(text, { schema: 'core', merge: false, maxAliasCount: -1 }) as Json;
}

/**
 * Parsing YAML is most of the mock's start-up time, so a parsed file is kept as JSON in the temp directory,
 * keyed by a hash of its text: any edit misses the cache.
 */
function parseCached(text: string): Json {
  if (text.length < 64 * 1024 || /^\s*[[{]/.test(text)) return parseDocumentText(text);
  const file = resolve(
    tmpdir(),
    `workspace-api-spec-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.json`,
  );
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    const document = parseDocumentText(text);
    try {
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(document));
      renameSync(partial, file);
    } catch {
      // A read-only temp directory only costs speed.
    }
    return document;
  }
}

function hasExternalRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRef);
  if (!isObject(node)) return false;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return true;
  return Object.values(node).some(hasExternalRef);
}

type Target = { file: string; tokens: string[] };

function parseRef(ref: string, file: string): Target {
  const hash = ref.indexOf('#');
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) throw new Error(`remote $ref "${ref}" is not supported (in ${file})`);
  return {
    file: filePart ? resolve(dirname(file), decodeURI(filePart)) : file,
    tokens: hash === -1 ? [] : parsePointer(ref.slice(hash)),
  };
}

/**
 * Reads a document and bundles the files it `$ref`s into it: each external target is inlined where it is first
 * referenced (under `components` first, so split schemas land at their natural place) and later references point
 * there. Cycles across files become internal `$ref`s. A single file is returned as parsed.
 */
export function bundleFile(entryPath: string): JsonObject {
  const entry = resolve(entryPath);
  const files = new Map<string, Json>();
  const read = (file: string): Json => {
    if (!files.has(file)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new Error(`cannot read ${file}: ${(error as Error).message}`);
      }
      files.set(file, parseCached(text));
    }
    return files.get(file)!;
  };
  const root = read(entry);
  if (!isObject(root)) throw new Error(`${entryPath} is not an OpenAPI document`);
  if (!hasExternalRef(root)) return root;

  // Where a node of another file was placed in the bundle: `file#/pointer` → tokens in the bundle.
  const placed = new Map<string, string[]>();
  const keyOf = (target: Target) => `${target.file}${formatPointer(target.tokens)}`;
  const locate = (target: Target): string[] | undefined => {
    if (target.file === entry) return target.tokens;
    for (let n = target.tokens.length; n >= 0; n--) {
      const at = placed.get(keyOf({ file: target.file, tokens: target.tokens.slice(0, n) }));
      if (at) return [...at, ...target.tokens.slice(n)];
    }
    return undefined;
  };

  const walk = (node: Json, file: string, at: string[]): Json => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, file, [...at, String(i)]));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const { $ref, ...rest } = node;
      const siblings = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v, file, [...at, k])]));
      const target = parseRef($ref, file);
      const found = locate(target);
      if (found) return { $ref: formatPointer(found), ...siblings };
      const content = getAtPointer(read(target.file), target.tokens) as Json | undefined;
      if (content === undefined) throw new Error(`$ref "${$ref}" in ${file} points at nothing`);
      placed.set(keyOf(target), at);
      const inlined = walk(content, target.file, at);
      return isObject(inlined) && Object.keys(siblings).length > 0 ? { ...inlined, ...siblings } : inlined;
    }
    const out: JsonObject = {};
    const keys = Object.keys(node);
    // Components first: a split schema is placed under components, not inside the first path that uses it.
    const order =
      at.length === 0 ? [...keys.filter((k) => k === 'components'), ...keys.filter((k) => k !== 'components')] : keys;
    for (const key of order) out[key] = walk(node[key], file, [...at, key]);
    return Object.fromEntries(keys.map((k) => [k, out[k]]));
  };
  return walk(root, entry, []) as JsonObject;
}

export { dereferenceDocument, type CycleMode } from './dereference';

/** Where a node of a dereferenced document was written: its file and JSON pointer there (`/a/b`, no `#`). */
export type Origin = { file: string; pointer: string };

/**
 * Reads a document from files and dereferences it in one pass (cycles as circular objects, one object per
 * target, as dereferenceDocument). `origins`, when given, receives the file and pointer of every object and array
 * of the result, so a reviewer tool can point at the line of a split file a node came from. A fresh copy each call.
 */
export function dereferenceFile(entry: string, origins?: WeakMap<object, Origin>): JsonObject {
  const files = new Map<string, Json>();
  const resolved = new Map<string, Json>();
  const read = (file: string): Json => {
    if (!files.has(file)) files.set(file, parseCached(readFileSync(file, 'utf8')));
    return files.get(file)!;
  };
  const pointerOf = (tokens: string[]) => formatPointer(tokens).slice(1);
  const walk = (node: Json, file: string, at: string[]): Json => {
    if (!isObject(node) && !Array.isArray(node)) return node;
    const key = `${file}${formatPointer(at)}`;
    if (resolved.has(key)) return resolved.get(key)!;
    if (isObject(node) && typeof node.$ref === 'string') {
      const target = parseRef(node.$ref, file);
      const raw = getAtPointer(read(target.file), target.tokens) as Json | undefined;
      if (raw === undefined) throw new Error(`$ref "${node.$ref}" in ${file} points at nothing`);
      const value = walk(raw, target.file, target.tokens);
      const siblings = Object.keys(node).filter((k) => k !== '$ref');
      if (siblings.length === 0 || !isObject(value)) {
        resolved.set(key, value);
        return value;
      }
      // OAS 3.1 allows summary/description (and, in schemas, any keyword) beside $ref.
      const merged: JsonObject = { ...value };
      resolved.set(key, merged);
      origins?.set(merged, { file, pointer: pointerOf(at) });
      for (const k of siblings) merged[k] = walk(node[k], file, [...at, k]);
      return merged;
    }
    // Registered before the children are walked, so a cycle back to this node finds it.
    if (Array.isArray(node)) {
      const out: Json[] = [];
      resolved.set(key, out);
      origins?.set(out, { file, pointer: pointerOf(at) });
      node.forEach((item, i) => out.push(walk(item, file, [...at, String(i)])));
      return out;
    }
    const out: JsonObject = {};
    resolved.set(key, out);
    origins?.set(out, { file, pointer: pointerOf(at) });
    for (const [k, v] of Object.entries(node)) out[k] = walk(v, file, [...at, k]);
    return out;
  };
  const root = resolve(entry);
  const result = walk(read(root), root, []);
  if (!isObject(result)) throw new Error(`${entry} is not an OpenAPI document`);
  return result;
}

/**
 * Line numbers of a YAML file by pointer: the line of the deepest node the pointer reaches (a pointer may run on
 * into a `$ref`'d component; the line of the `$ref` site is what a reviewer edits). Aliases are followed.
 */
export function makeLineLocator(file: string): (pointer: string) => number | undefined {
  const text = readFileSync(file, 'utf8');
  const offsetOf = yamlOffsets(text);
  const starts = lineStarts(text);
  return (pointer) => {
    const offset = offsetOf(pointer);
    return offset === undefined ? undefined : lineOfOffset(starts, offset);
  };
}
