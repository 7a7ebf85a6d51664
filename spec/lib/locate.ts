// Lines of nodes by JSON pointer, for reviewer tools (the diff, the lint): each file is read once however many
// pointers are asked. JSON is scanned once for the pointers asked (a YAML parse of an 11 MB JSON file costs
// seconds and a gigabyte); YAML is parsed once with positions.

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { escapeToken, parsePointer } from './pointer';

/** Pointer (`/a/b`, no `#`) → character offset of the deepest node it reaches; undefined: nothing there. */
export type OffsetOf = (pointer: string) => number | undefined;

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

type Line = { start: number; indent: number; text: string };

/** The key of a block mapping entry (`key:`, `'key':`, `"key":`) and where its value starts, or undefined. */
function entryOf(text: string): { key: string; rest: string } | undefined {
  let key: string;
  let after: number;
  if (text[0] === "'" || text[0] === '"') {
    const quote = text[0];
    let i = 1;
    while (i < text.length && !(text[i] === quote && text[i + 1] !== quote)) i += text[i] === quote ? 2 : 1;
    const raw = text.slice(0, i + 1);
    key = quote === "'" ? raw.slice(1, -1).replace(/''/g, "'") : (JSON.parse(raw) as string);
    after = i + 1;
  } else {
    const colon = text.search(/:(\s|$)/);
    if (colon <= 0) return undefined;
    key = text.slice(0, colon).trimEnd();
    after = colon;
  }
  if (text[after] !== ':') return undefined;
  return { key, rest: text.slice(after + 1).trim() };
}

/** Does a flow collection that opens on this text close on it too (quotes respected)? */
function closesOnLine(text: string): boolean {
  let depth = 0;
  let quote = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '#' && depth === 0) break;
  }
  return depth === 0 && !quote;
}

/**
 * Block YAML by indentation alone, as hand-written descriptions are laid out: a few milliseconds where composing
 * the whole document costs a few hundred. Anchors on a block value (`key: &name`) and aliases as values
 * (`key: *name`) are followed. Returns undefined (the caller parses fully) on what it does not model: several
 * documents, tabs, a flow collection over several lines, a root in flow style, other uses of anchors and aliases.
 */
export function blockYamlOffsets(text: string): OffsetOf | undefined {
  if (/^(---|\.\.\.)\s/m.test(text.slice(1)) || /^\t/m.test(text)) return undefined;
  const lines: Line[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    const trimmed = raw.trimStart();
    if (trimmed !== '' && !trimmed.startsWith('#') && trimmed !== '---')
      lines.push({ start, indent: raw.length - trimmed.length, text: trimmed.trimEnd() });
    start += raw.length + 1;
  }
  if (lines.length === 0 || /^[[{]/.test(lines[0].text)) return undefined;
  const isItem = (l: Line) => /^-( |$)/.test(l.text);
  const valueOf = (l: Line) => (entryOf(l.text)?.rest ?? '').replace(/\s#.*$/, '');
  const anchors = new Map<string, { index: number; amp: number }>();
  for (const [index, line] of lines.entries()) {
    const item = isItem(line) ? line.text.slice(1).trimStart() : undefined;
    if (item !== undefined && /^[&*[{-]/.test(item) && !(/^[[{]/.test(item) && closesOnLine(item))) return undefined;
    const value = item === undefined ? valueOf(line) : valueOf({ ...line, text: item });
    if (/^[[{]/.test(value) && !closesOnLine(value)) return undefined;
    // An alias inside a one-line flow collection (`parameters: [*uuid]`): the full parse follows it.
    if (/^[[{]/.test(value) && /[[{,]\s*\*[\w.-]+\s*[\]},]/.test(value)) return undefined;
    const anchor = /^&([\w.-]+)$/.exec(value);
    if (anchor && item === undefined)
      anchors.set(anchor[1], { index, amp: line.start + line.indent + line.text.lastIndexOf(`&${anchor[1]}`) });
    else if (/^&/.test(value) || (/^\*/.test(value) && !/^\*[\w.-]+$/.test(value))) return undefined;
  }
  /** The lines of the block value of entry `i` of `of` (at `indent`); a sequence may sit at its key's indentation. */
  const childBlock = (of: Line[], i: number, indent: number): Line[] => {
    let j = i + 1;
    while (j < of.length && (of[j].indent > indent || (of[j].indent === indent && isItem(of[j])))) j++;
    const block = of.slice(i + 1, j);
    return block.length > 0 && block[0].indent === indent && !isItem(block[0]) ? [] : block;
  };
  const walk = (tokens: string[]): number => {
    let block: Line[] = lines;
    let indent = lines[0].indent;
    let offset = lines[0].start + lines[0].indent;
    let aliasAt: number | undefined; // a pointer ending on an alias is shown at its anchor (`&name`)
    for (const token of tokens) {
      aliasAt = undefined;
      if (block.length === 0) break;
      if (isItem(block[0])) {
        const items = block.map((l, i) => [l, i] as const).filter(([l]) => l.indent === indent && isItem(l));
        const found = items[Number(token)];
        if (!found) break;
        const [line, i] = found;
        const content = line.text.slice(1).trimStart();
        const column = line.indent + (line.text.length - content.length);
        offset = line.start + column;
        let end = i + 1;
        while (end < block.length && block[end].indent > indent) end++;
        if (content === '') {
          block = block.slice(i + 1, end);
          indent = block[0]?.indent ?? indent;
        } else {
          // `- key: value`: a mapping whose first entry sits on the dash's line.
          block = entryOf(content)
            ? [{ start: line.start, indent: column, text: content }, ...block.slice(i + 1, end)]
            : [];
          indent = column;
        }
        continue;
      }
      const i = block.findIndex((l) => l.indent === indent && entryOf(l.text)?.key === token);
      if (i === -1) break;
      const line = block[i];
      offset = line.start + line.indent;
      const value = valueOf(line);
      const alias = /^\*([\w.-]+)$/.exec(value);
      if (alias) {
        const anchor = anchors.get(alias[1]);
        if (!anchor) break;
        aliasAt = anchor.amp;
        block = childBlock(lines, anchor.index, lines[anchor.index].indent);
      } else if (value === '' || /^&[\w.-]+$/.test(value)) block = childBlock(block, i, indent);
      else block = []; // a scalar or a one-line flow collection: the deepest line is this one
      indent = block[0]?.indent ?? indent;
    }
    return aliasAt ?? offset;
  };
  return (pointer) => walk(parsePointer(pointer.startsWith('#') ? pointer : `#${pointer}`));
}

/**
 * YAML: the line of the member name; an alias is followed into the node it names, so a change inside it is
 * shown where it is written, and a pointer that ends on an alias shows the line of its anchor (`&name`).
 */
export function yamlOffsets(text: string): OffsetOf {
  return blockYamlOffsets(text) ?? composedYamlOffsets(text);
}

/** The full YAML parse, positions kept. */
export function composedYamlOffsets(text: string): OffsetOf {
  const doc = YAML.parseDocument(text, { merge: false, keepSourceTokens: false });
  return (pointer) => {
    let node: unknown = doc.contents;
    let offset = (doc.contents as YAML.Node | null)?.range?.[0];
    for (const token of parsePointer(pointer.startsWith('#') ? pointer : `#${pointer}`)) {
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
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

export function lineOfOffset(starts: number[], offset: number): number {
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
    const known = files.get(file);
    if (known !== undefined) return known;
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
