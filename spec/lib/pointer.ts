// JSON pointers (RFC 6901) and their URI-fragment form (`#/a~1b/c`, RFC 6901 §6), written once.
// @see https://www.rfc-editor.org/rfc/rfc6901

import { isObject } from './json';

/** Escapes one reference token: `~` → `~0`, `/` → `~1` (RFC 6901 §4). */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `$ref` fragments may be percent-encoded (RFC 3986); a key holding a bare `%` is taken as written. */
function percentDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Tokens of a pointer, with or without the leading `#` (`#/a~1b/c` → ['a/b', 'c']); '' and '#' are the root. */
export function parsePointer(pointer: string): string[] {
  const fragment = pointer.startsWith('#');
  const body = fragment ? pointer.slice(1) : pointer;
  if (body === '') return [];
  if (!body.startsWith('/')) throw new Error(`"${pointer}" is not a JSON pointer`);
  return body
    .slice(1)
    .split('/')
    .map((token) => unescapeToken(fragment ? percentDecode(token) : token));
}

/** The URI-fragment pointer of some tokens (`['paths', '/a']` → `#/paths/~1a`). */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return `#${tokens.map((t) => `/${escapeToken(String(t))}`).join('')}`;
}

/** A pointer one level deeper. */
export function childPointer(pointer: string, ...tokens: (string | number)[]): string {
  const base = pointer.startsWith('#') ? pointer : `#${pointer}`;
  return base + tokens.map((t) => `/${escapeToken(String(t))}`).join('');
}

/** The node at a pointer, or undefined when any step is missing. */
export function getAtPointer(root: unknown, pointer: string | readonly string[]): unknown {
  let node: unknown = root;
  for (const token of typeof pointer === 'string' ? parsePointer(pointer) : pointer) {
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isObject(node)) node = Object.prototype.hasOwnProperty.call(node, token) ? node[token] : undefined;
    else return undefined;
  }
  return node;
}
