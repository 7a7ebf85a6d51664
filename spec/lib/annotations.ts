// Stated versus assumed is data in the contract: a node the description does not state carries
// `x-assumption: "<why / which reading>"`; a stated fact may carry `x-stated: "<the description's words>"`.
// These helpers read them from any node (schema, property, parameter, response, header, operation, x-rules entry).

import { isObject, type Json, type JsonObject } from './json';
import { getAtPointer, escapeToken } from './pointer';

export const ASSUMPTION = 'x-assumption';
export const STATED = 'x-stated';

export type Annotation = { pointer: string; kind: 'assumption' | 'stated'; text: string };

export function assumptionOf(node: unknown): string | undefined {
  return isObject(node) && typeof node[ASSUMPTION] === 'string' ? node[ASSUMPTION] : undefined;
}

export function statedOf(node: unknown): string | undefined {
  return isObject(node) && typeof node[STATED] === 'string' ? node[STATED] : undefined;
}

export function isAssumed(node: unknown): boolean {
  return assumptionOf(node) !== undefined;
}

/**
 * Annotations of the node at `pointer` of a bundled document: its own, then (when it is a `$ref`) those of the
 * target, so `{ $ref: …, x-assumption: … }` and an annotated component both count.
 */
export function annotationsAt(document: JsonObject, pointer: string): { assumption?: string; stated?: string } {
  let node = getAtPointer(document, pointer);
  const found: { assumption?: string; stated?: string } = {};
  for (let hops = 0; isObject(node) && hops < 64; hops++) {
    found.assumption ??= assumptionOf(node);
    found.stated ??= statedOf(node);
    if (typeof node.$ref !== 'string') break;
    node = getAtPointer(document, node.$ref);
  }
  return found;
}

/** Every annotation of a bundled document, in document order, with the pointer of the node that carries it. */
export function listAnnotations(document: JsonObject): Annotation[] {
  const out: Annotation[] = [];
  const walk = (node: Json, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const assumption = assumptionOf(node);
    if (assumption !== undefined) out.push({ pointer: pointer || '#', kind: 'assumption', text: assumption });
    const stated = statedOf(node);
    if (stated !== undefined) out.push({ pointer: pointer || '#', kind: 'stated', text: stated });
    for (const [key, value] of Object.entries(node))
      if (key !== ASSUMPTION && key !== STATED) walk(value, `${pointer}/${escapeToken(key)}`);
  };
  walk(document, '#');
  return out;
}
