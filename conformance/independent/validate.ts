/**
 * The independent server's own request validation: a small hand-written field language (as a server team would
 * write with a validation library), not derived from the contract. Every rule has a key
 * `<operationId> <location>:<field>:<keyword>` so that one rule can be switched off to make a mutant.
 */

export type Field =
  | {
      type: 'string';
      min?: number;
      max?: number;
      uuid?: boolean;
      excluded?: string[];
      enum?: string[];
      nullable?: boolean;
    }
  | { type: 'integer'; min?: number; max?: number; nullable?: boolean }
  | { type: 'boolean'; nullable?: boolean }
  | { type: 'object'; fields?: Record<string, Field>; nullable?: boolean }
  | { type: 'array'; items?: Field; nullable?: boolean }
  | { type: 'any' };

export type Problem = { key: string; message: string };

export const UUID =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$/;

export type Lengths = 'code-points' | 'utf16';

export type ValidateOptions = {
  /** Rule keys switched off (mutants). */
  off: ReadonlySet<string>;
  /** How string lengths are counted: characters (code points), or a mutant's UTF-16 units. */
  lengths: Lengths;
  /** Off-by-one mutants: rule keys whose maximum is one higher. */
  loose: ReadonlySet<string>;
};

function lengthOf(value: string, lengths: Lengths): number {
  return lengths === 'utf16' ? value.length : Array.from(value).length;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Validates a value against a field; `at` is the field path (`name`, `actions[]`, `metadata.mainGoal[]`). */
export function validateField(
  field: Field,
  value: unknown,
  scope: string,
  at: string,
  options: ValidateOptions,
  out: Problem[],
): void {
  const rule = (keyword: string) => `${scope}:${at}:${keyword}`;
  const fail = (keyword: string, message: string) => {
    if (!options.off.has(rule(keyword))) out.push({ key: rule(keyword), message: `${at || 'body'}: ${message}` });
  };
  if (field.type === 'any') return;
  if (value === null) {
    if (!('nullable' in field && field.nullable)) fail('type', 'must not be null');
    return;
  }
  const actual = typeOf(value);
  const typeOk = field.type === actual || (field.type === 'object' && actual === 'object');
  if (!typeOk) {
    fail('type', `must be ${field.type === 'integer' ? 'an integer' : `a ${field.type}`}`);
    return;
  }
  switch (field.type) {
    case 'string': {
      const text = value as string;
      if (field.enum && !field.enum.includes(text)) fail('enum', `must be one of ${field.enum.join(', ')}`);
      if (field.uuid && !UUID.test(text)) fail('pattern', 'must be a UUID');
      const length = lengthOf(text, options.lengths);
      if (field.min !== undefined && length < field.min)
        fail('minLength', `must have at least ${field.min} characters`);
      const max = field.max !== undefined && options.loose.has(rule('maxLength')) ? field.max + 1 : field.max;
      if (max !== undefined && length > max) fail('maxLength', `must have at most ${field.max} characters`);
      if (field.excluded?.some((c) => text.includes(c)))
        fail('pattern', `must not contain ${field.excluded.join(' or ')}`);
      return;
    }
    case 'integer': {
      const number = value as number;
      if (field.min !== undefined && number < field.min) fail('minimum', `must be at least ${field.min}`);
      const max = field.max !== undefined && options.loose.has(rule('maximum')) ? field.max + 1 : field.max;
      if (max !== undefined && number > max) fail('maximum', `must be at most ${field.max}`);
      return;
    }
    case 'object':
      for (const [name, child] of Object.entries(field.fields ?? {})) {
        const inner = (value as Record<string, unknown>)[name];
        if (inner !== undefined) validateField(child, inner, scope, at ? `${at}.${name}` : name, options, out);
      }
      return;
    case 'array': {
      const items = field.items;
      if (items) (value as unknown[]).forEach((item) => validateField(items, item, scope, `${at}[]`, options, out));
      return;
    }
    default:
      return;
  }
}

/** Reads a query parameter as its field says: integers must be integer text, arrays are repeated keys. */
export function readQuery(
  field: Field,
  raw: string[],
  scope: string,
  name: string,
  options: ValidateOptions,
  out: Problem[],
): unknown {
  if (raw.length === 0) return undefined;
  if (field.type === 'array') {
    const items = field.items ?? { type: 'string' };
    const values = raw.map((text) => readScalar(items, text));
    values.forEach((value, i) => {
      if (value === INVALID) {
        if (!options.off.has(`${scope}:${name}[]:type`))
          out.push({ key: `${scope}:${name}[]:type`, message: `${name}: ${raw[i]} is not valid` });
      } else validateField(items, value, scope, `${name}[]`, options, out);
    });
    return values;
  }
  const value = readScalar(field, raw[raw.length - 1]);
  if (value === INVALID) {
    if (!options.off.has(`${scope}:${name}:type`))
      out.push({
        key: `${scope}:${name}:type`,
        message: `${name}: "${raw[raw.length - 1]}" is not ${field.type === 'integer' ? 'an integer' : `a ${field.type}`}`,
      });
    return undefined;
  }
  validateField(field, value, scope, name, options, out);
  return value;
}

const INVALID = Symbol('invalid');

function readScalar(field: Field, text: string): unknown {
  if (field.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : INVALID;
  if (field.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : INVALID;
  return text;
}
