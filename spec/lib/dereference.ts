// Dereferencing a bundled document in memory: no file system, so the mock's web-standard core can use it.

import { isObject, type Json, type JsonObject } from './json';
import { escapeToken, formatPointer, getAtPointer, parsePointer } from './pointer';

/** How a dereferenced view treats a reference back into itself. */
export type CycleMode = 'object' | 'ref';

/**
 * Replaces every internal `$ref` of a bundled document by its target. Every reference to one target yields the
 * same object, so identity can be tested (`schema === components.schemas.Error`). With `cycles: 'object'` a
 * recursive schema becomes a circular object; with `'ref'` the reference that would recurse stays a `$ref`
 * (for walkers that cannot stop on their own). Siblings of a `$ref` (OAS 3.1 allows them) are merged in.
 */
export function dereferenceDocument(document: JsonObject, cycles: CycleMode): JsonObject {
  const done = new Map<string, Json>();
  const active = new Set<string>();
  const walk = (node: Json, at: string): Json => {
    if (!isObject(node) && !Array.isArray(node)) return node;
    const cached = done.get(at);
    if (cached !== undefined) return cached;
    if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
      const { $ref, ...siblings } = node;
      const targetAt = formatPointer(parsePointer($ref));
      let target: Json;
      if (active.has(targetAt)) {
        if (cycles === 'ref') return node;
        target = done.get(targetAt)!;
      } else {
        const raw = getAtPointer(document, targetAt) as Json | undefined;
        if (raw === undefined) throw new Error(`$ref "${$ref}" points at nothing`);
        target = walk(raw, targetAt);
      }
      if (Object.keys(siblings).length === 0 || !isObject(target)) {
        if (cycles === 'object') done.set(at, target);
        return target;
      }
      const merged: JsonObject = { ...target };
      for (const [k, v] of Object.entries(siblings)) merged[k] = walk(v, `${at}/${escapeToken(k)}`);
      return merged;
    }
    // Registered before the children are walked, so a cycle back to this node finds it.
    active.add(at);
    let out: Json;
    if (Array.isArray(node)) {
      const list: Json[] = [];
      done.set(at, list);
      node.forEach((item, i) => list.push(walk(item, `${at}/${i}`)));
      out = list;
    } else {
      const object: JsonObject = {};
      done.set(at, object);
      for (const [k, v] of Object.entries(node)) object[k] = walk(v, `${at}/${escapeToken(k)}`);
      out = object;
    }
    active.delete(at);
    return out;
  };
  return walk(document, '#') as JsonObject;
}
