// Why the loader refuses a spec, and the bounds it holds every spec to: a spec may come from a pull request, so
// what it names is confined and what it costs is bounded before any tool walks it. Neutral (no `node:` imports):
// the in-memory walkers (dereference.ts) share it with the file loader (load.ts).

import { escapeTerminalLine } from './escape';
import { formatPointer, getAtPointer, parsePointer } from './pointer';

/** The bounds a spec is held to; SPEC_LIMITS are the defaults, each with headroom over the largest real spec met. */
export type SpecLimits = {
  /** Bytes of one file (this contract: 97 KB; GitHub's REST description, one JSON file: 13 MB). */
  maxFileBytes: number;
  /** Bytes of every file of one spec together. */
  maxTotalBytes: number;
  /** Files one spec reads, the entry included. */
  maxFiles: number;
  /** yaml's `maxAliasCount`: uses of an anchor times the aliases inside it (this contract needs 21). */
  maxAliasCount: number;
  /** Nesting levels, each `$ref` followed counting as one (this contract needs 26; GitHub's REST description 33). */
  maxDepth: number;
  /**
   * Objects and arrays in the spec's files as written (this contract: 1 523; GitHub's REST description: 90 570). The
   * byte bounds alone let 24 MB of `[],` hold 8 million, which the dereferenced view takes minutes and gigabytes to
   * build; this bound keeps every view of a spec to seconds.
   */
  maxObjects: number;
  /**
   * YAML tokens of one file (this contract: 17 944; GitHub's REST description written as YAML, 10 MB: 1.69 million,
   * 15 s to load): yaml's parser takes seconds per million, and 28 MB of `- a` lines took 44 s.
   */
  maxTokens: number;
  /**
   * Nodes of the document with every alias and `$ref` expanded in place, a cycle counted once (this contract:
   * 20 000; GitHub's REST description: 2 million): what a walker of the dereferenced view may visit.
   */
  maxNodes: number;
};

export const SPEC_LIMITS: Readonly<SpecLimits> = Object.freeze({
  maxFileBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxFiles: 1000,
  maxAliasCount: 10_000,
  maxDepth: 200,
  maxObjects: 250_000,
  maxTokens: 1_000_000,
  maxNodes: 8_000_000,
});

/** What a refusal is about; stable strings a tool or a test may switch on. */
export type RefusalCode =
  | 'remote' // a $ref with a network scheme or authority (http:, https:, //host, …)
  | 'outside' // a $ref to a file outside the entry's folder tree (.., absolute path, file: URL, symlink out)
  | 'unreadable' // no such file, not a regular file, no permission
  | 'size' // a file, or all files together, over the byte bound
  | 'files' // more files than the bound
  | 'syntax' // not YAML or JSON, several YAML documents, not a mapping, a $ref that is not a URI reference
  | 'aliases' // YAML aliases over the bound
  | 'depth' // nesting over the bound
  | 'expansion' // aliases or $refs that expand to more nodes than the bound
  | 'cycle' // $refs that lead back to themselves through nothing but $refs
  | 'missing-target'; // a $ref that points at nothing

/** A $ref or value shown in a reason: one line, at most 160 characters. */
export function quoteRef(ref: string): string {
  return JSON.stringify(ref.length > 160 ? `${ref.slice(0, 160)}…` : ref);
}

/**
 * The loader refuses a spec: one line naming the file and the JSON pointer where it stopped (`file#/a/b: reason`),
 * shown safely in a terminal or CI log (escapeTerminalLine), with the raw parts for programs.
 */
export class SpecRefused extends Error {
  override readonly name = 'SpecRefused';

  constructor(
    /** The file as the loader resolved it (absolute). */
    readonly file: string,
    /** Where in that file, as a URI fragment (`#/paths/~1a/get`); `#` for the whole file. */
    readonly pointer: string,
    readonly reason: string,
    readonly code: RefusalCode,
  ) {
    super(escapeTerminalLine(`${file}${shortPointer(pointer)}: ${reason}`));
  }
}

/** A pointer for a one-line message: past 16 tokens, the first and last 6 around the count left out. */
function shortPointer(pointer: string): string {
  const tokens = pointer.split('/');
  if (tokens.length <= 17) return pointer;
  return [...tokens.slice(0, 7), `…(${tokens.length - 13} more)…`, ...tokens.slice(-6)].join('/');
}

/** Refuses at `path` (tokens) in `file`. */
export type Refuse = (path: readonly string[], code: RefusalCode, reason: string) => never;

export function refuserFor(file: string): Refuse {
  return (path, code, reason) => {
    throw new SpecRefused(file, formatPointer(path), reason, code);
  };
}

type Size = { nodes: number; depth: number };
const LEAF: Size = { nodes: 1, depth: 0 };

/**
 * Walks a value once and refuses it when, expanded in place, it would be deeper than `maxDepth` or hold more than
 * `maxNodes` nodes. Objects met in several places (YAML aliases, dereferenced targets; with `followRefs`, internal
 * `$ref`s of a bundled document) are measured once and counted at every place, so an exponential fan-out is seen in
 * linear time; an object met again on its own path is a cycle and counts once. With `followRefs` a `$ref` that
 * points at nothing, or leads back to itself through nothing but `$ref`s, is refused too.
 */
export function checkExpansion(
  root: unknown,
  refuse: Refuse,
  limits: Pick<SpecLimits, 'maxDepth' | 'maxNodes'>,
  followRefs = false,
): void {
  // A measured object's size; `null` while it is on the current path (met again there: a cycle).
  const measured = new Map<object, Size | null>();
  const path: string[] = [];
  const targets = new Map<string, unknown>();
  const targetOf = (node: Record<string, unknown>): unknown => {
    const ref = node.$ref as string;
    if (targets.has(ref)) return targets.get(ref);
    let tokens: string[];
    try {
      tokens = parsePointer(ref);
    } catch {
      return refuse([...path, '$ref'], 'syntax', `$ref ${quoteRef(ref)} is not a JSON pointer`);
    }
    const target = getAtPointer(root, tokens);
    if (target === undefined) refuse([...path, '$ref'], 'missing-target', `$ref ${quoteRef(ref)} points at nothing`);
    targets.set(ref, target);
    return target;
  };
  const tooDeep = () => refuse(path, 'depth', `nested deeper than ${limits.maxDepth} levels, $refs followed included`);
  // `refRun`: the $ref objects followed since the last ordinary node; meeting one of them again is a cycle of $refs.
  const visit = (node: unknown, level: number, refRun: Set<object> | undefined): Size => {
    if (node === null || typeof node !== 'object') return LEAF;
    const known = measured.get(node);
    if (known) {
      if (level + known.depth > limits.maxDepth) tooDeep();
      return known;
    }
    if (known === null) {
      if (refRun?.has(node)) refuse(path, 'cycle', '$ref leads back to itself through nothing but $refs');
      return LEAF;
    }
    if (level > limits.maxDepth) tooDeep();
    measured.set(node, null);
    let nodes = 1;
    let depth = 0;
    let skip: string | undefined;
    const members = node as Record<string, unknown>;
    if (followRefs && typeof members.$ref === 'string' && members.$ref.startsWith('#')) {
      const run = refRun ?? new Set<object>();
      run.add(node);
      // The target takes the $ref's place, one level down (a walker follows it as one more call).
      const size = visit(targetOf(members), level + 1, run);
      run.delete(node);
      nodes = size.nodes;
      depth = size.depth + 1;
      skip = '$ref';
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child = node[i] as unknown;
        if (child === null || typeof child !== 'object') {
          nodes += 1;
          continue;
        }
        path.push(String(i));
        const size = visit(child, level + 1, undefined);
        path.pop();
        nodes += size.nodes;
        if (size.depth >= depth) depth = size.depth + 1;
      }
    } else {
      for (const key in members) {
        if (key === skip || !Object.prototype.hasOwnProperty.call(members, key)) continue;
        const child = members[key];
        if (child === null || typeof child !== 'object') {
          nodes += 1;
          continue;
        }
        path.push(key);
        const size = visit(child, level + 1, undefined);
        path.pop();
        nodes += size.nodes;
        if (size.depth >= depth) depth = size.depth + 1;
      }
    }
    if (nodes > limits.maxNodes)
      refuse(path, 'expansion', `expands to more than ${limits.maxNodes} nodes (aliases or $refs fanning out)`);
    const size = { nodes, depth };
    measured.set(node, size);
    return size;
  };
  visit(root, 0, undefined);
}
