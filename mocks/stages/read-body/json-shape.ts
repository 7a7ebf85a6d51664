import { ApiError } from '../../errors';

/**
 * Checks nesting depth and array lengths of JSON text in one pass before it is parsed, so a body such as 6000
 * nested arrays or 150 000 empty strings is refused (400) before any recursive code (the parser, schema
 * validation, canonical JSON, the query engine) meets it.
 */
export function checkJsonShape(
  text: string,
  limits: { jsonDepth: number; jsonArrayItems: number },
): ApiError | undefined {
  // Per open container: -1 for an object, else the commas seen so far in the array (its items less one).
  const stack: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      stack.push(c === 0x5b ? 0 : -1);
      if (stack.length > limits.jsonDepth) return tooDeep(limits.jsonDepth, 'body');
    } else if (c === 0x5d || c === 0x7d) {
      stack.pop();
    } else if (c === 0x2c && stack.length > 0 && stack[stack.length - 1] >= 0) {
      if (++stack[stack.length - 1] >= limits.jsonArrayItems) return tooLong(limits.jsonArrayItems, 'body');
    }
  }
  return undefined;
}

/**
 * The same bounds on a value already built (a YAML document, whose aliases can nest or repeat what its text
 * does not show), walked without recursion.
 */
export function checkValueShape(
  value: unknown,
  limits: { jsonDepth: number; jsonArrayItems: number },
  what = 'body',
): ApiError | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  const deepestSeen = new Map<object, number>();
  while (stack.length > 0) {
    const [next, depth] = stack.pop() as [unknown, number];
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > limits.jsonDepth) return tooDeep(limits.jsonDepth, what);
    if (Array.isArray(next) && next.length > limits.jsonArrayItems) return tooLong(limits.jsonArrayItems, what);
    // A node reached again through an alias (or a cycle) is walked again only from a deeper place than before:
    // at most `jsonDepth` times, so shared nodes cannot make the walk exponential.
    if ((deepestSeen.get(next) ?? -1) >= depth) continue;
    deepestSeen.set(next, depth);
    for (const child of Object.values(next)) stack.push([child, depth + 1]);
  }
  return undefined;
}

function tooDeep(limit: number, what: string): ApiError {
  return new ApiError(400, 'json_too_deep', `${what}: nests deeper than ${limit} levels.`, { limit });
}

function tooLong(limit: number, what: string): ApiError {
  return new ApiError(400, 'json_array_too_long', `${what}: an array holds more than ${limit} items.`, { limit });
}
