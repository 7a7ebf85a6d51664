// Where a reviewer edits a change: the line of the changed node in the file it was written in. Each file is read
// once per report, however many changes point into it. JSON is scanned once for the pointers asked (a YAML parse
// of an 11 MB JSON file costs seconds and a gigabyte); YAML is parsed once with positions.

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { escapeToken, parsePointer } from '../../../spec/lib';

/** Pointer (`/a/b`, no `#`) → character offset of the deepest node it reaches; undefined: nothing there. */
type OffsetOf = (pointer: string) => number | undefined;

/** The line of a pointer in a file, or undefined when the file has no useful lines (a document on one line). */
export type LineOf = (file: string, pointer: string) => number | undefined;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Every proper prefix of the pointers and the pointers themselves: the containers a scan must enter. */
function prefixesOf(pointers: Iterable<string>): Set<string> {
  const out = new Set<string>(['']);
  for (const pointer of pointers) {
    let at = '';
    for (const token of parsePointer(`#${pointer}`)) {
      at = `${at}/${escapeToken(token)}`;
      out.add(at);
    }
  }
  return out;
}

/**
 * One pass over a JSON text: the offset of the member name (or array item) of every wanted pointer. Values
 * outside the wanted containers are skipped without being parsed.
 */
export function scanJsonOffsets(text: string, wanted: Set<string>): Map<string, number> {
  const found = new Map<string, number>([['', 0]]);
  let i = 0;
  const n = text.length;
  const skipSpace = () => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  const readString = (): string => {
    const start = i;
    let escaped = false;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) {
        escaped = true;
        i += 2;
        continue;
      }
      i++;
      if (c === 0x22) break;
    }
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const skipValue = () => {
    let depth = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        readString();
        if (depth === 0) return;
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) return; // the end of the enclosing container: a scalar ended here
        depth--;
        if (depth === 0) {
          i++;
          return;
        }
      } else if (depth === 0 && (c === 0x2c || isSpace(c))) return;
      i++;
    }
  };
  const walk = (pointer: string) => {
    const c = text.charCodeAt(i);
    if (c !== 0x7b && c !== 0x5b) {
      skipValue();
      return;
    }
    const object = c === 0x7b;
    i++;
    for (let index = 0; ; index++) {
      skipSpace();
      if (i >= n || text.charCodeAt(i) === 0x7d || text.charCodeAt(i) === 0x5d) {
        i++;
        return;
      }
      const start = i;
      let child: string;
      if (object) {
        child = `${pointer}/${escapeToken(readString())}`;
        skipSpace();
        i++; // ':'
        skipSpace();
      } else child = `${pointer}/${index}`;
      if (wanted.has(child)) {
        found.set(child, start);
        walk(child);
      } else skipValue();
      skipSpace();
      if (text.charCodeAt(i) === 0x2c) i++;
    }
  };
  skipSpace();
  found.set('', i);
  walk('');
  return found;
}

/** The deepest node a pointer reaches: its own offset, else the nearest ancestor's. */
function deepest(found: Map<string, number>, pointer: string): number | undefined {
  let at = pointer;
  for (;;) {
    const offset = found.get(at);
    if (offset !== undefined) return offset;
    if (at === '') return undefined;
    at = at.slice(0, at.lastIndexOf('/'));
  }
}

/**
 * YAML: the line of the member name; an alias is followed into the node it names, so a change inside it is
 * shown where it is written, and a pointer that ends on an alias shows the line of its anchor (`&name`).
 */
function yamlOffsets(text: string): OffsetOf {
  const doc = YAML.parseDocument(text, { merge: false, keepSourceTokens: false });
  return (pointer) => {
    let node: unknown = doc.contents;
    let offset = (doc.contents as YAML.Node | null)?.range?.[0];
    for (const token of parsePointer(`#${pointer}`)) {
      if (YAML.isAlias(node)) node = node.resolve(doc);
      let next: unknown;
      if (YAML.isMap(node)) {
        const pair = node.items.find((p) => (YAML.isScalar(p.key) ? String(p.key.value) : String(p.key)) === token);
        if (!pair) break;
        if (YAML.isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
        next = pair.value;
      } else if (YAML.isSeq(node)) {
        next = node.items[Number(token)];
        const range = (next as YAML.Node | undefined)?.range;
        if (range) offset = range[0];
      }
      if (next === undefined || next === null) break;
      node = next;
    }
    if (YAML.isAlias(node)) {
      const target = node.resolve(doc);
      const anchor = target?.range ? text.lastIndexOf(`&${node.source}`, target.range[0]) : -1;
      if (anchor >= 0) offset = anchor;
    }
    return offset;
  };
}

/** Offsets of line starts, for offset → line by binary search. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOfOffset(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Lines of many pointers in many files. `wanted` lists every pointer that will be asked per file (JSON files are
 * scanned for those alone); a file whose text is one line answers undefined, and the pointer is what locates.
 */
export function createLineLocator(wanted: Map<string, Set<string>>): LineOf {
  const files = new Map<string, { offsetOf: OffsetOf; starts: number[] } | null>();
  const load = (file: string) => {
    if (files.has(file)) return files.get(file)!;
    let entry: { offsetOf: OffsetOf; starts: number[] } | null = null;
    try {
      const text = readFileSync(file, 'utf8');
      const starts = lineStarts(text.trimEnd());
      if (starts.length > 1) {
        const json = /^\s*[[{]\s*["\]}]/.test(text);
        let offsetOf: OffsetOf;
        if (json) {
          const found = scanJsonOffsets(text, prefixesOf(wanted.get(file) ?? []));
          offsetOf = (pointer) => deepest(found, pointer);
        } else offsetOf = yamlOffsets(text);
        entry = { offsetOf, starts };
      }
    } catch {
      entry = null; // a file that cannot be read again still has its pointer
    }
    files.set(file, entry);
    return entry;
  };
  return (file, pointer) => {
    const entry = load(file);
    if (!entry) return undefined;
    const offset = entry.offsetOf(pointer);
    return offset === undefined ? undefined : lineOfOffset(entry.starts, offset);
  };
}
