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
      if (stack.length > limits.jsonDepth) {
        return new ApiError(400, 'json_too_deep', `body: JSON nests deeper than ${limits.jsonDepth} levels.`, {
          limit: limits.jsonDepth,
        });
      }
    } else if (c === 0x5d || c === 0x7d) {
      stack.pop();
    } else if (c === 0x2c && stack.length > 0 && stack[stack.length - 1] >= 0) {
      if (++stack[stack.length - 1] >= limits.jsonArrayItems) {
        return new ApiError(
          400,
          'json_array_too_long',
          `body: a JSON array holds more than ${limits.jsonArrayItems} items.`,
          { limit: limits.jsonArrayItems },
        );
      }
    }
  }
  return undefined;
}
