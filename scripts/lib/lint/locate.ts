import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { pointerTokens } from '../spec/dereference';

/**
 * Line of the deepest node a JSON pointer reaches in the entry file (a pointer may run on into a `$ref`'d
 * component; the line of the `$ref` site is what a reviewer edits).
 */
export function makeLocator(file: string): (pointer: string) => number | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, merge: false });
  return (pointer) => {
    let node: unknown = doc.contents;
    let offset = (doc.contents as Node | null)?.range?.[0];
    for (const token of pointerTokens(pointer.replace(/^#/, ''))) {
      if (node && typeof node === 'object' && 'source' in node && (node as { source?: unknown }).source) {
        node = (node as { source: unknown }).source; // follow YAML aliases
      }
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === token);
        if (pair && isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
        next = pair?.value;
      } else if (isSeq(node)) {
        next = node.items[Number(token)];
        const range = (next as Node | undefined)?.range;
        if (range) offset = range[0];
      }
      if (next === undefined || next === null) break;
      node = next;
    }
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
}
