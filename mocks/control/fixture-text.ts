import { Lexer, parse as parseYaml } from 'yaml';
import { ApiError } from '../errors';
import { checkJsonShape, checkValueShape } from '../stages/read-body/json-shape';

export type FixtureTextLimits = {
  jsonDepth: number;
  jsonArrayItems: number;
  yamlAliases: number;
  /** Workspaces one text names, and items in all its collections. */
  workspaces: number;
  items: number;
};

/**
 * JSON or YAML text → a value, bounded before anything recursive meets it: JSON's shape is checked in one pass
 * over the text; YAML's nesting is measured on the lexer's tokens (a state machine, not recursive), its aliases
 * are capped while parsing, and the value built is checked again (aliases can nest what the text does not show).
 * Malformed text → 400 invalid_fixtures; too deep → json_too_deep; an array too long → json_array_too_long.
 */
export function parseFixtureText(text: string, limits: FixtureTextLimits): unknown {
  const trimmed = text.trim();
  const json = trimmed.startsWith('{');
  const shapeError = json ? checkJsonShape(trimmed, limits) : checkYamlNesting(trimmed, limits.jsonDepth);
  if (shapeError) throw shapeError;
  let value: unknown;
  try {
    // logLevel 'error': yaml would emit its warnings (an unknown tag) as process warnings quoting the text raw.
    value = json ? JSON.parse(trimmed) : parseYaml(trimmed, { maxAliasCount: limits.yamlAliases, logLevel: 'error' });
  } catch (error) {
    const problem = `fixtures: not valid ${json ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`;
    throw new ApiError(400, 'invalid_fixtures', problem, { problems: [problem] });
  }
  const valueError =
    (json ? undefined : checkValueShape(value, limits, 'fixtures')) ?? checkFixtureCounts(value, limits);
  if (valueError) throw valueError;
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** 400 fixtures_too_large when one text names more workspaces or items than one request may load. */
function checkFixtureCounts(value: unknown, limits: FixtureTextLimits): ApiError | undefined {
  const workspaces = isObject(value) && isObject(value.workspaces) ? Object.values(value.workspaces) : [];
  const tooLarge = (what: string, limit: number) =>
    new ApiError(
      400,
      'fixtures_too_large',
      `fixtures: more than ${limit} ${what} in one request; send them in parts.`,
      {
        limit,
      },
    );
  if (workspaces.length > limits.workspaces) return tooLarge('workspaces', limits.workspaces);
  let items = 0;
  for (const collections of workspaces) {
    if (!isObject(collections)) continue;
    for (const list of Object.values(collections)) items += Array.isArray(list) ? list.length : 1;
    if (items > limits.items) return tooLarge('items', limits.items);
  }
  return undefined;
}

const OPENERS = new Set(['[', '{']);
const CLOSERS = new Set([']', '}']);
/** Indicators that open a block collection on the line they stand on (`- - x`, `? k`, `k: v`). */
const BLOCK_INDICATORS = new Set(['-', '?', ':']);

/**
 * An upper estimate of a YAML text's nesting from its tokens: flow brackets, plus per line the indentation
 * levels still open and the block indicators on the line. Refused (json_too_deep) past twice the depth bound,
 * well before the parser's recursion could exhaust the stack; the value's exact depth is checked after parsing.
 */
export function checkYamlNesting(text: string, depthLimit: number): ApiError | undefined {
  const bound = depthLimit * 2;
  const indents: number[] = [];
  let column = 0;
  let lineStarted = false;
  let onLine = 0;
  let flow = 0;
  for (const token of new Lexer().lex(text)) {
    if (token.includes('\n')) {
      column = 0;
      lineStarted = false;
      onLine = 0;
      continue;
    }
    if (!lineStarted && flow === 0 && token.trim() !== '' && token !== '\u0002') {
      lineStarted = true;
      while (indents.length > 0 && indents[indents.length - 1] >= column) indents.pop();
      indents.push(column);
    }
    if (OPENERS.has(token)) flow += 1;
    else if (CLOSERS.has(token)) flow = Math.max(0, flow - 1);
    else if (flow === 0 && BLOCK_INDICATORS.has(token)) onLine += 1;
    if (indents.length + onLine + flow > bound)
      return new ApiError(400, 'json_too_deep', `fixtures: nest deeper than ${depthLimit} levels.`, {
        limit: depthLimit,
      });
    column += token.length;
  }
  return undefined;
}
