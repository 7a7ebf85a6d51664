// Structural fingerprints of JSON values, computed once per object: a dereferenced description shares one object
// per `$ref` target, so a component used by 500 operations is fingerprinted once, and two subtrees are compared
// by a number instead of being walked again (the GitHub description's pair: most of the diff's time before).

import { isObject } from '../../../spec/lib/json';

/** Keywords that document a schema without constraining values. */
export const DOC_KEYS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'externalDocs',
  '$comment',
  'deprecated',
  'xml',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
]);

/** 53-bit string hash (cyrb53): collisions between two given subtrees are out of practical reach. */
function hash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export type Fingerprint = (value: unknown) => string;

const isShapeKey = (k: string) => !DOC_KEYS.has(k) && !k.startsWith('x-');

/**
 * Two memoised fingerprints from one walk: `content` over every member, `shape` over the members that constrain
 * values (documentation keywords and extensions left out). Key order does not count. A cycle contributes a marker;
 * a node inside a cycle is fingerprinted again from each entry (its text depends on where the walk entered), the
 * others once. One walk, because each node of both documents is fingerprinted both ways.
 */
function makeFingerprints(): { content: Fingerprint; shape: Fingerprint } {
  const memo = new WeakMap<object, [string, string]>();
  const onStack = new Map<object, number>();
  let low = Infinity;
  const walk = (value: unknown): [string, string] => {
    if (!isObject(value) && !Array.isArray(value)) {
      const text = JSON.stringify(value) ?? 'undefined';
      return [text, text];
    }
    const known = memo.get(value);
    if (known !== undefined) return known;
    const back = onStack.get(value);
    if (back !== undefined) {
      low = Math.min(low, back);
      return ['"<cycle>"', '"<cycle>"'];
    }
    const depth = onStack.size;
    onStack.set(value, depth);
    const outerLow = low;
    low = Infinity;
    let content: string;
    let shape: string;
    if (Array.isArray(value)) {
      const prints = value.map(walk);
      content = `[${prints.map((p) => p[0]).join(',')}]`;
      shape = `[${prints.map((p) => p[1]).join(',')}]`;
    } else {
      const all: string[] = [];
      const kept: string[] = [];
      for (const k of Object.keys(value).sort()) {
        const [c, sh] = walk(value[k]);
        const key = JSON.stringify(k);
        all.push(`${key}:${c}`);
        if (isShapeKey(k)) kept.push(`${key}:${sh}`);
      }
      content = `{${all.join(',')}}`;
      shape = `{${kept.join(',')}}`;
    }
    onStack.delete(value);
    const prints: [string, string] = [`#${hash(content)}`, content === shape ? `#${hash(content)}` : `#${hash(shape)}`];
    // Memoised unless a cycle reached above this node (its text then depends on the entry point).
    if (low >= depth) memo.set(value, prints);
    low = Math.min(outerLow, low);
    return prints;
  };
  return { content: (value) => walk(value)[0], shape: (value) => walk(value)[1] };
}

const fingerprints = makeFingerprints();
/** What constrains values: documentation keywords and extensions left out. */
export const shapeOf = fingerprints.shape;
/** Everything, extensions and documentation included: equal prints mean nothing to report below. */
export const contentOf = fingerprints.content;

/** Structural equality ignoring documentation keywords and extensions. */
export function sameShape(a: unknown, b: unknown): boolean {
  return shapeOf(a) === shapeOf(b);
}
