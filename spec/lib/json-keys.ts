import { lineOfOffset, lineStarts } from './locate';

/**
 * A key written twice in one object of a JSON text. `JSON.parse` keeps the last silently, so a spec could show a
 * reviewer one value (GitHub's diff shows both lines) while every tool reads the other; the YAML parser refuses
 * the same text ("Map keys must be unique"), and so does the loader now for JSON.
 */
export type DuplicateKey = {
  /** The tokens of the object that holds the key twice (a JSON pointer's, unescaped). */
  path: string[];
  key: string;
  /** The line of the second occurrence, from 1. */
  line: number;
};

/** An object or array being read: its name in its parent, and for an object its keys so far. */
type Open = { token: string; object: boolean; keys: Set<string>; key: string; index: number; expectKey: boolean };

/**
 * The first key that appears twice in one object of `text`, or undefined. For a text `JSON.parse` has read
 * (valid JSON): one pass, strings skipped by their escapes, each key decoded only when it holds an escape (so
 * `"\u0061"` and `"a"` are the same key, as they are to `JSON.parse`).
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Open[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i += 1; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i += 1;
        } else if (d === 0x22) break;
      }
      const top = stack.at(-1);
      if (!top?.object || !top.expectKey) continue;
      const raw = text.slice(start + 1, i);
      const key = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
      // The path is made only when found: a copy per level would be quadratic in a deep text's depth.
      if (top.keys.has(key))
        return { path: stack.slice(1).map((open) => open.token), key, line: lineOfOffset(lineStarts(text), start) };
      top.keys.add(key);
      top.key = key;
      top.expectKey = false;
    } else if (c === 0x7b || c === 0x5b) {
      const parent = stack.at(-1);
      const token = parent ? (parent.object ? parent.key : String(parent.index)) : '';
      stack.push({ token, object: c === 0x7b, keys: new Set(), key: '', index: 0, expectKey: true });
    } else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c) {
      const top = stack.at(-1);
      if (top?.object) top.expectKey = true;
      else if (top) top.index += 1;
    }
  }
  return undefined;
}
