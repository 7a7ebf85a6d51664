// Reading the contract: YAML or JSON files, split files bundled into one document whose `$ref`s are all internal,
// and two dereferenced views of it. The only place that parses the document, and the one door every spec comes in
// by: a spec may come from a pull request, so a `$ref` reaches only files inside the entry's own folder tree
// (symlinks resolved first) and never the network, and every file, alias, nesting level and expansion is bounded
// (refusal.ts). Whatever it will not read ends in one SpecRefused naming the file and the pointer.
// @see https://spec.openapis.org/oas/v3.1.0#reference-object

import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { Composer, Lexer, Parser, YAMLError, type CST, type Document } from 'yaml';
import { isObject, type Json, type JsonObject } from './json';
import { firstDuplicateKey } from './json-keys';
import { lineOfOffset, lineStarts, yamlOffsets } from './locate';
import { formatPointer, getAtPointer, parsePointer } from './pointer';
import {
  checkExpansion,
  quoteRef,
  refuserFor,
  SPEC_LIMITS,
  SpecRefused,
  type Refuse,
  type SpecLimits,
} from './refusal';

export { SPEC_LIMITS, SpecRefused, type RefusalCode, type SpecLimits } from './refusal';

/** The contract of this repository. */
export const DEFAULT_SPEC_PATH = resolve(__dirname, '..', 'openapi.yaml');

/** What a text is read as, for refusals: its file, or a name for text from elsewhere. */
const TEXT = '(text)';

/**
 * YAML's lexemes, refused past `limits.maxDepth` levels of nesting: yaml's parser slows down with every level of
 * flow nesting (200 000 `[`: 4 s; a million: out of memory) and its composer recurses, so the bound must hold
 * while the text is read. `depth` adds the parser's own stack (block nesting), when there is a parser.
 */
function* boundedLexemes(text: string, refuse: Refuse, limits: SpecLimits, depth = () => 0): Generator<string> {
  let offset = 0;
  let flow = 0;
  let count = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (++count > limits.maxTokens)
      refuse([], 'size', `more than ${limits.maxTokens} YAML tokens (maxTokens; line ${lineAt(text, offset)})`);
    if (lexeme === '[' || lexeme === '{') flow += 1;
    else if (lexeme === ']' || lexeme === '}') flow -= 1;
    if (flow > limits.maxDepth || depth() > limits.maxDepth)
      refuse([], 'depth', `nested deeper than ${limits.maxDepth} levels (line ${lineAt(text, offset)})`);
    offset += lexeme.length;
    yield lexeme;
  }
}

/** YAML's own parse (as YAML.parse), with nesting, aliases and errors turned into refusals. */
function parseYaml(text: string, refuse: Refuse, limits: SpecLimits): Json {
  // Tokens and flow nesting are bounded by the lexer alone first, five times faster than the parse (the contract:
  // 10 ms), so a file of a million `- a` lines is refused before it is parsed.
  for (const lexeme of boundedLexemes(text, refuse, limits)) void lexeme;
  const parser = new Parser();
  // Each lexeme is handed on as it is read, so a deep document stops at the first level over the bound.
  // The first error the parser meets ends the parse: a text of errors (`- a: - a: …`) costs the composer 0.1 ms each.
  function* checked(tokens: Generator<CST.Token>) {
    for (const token of tokens) {
      if (token.type === 'error')
        refuse([], 'syntax', `YAML: ${token.message.split('\n')[0]} (line ${lineAt(text, token.offset)})`);
      yield token;
    }
  }
  function* tokens() {
    for (const lexeme of boundedLexemes(text, refuse, limits, () => parser.stack.length))
      yield* checked(parser.next(lexeme));
    yield* checked(parser.end());
  }
  // logLevel 'error': yaml would print its warnings (with the source's text) straight to the console.
  const composer = new Composer({ schema: 'core', merge: false, logLevel: 'error' });
  let document: Document.Parsed | undefined;
  // yaml makes an Error per problem it meets; without stack traces a text of errors costs 20 times less.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const doc of composer.compose(tokens(), true, text.length)) {
      if (!document) document = doc;
      else refuse([], 'syntax', `holds several YAML documents (line ${lineAt(text, doc.range[0])})`);
    }
  } catch (error) {
    if (error instanceof RangeError) refuse([], 'depth', 'nested too deeply for the YAML parser');
    throw error;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const parsed = document ?? refuse([], 'syntax', 'holds no YAML document');
  const first = parsed.errors[0];
  if (first) refuse([], 'syntax', `YAML: ${first.message.split('\n')[0]} (line ${lineAt(text, first.pos[0])})`);
  try {
    return parsed.toJS({ maxAliasCount: limits.maxAliasCount }) as Json;
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message))
      refuse([], 'aliases', `YAML aliases over the bound (maxAliasCount ${limits.maxAliasCount}): ${error.message}`);
    if (error instanceof RangeError) refuse([], 'depth', 'nested too deeply for the YAML parser');
    if (error instanceof YAMLError) refuse([], 'syntax', `YAML: ${error.message.split('\n')[0]}`);
    throw error;
  }
}

function lineAt(text: string, offset: number): number {
  return lineOfOffset(lineStarts(text.slice(0, offset + 1)), offset);
}

/**
 * Parses YAML (JSON is YAML) with the 1.2 core schema (no Date objects, no merge keys), within `limits`: a text or
 * a nesting, alias count or expansion over them is refused (SpecRefused, naming `file`).
 */
export function parseDocumentText(text: string, file = TEXT, limits: SpecLimits = SPEC_LIMITS): Json {
  const { document } = parseText(text, file, limits, true);
  return document;
}

/**
 * The parse itself. `measureTrees`: also measure what JSON.parse read; the loader does not, its walkers bound the
 * depth and it measures the whole document at the end, and JSON (unlike YAML's aliases) cannot fan out within a file.
 */
function parseText(text: string, file: string, limits: SpecLimits, measureTrees: boolean): { document: Json } {
  const refuse = refuserFor(file);
  if (text.length > limits.maxFileBytes) refuse([], 'size', `larger than ${limits.maxFileBytes} bytes`);
  // JSON is YAML, but JSON.parse reads it a hundred times faster (an 11 MB description: 0.1 s instead of 3 s).
  if (/^\s*[[{]\s*["\]}]/.test(text)) {
    // Counted before JSON.parse builds them: 24 MB of `[],` is 8 million arrays, seconds to parse.
    const objects = jsonObjectCount(text, limits.maxObjects);
    if (objects > limits.maxObjects)
      refuse([], 'size', `holds more than ${limits.maxObjects} objects and arrays (maxObjects)`);
    try {
      const document = JSON.parse(text) as Json;
      // JSON.parse keeps the last of a key written twice; the YAML parser refuses it, and so does this door.
      const duplicate = firstDuplicateKey(text);
      if (duplicate)
        refuse(
          duplicate.path,
          'syntax',
          `JSON: the key ${quoteRef(duplicate.key)} appears twice in one object (line ${duplicate.line}); keys must be unique`,
        );
      if (measureTrees) checkExpansion(document, refuse, limits);
      return { document };
    } catch (error) {
      if (error instanceof SpecRefused) throw error;
      // YAML in flow style, or JSON with comments: the YAML parser reads it or says why not.
    }
  }
  const document = parseYaml(text, refuse, limits);
  checkExpansion(document, refuse, limits);
  return { document };
}

/** The `{` and `[` of a JSON text outside its strings, counted up to one past `bound`. */
function jsonObjectCount(text: string, bound: number): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length && count <= bound; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) count += 1;
  }
  return count;
}

/**
 * Parsing YAML is most of the mock's start-up time, so a parsed file is kept as JSON in the temp directory,
 * keyed by a hash of its text: any edit misses the cache. Only what passed the bounds is written there; what the
 * cache answers is a tree (JSON has no aliases) no larger than the bound, and the walkers bound its depth.
 */
function parseCached(text: string, file: string, limits: SpecLimits): Json {
  if (text.length < 64 * 1024 || /^\s*[[{]/.test(text)) return parseText(text, file, limits, false).document;
  const cache = resolve(
    tmpdir(),
    `workspace-api-spec-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.json`,
  );
  try {
    if (statSync(cache).size <= limits.maxFileBytes) return JSON.parse(readFileSync(cache, 'utf8')) as Json;
  } catch {
    // Not cached yet.
  }
  const { document } = parseText(text, file, limits, false);
  try {
    const partial = `${cache}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(document));
    renameSync(partial, cache);
  } catch {
    // A read-only temp directory only costs speed.
  }
  return document;
}

function isInside(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** A place a `$ref` points at: a file inside the spec's folder (its real path) and the tokens of the pointer. */
type Target = { file: string; tokens: string[] };

/**
 * The files of one spec: the entry, and what its `$ref`s reach inside the entry's folder tree. Every path is
 * checked before it is touched (a `..` or absolute path is refused without a look at the file system), then
 * resolved with its symlinks and checked again; files are read with their size bounded, each once.
 */
class SpecFiles {
  readonly entry: string;
  readonly folder: string;
  private readonly parsed = new Map<string, Json>();
  private bytes = 0;
  private objects = 0;

  constructor(
    entryPath: string,
    readonly limits: SpecLimits,
  ) {
    const given = resolve(entryPath);
    let folder: string;
    try {
      this.entry = realpathSync.native(given);
      folder = realpathSync.native(dirname(given));
    } catch (error) {
      throw new SpecRefused(
        given,
        '#',
        `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
        'unreadable',
      );
    }
    // The entry itself may be a pull request's symlink (spec/openapi.yaml -> ../../../home/runner/…): it is
    // confined to the folder it is named in, as every $ref is.
    if (!isInside(folder, this.entry))
      throw new SpecRefused(given, '#', `is a symlink that leads outside its folder ${folder}`, 'outside');
    this.folder = folder;
  }

  /** Where `ref`, written at `at` in `file`, points; refused when outside the folder or on the network. */
  target(ref: string, file: string, at: readonly string[]): Target {
    const refuse = refuserFor(file);
    const where = [...at, '$ref'];
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    let tokens: string[] = [];
    if (hash !== -1) {
      try {
        tokens = parsePointer(ref.slice(hash));
      } catch {
        refuse(where, 'syntax', `$ref ${quoteRef(ref)} is not a JSON pointer after its #`);
      }
    }
    if (filePart === '') return { file, tokens };
    if (/^file:/i.test(filePart))
      refuse(where, 'outside', `$ref ${quoteRef(ref)} is a file: URL; only relative paths inside ${this.folder}`);
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart) || /^[/\\]{2}/.test(filePart))
      refuse(where, 'remote', `$ref ${quoteRef(ref)} is a network address; a spec is read from its own folder only`);
    let path: string;
    try {
      path = decodeURI(filePart);
    } catch {
      return refuse(where, 'syntax', `$ref ${quoteRef(ref)} is not a valid URI reference`);
    }
    if (path.includes('\0')) refuse(where, 'syntax', `$ref ${quoteRef(ref)} holds a NUL character`);
    if (isAbsolute(path) || /^\\/.test(path))
      refuse(where, 'outside', `$ref ${quoteRef(ref)} is an absolute path; only relative paths inside ${this.folder}`);
    const lexical = resolve(dirname(file), path);
    if (!isInside(this.folder, lexical))
      refuse(where, 'outside', `$ref ${quoteRef(ref)} leads outside the spec's folder ${this.folder}`);
    let real: string;
    try {
      real = realpathSync.native(lexical);
    } catch (error) {
      return refuse(
        where,
        'unreadable',
        `cannot read ${lexical} ($ref ${quoteRef(ref)}): ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    if (!isInside(this.folder, real))
      refuse(
        where,
        'outside',
        `$ref ${quoteRef(ref)} leads through a symlink outside the spec's folder ${this.folder}`,
      );
    // Checked here too, so the refusal names the $ref; a FIFO or a device is never opened.
    if (real !== file && !this.parsed.has(real) && !statSync(real).isFile())
      refuse(where, 'unreadable', `$ref ${quoteRef(ref)} is not a regular file`);
    return { file: real, tokens };
  }

  /** The parsed content of a file `target` returned (or the entry). */
  read(file: string): Json {
    const known = this.parsed.get(file);
    if (known !== undefined) return known;
    const { limits } = this;
    const refuse = refuserFor(file);
    if (this.parsed.size >= limits.maxFiles) refuse([], 'files', `the spec reads more than ${limits.maxFiles} files`);
    const text = readBounded(file, limits, limits.maxTotalBytes - this.bytes, refuse);
    this.bytes += Buffer.byteLength(text);
    const document = parseCached(text, file, limits);
    this.objects += countObjects(document, limits.maxObjects - this.objects, () =>
      refuse([], 'size', `the spec holds more than ${limits.maxObjects} objects and arrays (maxObjects)`),
    );
    this.parsed.set(file, document);
    return document;
  }
}

/** The objects and arrays of a parsed file, each once (a YAML alias shares its anchor's); `over` past `budget`. */
function countObjects(document: Json, budget: number, over: () => never): number {
  const seen = new Set<object>();
  const stack: Json[] = [document];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (seen.size > budget) over();
    for (const value of Array.isArray(node) ? node : Object.values(node))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
  return seen.size;
}

/**
 * A regular file's text, refused past `limits.maxFileBytes`, or past `budget` (what the spec's total has left),
 * without reading more than one chunk beyond. Opened without blocking or following a last symlink (a FIFO or a
 * device would hang a read).
 */
function readBounded(file: string, limits: SpecLimits, budget: number, refuse: Refuse): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    return refuse([], 'unreadable', `cannot read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) refuse([], 'unreadable', 'not a regular file');
    const buffer = Buffer.alloc(Math.max(64 * 1024, Math.min(stat.size + 1, limits.maxFileBytes + 1)));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      total += n;
      if (total > limits.maxFileBytes) refuse([], 'size', `larger than ${limits.maxFileBytes} bytes (maxFileBytes)`);
      if (total > budget)
        refuse([], 'size', `the spec's files together are larger than ${limits.maxTotalBytes} bytes (maxTotalBytes)`);
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Whether a document has a `$ref` to another file; a document nested past the bound is refused on the way. */
function hasExternalRef(node: unknown, refuse: Refuse, limits: SpecLimits, level = 0): boolean {
  if (level > limits.maxDepth) refuse([], 'depth', `nested deeper than ${limits.maxDepth} levels`);
  if (Array.isArray(node)) return node.some((item) => hasExternalRef(item, refuse, limits, level + 1));
  if (!isObject(node)) return false;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return true;
  return Object.values(node).some((value) => hasExternalRef(value, refuse, limits, level + 1));
}

/** `object[key] = value`, as an own member even for `__proto__` (a spec's key, not the object's prototype). */
function setMember(object: JsonObject, key: string, value: Json): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/**
 * Reads a document and bundles the files it `$ref`s into it: each external target is inlined where it is first
 * referenced (under `components` first, so split schemas land at their natural place) and later references point
 * there. Cycles across files become internal `$ref`s. A single file is returned as parsed. Either way the result
 * is checked as a whole (every internal `$ref` resolves; no cycle of bare `$ref`s; depth and expansion bounded).
 */
export function bundleFile(entryPath: string, limits: SpecLimits = SPEC_LIMITS): JsonObject {
  const files = new SpecFiles(entryPath, limits);
  const entry = files.entry;
  const root = files.read(entry);
  if (!isObject(root)) throw new SpecRefused(entry, '#', 'is not an OpenAPI document (not a mapping)', 'syntax');
  const checked = (document: JsonObject) => {
    checkExpansion(document, refuserFor(entry), limits, true);
    return document;
  };
  if (!hasExternalRef(root, refuserFor(entry), limits)) return checked(root);

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

  // `level` counts calls (nesting and $refs followed), so no chain of files or $refs can exhaust the stack.
  const walk = (node: Json, file: string, at: string[], from: string[], level: number): Json => {
    if (level > limits.maxDepth)
      refuserFor(file)(from, 'depth', `nested deeper than ${limits.maxDepth} levels, $refs followed included`);
    if (Array.isArray(node))
      return node.map((item, i) => walk(item, file, [...at, String(i)], [...from, String(i)], level + 1));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const { $ref, ...rest } = node;
      const siblings = Object.fromEntries(
        Object.entries(rest).map(([k, v]) => [k, walk(v, file, [...at, k], [...from, k], level + 1)]),
      );
      const target = files.target($ref, file, from);
      const found = locate(target);
      if (found) return { $ref: formatPointer(found), ...siblings };
      const content = getAtPointer(files.read(target.file), target.tokens) as Json | undefined;
      if (content === undefined)
        return refuserFor(file)([...from, '$ref'], 'missing-target', `$ref ${quoteRef($ref)} points at nothing`);
      placed.set(keyOf(target), at);
      const inlined = walk(content, target.file, at, target.tokens, level + 1);
      return isObject(inlined) && Object.keys(siblings).length > 0 ? { ...inlined, ...siblings } : inlined;
    }
    const out: JsonObject = {};
    const keys = Object.keys(node);
    // Components first: a split schema is placed under components, not inside the first path that uses it.
    const order =
      at.length === 0 ? [...keys.filter((k) => k === 'components'), ...keys.filter((k) => k !== 'components')] : keys;
    for (const key of order) setMember(out, key, walk(node[key], file, [...at, key], [...from, key], level + 1));
    return Object.fromEntries(keys.map((k) => [k, out[k]]));
  };
  return checked(walk(root, entry, [], [], 0) as JsonObject);
}

export { dereferenceDocument, type CycleMode } from './dereference';

/** Where a node of a dereferenced document was written: its file and JSON pointer there (`/a/b`, no `#`). */
export type Origin = { file: string; pointer: string };

/**
 * Reads a document from files and dereferences it in one pass (cycles as circular objects, one object per
 * target, as dereferenceDocument). `origins`, when given, receives the file and pointer of every object and array
 * of the result, so a reviewer tool can point at the line of a split file a node came from. A fresh copy each call.
 * The result is measured as a whole (depth and expansion bounded), so a walker of it ends.
 */
export function dereferenceFile(
  entryPath: string,
  origins?: WeakMap<object, Origin>,
  limits: SpecLimits = SPEC_LIMITS,
): JsonObject {
  const files = new SpecFiles(entryPath, limits);
  const resolved = new Map<string, Json>();
  // $refs being followed: meeting one of them again before any ordinary node was made is a cycle of bare $refs.
  const following = new Set<string>();
  const pointerOf = (tokens: string[]) => formatPointer(tokens).slice(1);
  const walk = (node: Json, file: string, at: string[], level: number): Json => {
    if (!isObject(node) && !Array.isArray(node)) return node;
    if (level > limits.maxDepth)
      refuserFor(file)(at, 'depth', `nested deeper than ${limits.maxDepth} levels, $refs followed included`);
    const key = `${file}${formatPointer(at)}`;
    const known = resolved.get(key);
    if (known !== undefined) return known;
    if (isObject(node) && typeof node.$ref === 'string') {
      if (following.has(key))
        refuserFor(file)([...at, '$ref'], 'cycle', '$ref leads back to itself through nothing but $refs');
      const target = files.target(node.$ref, file, at);
      const raw = getAtPointer(files.read(target.file), target.tokens) as Json | undefined;
      if (raw === undefined)
        return refuserFor(file)([...at, '$ref'], 'missing-target', `$ref ${quoteRef(node.$ref)} points at nothing`);
      following.add(key);
      const value = walk(raw, target.file, target.tokens, level + 1);
      following.delete(key);
      const siblings = Object.keys(node).filter((k) => k !== '$ref');
      if (siblings.length === 0 || !isObject(value)) {
        resolved.set(key, value);
        return value;
      }
      // OAS 3.1 allows summary/description (and, in schemas, any keyword) beside $ref.
      const merged: JsonObject = { ...value };
      resolved.set(key, merged);
      origins?.set(merged, { file, pointer: pointerOf(at) });
      for (const k of siblings) setMember(merged, k, walk(node[k], file, [...at, k], level + 1));
      return merged;
    }
    // Registered before the children are walked, so a cycle back to this node finds it.
    if (Array.isArray(node)) {
      const out: Json[] = [];
      resolved.set(key, out);
      origins?.set(out, { file, pointer: pointerOf(at) });
      node.forEach((item, i) => out.push(walk(item, file, [...at, String(i)], level + 1)));
      return out;
    }
    const out: JsonObject = {};
    resolved.set(key, out);
    origins?.set(out, { file, pointer: pointerOf(at) });
    for (const [k, v] of Object.entries(node)) setMember(out, k, walk(v, file, [...at, k], level + 1));
    return out;
  };
  const entry = files.entry;
  const result = walk(files.read(entry), entry, [], 0);
  if (!isObject(result)) throw new SpecRefused(entry, '#', 'is not an OpenAPI document (not a mapping)', 'syntax');
  checkExpansion(result, refuserFor(entry), limits);
  return result;
}

/**
 * Line numbers of a YAML file by pointer: the line of the deepest node the pointer reaches (a pointer may run on
 * into a `$ref`'d component; the line of the `$ref` site is what a reviewer edits). Aliases are followed. The file
 * is read and its nesting bounded as the loader does; past maxTokens it has no lines (undefined).
 */
export function makeLineLocator(
  file: string,
  limits: SpecLimits = SPEC_LIMITS,
): (pointer: string) => number | undefined {
  const path = resolve(file);
  const refuse = refuserFor(path);
  const text = readBounded(path, limits, limits.maxTotalBytes, refuse);
  let offsetOf: ((pointer: string) => number | undefined) | undefined;
  const starts = lineStarts(text);
  return (pointer) => {
    if (!offsetOf) {
      try {
        for (const lexeme of boundedLexemes(text, refuse, limits)) void lexeme;
        offsetOf = yamlOffsets(text);
      } catch (error) {
        // Lines are a convenience: a file of more tokens than yaml parses in seconds (GitHub's description as one
        // line of JSON, read by JSON.parse) has none; too deep a file is still refused.
        if (!(error instanceof SpecRefused && error.code === 'size')) throw error;
        offsetOf = () => undefined;
      }
    }
    const offset = offsetOf(pointer);
    return offset === undefined ? undefined : lineOfOffset(starts, offset);
  };
}
