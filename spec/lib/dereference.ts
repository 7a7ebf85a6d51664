// Dereferencing a bundled document in memory: no file system, so the mock's web-standard core can use it.

import { isObject, type Json, type JsonObject } from './json';
import { escapeToken, formatPointer, getAtPointer, parsePointer } from './pointer';
import { SPEC_LIMITS, SpecRefused } from './refusal';

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
  // $refs being followed: one met again before any ordinary node is a cycle of bare $refs (it would never end).
  const following = new Set<string>();
  const refuse = (at: string, reason: string, code: 'cycle' | 'depth' | 'missing-target'): never => {
    throw new SpecRefused('(document)', at, reason, code);
  };
  // `level` counts calls (nesting and $refs followed), so no chain of $refs can exhaust the stack.
  const walk = (node: Json, at: string, level = 0): Json => {
    if (!isObject(node) && !Array.isArray(node)) return node;
    const cached = done.get(at);
    if (cached !== undefined) return cached;
    if (level > SPEC_LIMITS.maxDepth) refuse(at, `nested deeper than ${SPEC_LIMITS.maxDepth} levels`, 'depth');
    if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
      if (following.has(at)) refuse(at, '$ref leads back to itself through nothing but $refs', 'cycle');
      const { $ref, ...siblings } = node;
      const targetAt = formatPointer(parsePointer($ref));
      let target: Json;
      if (active.has(targetAt)) {
        if (cycles === 'ref') return node;
        // An active node was registered in `done` before its children were walked.
        const started = done.get(targetAt);
        if (started === undefined) return refuse(at, `$ref ${JSON.stringify($ref)} meets a node not yet made`, 'cycle');
        target = started;
      } else {
        const raw = getAtPointer(document, targetAt) as Json | undefined;
        if (raw === undefined) return refuse(at, `$ref ${JSON.stringify($ref)} points at nothing`, 'missing-target');
        following.add(at);
        target = walk(raw, targetAt, level + 1);
        following.delete(at);
      }
      if (Object.keys(siblings).length === 0 || !isObject(target)) {
        if (cycles === 'object') done.set(at, target);
        return target;
      }
      const merged: JsonObject = { ...target };
      for (const [k, v] of Object.entries(siblings)) merged[k] = walk(v, `${at}/${escapeToken(k)}`, level + 1);
      return merged;
    }
    // Registered before the children are walked, so a cycle back to this node finds it.
    active.add(at);
    let out: Json;
    if (Array.isArray(node)) {
      const list: Json[] = [];
      done.set(at, list);
      node.forEach((item, i) => list.push(walk(item, `${at}/${i}`, level + 1)));
      out = list;
    } else {
      const object: JsonObject = {};
      done.set(at, object);
      for (const [k, v] of Object.entries(node)) object[k] = walk(v, `${at}/${escapeToken(k)}`, level + 1);
      out = object;
    }
    active.delete(at);
    return out;
  };
  return walk(document, '#') as JsonObject;
}
