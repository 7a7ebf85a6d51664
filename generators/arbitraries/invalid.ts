/**
 * Values that break exactly one constraint of a schema. Each case starts from the canonical valid value and
 * breaks one spot; a local case is kept only if the value fails the schema AND passes it once the broken keyword is
 * removed, so the stated reason is the only one.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation#section-6
 */
import fc from 'fast-check';
import {
  type JsonSchema,
  type JsonType,
  type SchemaObject,
  type SchemaOptions,
  NEVER,
  canonicalJson,
  declaredTypes,
  generationTypes,
  isObject,
  joinPath,
  mergeSchemas,
  normalize,
  typeAllows,
  withoutKeyword,
} from './schema';
import { isValid } from './validate';
import { MALFORMED_UUIDS, charArbitrary, classifyPattern } from './patterns';
import { canonicalValue, distinctValidValues, fixedString, integerBetween, integerRange } from './valid';

export type InvalidCase = {
  value: unknown;
  /** The JSON Schema keyword the value breaks, e.g. 'maximum', 'required', 'pattern'. */
  breaks: string;
  /** Where the broken spot is, e.g. 'limit', 'name', 'actions[0].kind'; '' for the value itself. */
  path: string;
  description: string;
};

export type InvalidOptions = SchemaOptions & { path?: string; maxDepth?: number };

type Ctx = SchemaOptions & { maxDepth: number };

/** How deep nested properties are broken; deeper spots are still covered by their own schemas' cases. */
const DEFAULT_NEST_DEPTH = 4;
const MAX_GENERATED_ITEMS = 5000;

export function invalidCases(schema: JsonSchema, options: InvalidOptions = {}): InvalidCase[] {
  const ctx: Ctx = { resolve: options.resolve, maxDepth: options.maxDepth ?? DEFAULT_NEST_DEPTH };
  const seen = new Set<string>();
  return casesFor(schema, options.path ?? '', ctx, 0).filter((c) => {
    const key = `${c.path}|${c.breaks}|${canonicalJson(c.value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The deterministic cases, then random variants of the root value's own bounds (lengths, numbers, characters). */
export function invalidValue(schema: JsonSchema, options: InvalidOptions = {}): fc.Arbitrary<InvalidCase> {
  const cases = invalidCases(schema, options);
  if (cases.length === 0) throw new Error('The schema accepts every value: there is no invalid case to generate');
  const ctx: Ctx = { resolve: options.resolve, maxDepth: options.maxDepth ?? DEFAULT_NEST_DEPTH };
  const variants = randomVariants(normalize(schema, ctx), options.path ?? '', ctx);
  const fixed = fc.constantFrom(...cases);
  return variants.length === 0
    ? fixed
    : fc.oneof({ weight: 2, arbitrary: fixed }, ...variants.map((v) => ({ weight: 1, arbitrary: v })));
}

function describe(path: string, text: string): string {
  return `${path || 'value'}: ${text}`;
}

function casesFor(schema: JsonSchema | undefined, path: string, ctx: Ctx, depth: number): InvalidCase[] {
  const s = normalize(schema, ctx);
  if (s === NEVER) return [];
  const out: InvalidCase[] = [];
  /** Keep a case only when removing the broken keyword makes the value valid: one reason, no more. */
  const local: Local = (value, breaks, text, without = withoutKeyword(s, breaks), at = path) => {
    if (isValid(s, value, ctx) || !isValid(without, value, ctx)) return false;
    out.push({ value, breaks, path: at, description: describe(at, text) });
    return true;
  };

  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) return out.concat(branchCases(s, path, ctx, depth));

  const declared = declaredTypes(s);
  if (declared) {
    const wrong = wrongTypeValues(s, declared);
    for (const value of depth === 0 ? wrong : wrong.slice(0, 2)) {
      local(value, 'type', `wrong type ${JSON.stringify(value)} (expected ${declared.join(' or ')})`);
    }
  }
  if (Array.isArray(s.enum)) {
    for (const value of outsideEnum(s)) local(value, 'enum', `${JSON.stringify(value)} is outside the enum`);
  }
  if ('const' in s) {
    const c = s.const;
    const other = typeof c === 'string' ? `${c}x` : typeof c === 'number' ? c + 1 : typeof c === 'boolean' ? !c : null;
    local(other, 'const', `${JSON.stringify(other)} is not the constant ${JSON.stringify(c)}`);
  }
  const types = generationTypes(s);
  if (types.includes('string')) stringCases(s, ctx, depth, local);
  if (types.includes('integer') || types.includes('number')) numberCases(s, local);
  if (types.includes('array')) out.push(...arrayCases(s, path, ctx, depth, local));
  if (types.includes('object')) out.push(...objectCases(s, path, ctx, depth, local));
  return out;
}

/** Records a case when it breaks the schema for the stated keyword alone; answers whether it did. */
type Local = (value: unknown, breaks: string, text: string, without?: SchemaObject, at?: string) => boolean;

/** Values of a JSON type the schema does not allow, most telling first. */
function wrongTypeValues(s: SchemaObject, declared: JsonType[]): unknown[] {
  const out: unknown[] = [];
  if (!typeAllows(declared, 'string'))
    out.push(declared.includes('integer') || declared.includes('number') ? 'abc' : 'text');
  else if (!typeAllows(declared, 'integer')) out.push(123);
  if (declared.includes('integer') && !declared.includes('number')) {
    const r = integerRange(s);
    const half = r.lo <= r.hi && Number.isFinite(r.lo + 0.5) && r.lo + 0.5 < r.hi ? r.lo + 0.5 : 0.5;
    out.push(Number.isSafeInteger(r.lo) ? half : 1.5);
  }
  if (!declared.includes('null')) out.push(null);
  if (declared.includes('object') && !declared.includes('array')) out.push([]);
  else if (declared.includes('array') && !declared.includes('object')) out.push({});
  if (!declared.includes('boolean') && out.length < 2) out.push(true);
  return out;
}

function outsideEnum(s: SchemaObject): unknown[] {
  const values = s.enum as unknown[];
  const strings = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number');
  const out: unknown[] = [];
  if (strings.length > 0) {
    out.push('not-a-listed-value');
    const upper = strings[0].toUpperCase();
    if (!strings.includes(upper)) out.push(upper);
  }
  if (numbers.length > 0) out.push(Math.max(...numbers) + 1);
  if (strings.length === 0 && numbers.length === 0) out.push('not-a-listed-value', 0);
  return out;
}

function stringCases(s: SchemaObject, ctx: Ctx, depth: number, local: Local): void {
  const pattern = typeof s.pattern === 'string' ? classifyPattern(s.pattern) : undefined;
  const excluded = pattern?.kind === 'excluded-chars' ? pattern.chars : [];
  const valid = safeCanonical(s, ctx);
  const sample = typeof valid === 'string' ? valid : fixedString(6, excluded);
  const lengthAround = (n: number) =>
    pattern?.kind === 'regex' ? stretch(sample, n) : fixedString(n, excluded, 'sample');
  if (typeof s.minLength === 'number' && s.minLength > 0) {
    local(lengthAround(s.minLength - 1), 'minLength', `too short (${s.minLength - 1} < minLength ${s.minLength})`);
  }
  if (typeof s.maxLength === 'number') {
    local(lengthAround(s.maxLength + 1), 'maxLength', `too long (${s.maxLength + 1} > maxLength ${s.maxLength})`);
  }
  if (pattern?.kind === 'uuid') {
    for (const m of depth === 0 ? MALFORMED_UUIDS : MALFORMED_UUIDS.slice(0, 2))
      local(m.value, 'pattern', `${m.description} (${m.value})`);
  } else if (pattern?.kind === 'excluded-chars') {
    for (const c of excluded.slice(0, depth === 0 ? 4 : 1)) {
      const min = (s.minLength as number | undefined) ?? 0;
      const max = (s.maxLength as number | undefined) ?? Infinity;
      const n = Math.min(Math.max(3, min), max);
      if (n < 1) continue;
      const base = fixedString(n, excluded, 'sample');
      const at = Math.floor(n / 2);
      const chars = [...base];
      chars[at] = c;
      local(
        chars.join(''),
        'pattern',
        `contains ${JSON.stringify(c)}, which the pattern ${s.pattern as string} rules out`,
      );
    }
  } else if (pattern?.kind === 'regex') {
    const min = (s.minLength as number | undefined) ?? 0;
    const candidates = [
      '',
      ' ',
      '<>',
      '!!!',
      '-',
      fixedString(Math.max(min, 1), [], 'sample'),
      `${sample} `,
      `<${sample}>`,
    ];
    // a couple of non-matching strings are enough; the rest of the list only covers unusual patterns
    const wanted = depth === 0 ? 3 : 1;
    let found = 0;
    for (const value of candidates) {
      if (found >= wanted) break;
      if (local(value, 'pattern', `${JSON.stringify(value)} does not match ${s.pattern as string}`)) found++;
    }
  }
}

/** A string of n code points made by repeating a valid sample (keeps regex-shaped content where possible). */
function stretch(sample: string, n: number): string {
  const chars = [...(sample || 'a')];
  const out: string[] = [];
  while (out.length < n) out.push(...chars);
  return out.slice(0, n).join('');
}

function numberCases(s: SchemaObject, local: Local): void {
  if (typeof s.minimum === 'number') local(s.minimum - 1, 'minimum', `below minimum (${s.minimum - 1} < ${s.minimum})`);
  if (typeof s.maximum === 'number') local(s.maximum + 1, 'maximum', `above maximum (${s.maximum + 1} > ${s.maximum})`);
  if (typeof s.exclusiveMinimum === 'number') {
    local(s.exclusiveMinimum, 'exclusiveMinimum', `equal to the exclusive minimum ${s.exclusiveMinimum}`);
  }
  if (typeof s.exclusiveMaximum === 'number') {
    local(s.exclusiveMaximum, 'exclusiveMaximum', `equal to the exclusive maximum ${s.exclusiveMaximum}`);
  }
  if (typeof s.multipleOf === 'number') {
    const r = integerRange(s);
    const base = r.lo <= r.hi && Number.isSafeInteger(r.lo) ? r.lo : 0;
    for (const delta of [1, s.multipleOf / 2]) {
      local(base + delta, 'multipleOf', `${base + delta} is not a multiple of ${s.multipleOf}`);
    }
  }
}

function arrayCases(s: SchemaObject, path: string, ctx: Ctx, depth: number, local: Local): InvalidCase[] {
  const items = s.items as JsonSchema | undefined;
  const minItems = (s.minItems as number | undefined) ?? 0;
  const maxItems = (s.maxItems as number | undefined) ?? Infinity;
  const distinct = (n: number) =>
    n <= MAX_GENERATED_ITEMS ? safe(() => distinctValidValues(items, n, ctx)) : undefined;
  if (minItems > 0) {
    const v = distinct(minItems - 1);
    if (v) local(v, 'minItems', `too few items (${minItems - 1} < minItems ${minItems})`);
  }
  if (Number.isFinite(maxItems)) {
    const v = distinct(maxItems + 1);
    if (v) local(v, 'maxItems', `too many items (${maxItems + 1} > maxItems ${maxItems})`);
  }
  if (s.uniqueItems === true && maxItems >= 2) {
    const v = distinct(Math.max(minItems - 1, 1));
    if (v) local([...v, v[0]], 'uniqueItems', 'contains a duplicate item');
  }
  const out: InvalidCase[] = [];
  const base = distinct(Math.max(minItems, 1));
  if (base && base.length <= maxItems && depth < ctx.maxDepth && items !== undefined) {
    for (const c of casesFor(items, joinPath(path, 0), ctx, depth + 1)) {
      const value = [c.value, ...base.slice(1)];
      if (!isValid(s, value, ctx)) out.push({ ...c, value });
    }
  }
  return out;
}

function objectCases(s: SchemaObject, path: string, ctx: Ctx, depth: number, local: Local): InvalidCase[] {
  const base = safeCanonical(s, ctx);
  if (!isObject(base)) return [];
  const properties = (isObject(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
  for (const name of (s.required as string[] | undefined) ?? []) {
    const { [name]: _omit, ...rest } = base;
    local(
      rest,
      'required',
      `missing required property "${name}"`,
      withoutKeyword(s, 'required', name),
      joinPath(path, name),
    );
  }
  const extraKey = ['unexpectedProperty', 'unexpectedProperty2'].find((k) => !(k in properties)) ?? 'zzUnexpected';
  if (s.additionalProperties === false) {
    const text = `extra property "${extraKey}" is not allowed`;
    local(
      { ...base, [extraKey]: 'x' },
      'additionalProperties',
      text,
      withoutKeyword(s, 'additionalProperties'),
      joinPath(path, extraKey),
    );
  }
  if (depth >= ctx.maxDepth) return [];
  const nested: InvalidCase[] = [];
  if (isObject(s.additionalProperties)) {
    for (const c of casesFor(s.additionalProperties, joinPath(path, extraKey), ctx, depth + 1)) {
      const value = { ...base, [extraKey]: c.value };
      if (!isValid(s, value, ctx)) nested.push({ ...c, value });
    }
  }
  for (const [name, sub] of Object.entries(properties)) {
    for (const c of casesFor(sub, joinPath(path, name), ctx, depth + 1)) {
      const value = { ...base, [name]: c.value };
      if (!isValid(s, value, ctx)) nested.push({ ...c, value });
    }
  }
  return nested;
}

/** oneOf/anyOf: a type no branch allows, then each branch's own cases that the whole schema also rejects. */
function branchCases(s: SchemaObject, path: string, ctx: Ctx, depth: number): InvalidCase[] {
  const keyword = Array.isArray(s.oneOf) ? 'oneOf' : 'anyOf';
  const base = withoutKeyword(s, keyword);
  const branches = (s[keyword] as JsonSchema[]).map((b) => mergeSchemas(base, normalize(b, ctx)));
  const out: InvalidCase[] = [];
  const branchTypes = branches.map((b) => declaredTypes(b));
  if (branchTypes.every((t): t is JsonType[] => t !== undefined)) {
    const allowed = [...new Set(branchTypes.flat())];
    for (const value of wrongTypeValues(s, allowed).slice(0, depth === 0 ? 4 : 2)) {
      if (!isValid(s, value, ctx)) {
        out.push({
          value,
          breaks: 'type',
          path,
          description: describe(path, `wrong type ${JSON.stringify(value)} (expected ${allowed.join(' or ')})`),
        });
      }
    }
  }
  branches.forEach((branch, i) => {
    for (const c of casesFor(branch, path, ctx, depth)) {
      if (c.breaks === 'type') continue; // a wrong type for one branch may be right for another
      if (!isValid(s, c.value, ctx)) out.push({ ...c, description: `${c.description} (${keyword} branch ${i})` });
    }
  });
  return out;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function safeCanonical(s: SchemaObject, ctx: Ctx): unknown {
  return safe(() => canonicalValue(s, ctx));
}

// ---- random variants ---------------------------------------------------------------------------------------

function randomVariants(s: SchemaObject, path: string, ctx: Ctx): fc.Arbitrary<InvalidCase>[] {
  if (s === NEVER || Array.isArray(s.oneOf) || Array.isArray(s.anyOf) || Array.isArray(s.enum) || 'const' in s)
    return [];
  const types = generationTypes(s);
  const out: fc.Arbitrary<InvalidCase>[] = [];
  const keep = (breaks: string) => (value: unknown) =>
    !isValid(s, value, ctx) && isValid(withoutKeyword(s, breaks), value, ctx);
  const asCase =
    (breaks: string, text: string) =>
    (value: unknown): InvalidCase => ({
      value,
      breaks,
      path,
      description: describe(path, `${text} (${JSON.stringify(value).slice(0, 40)})`),
    });
  if (types.includes('integer') && !types.includes('number')) {
    const r = integerRange(s);
    if (typeof s.maximum === 'number' && r.hi + 1 < Number.MAX_SAFE_INTEGER) {
      const hi = Math.min(Number.MAX_SAFE_INTEGER, r.hi + 1_000_000);
      out.push(
        integerBetween(r.hi + 1, hi)
          .filter(keep('maximum'))
          .map(asCase('maximum', 'above maximum')),
      );
    }
    if (typeof s.minimum === 'number' && r.lo - 1 > -Number.MAX_SAFE_INTEGER) {
      const lo = Math.max(-Number.MAX_SAFE_INTEGER, r.lo - 1_000_000);
      out.push(
        integerBetween(lo, r.lo - 1)
          .filter(keep('minimum'))
          .map(asCase('minimum', 'below minimum')),
      );
    }
  }
  const pattern = typeof s.pattern === 'string' ? classifyPattern(s.pattern) : undefined;
  if (types.includes('string') && (pattern === undefined || pattern.kind === 'excluded-chars')) {
    const excluded = pattern?.kind === 'excluded-chars' ? pattern.chars : [];
    const unit = charArbitrary('unicode', excluded);
    if (typeof s.maxLength === 'number') {
      const max = s.maxLength;
      out.push(
        fc
          .string({ unit, minLength: max + 1, maxLength: max + 16 })
          .filter(keep('maxLength'))
          .map(asCase('maxLength', `longer than ${max}`)),
      );
    }
    if (excluded.length > 0) {
      const max = (s.maxLength as number | undefined) ?? 64;
      const half = Math.max(0, Math.floor((Math.min(max, 64) - 1) / 2));
      out.push(
        fc
          .tuple(
            fc.string({ unit, maxLength: half }),
            fc.constantFrom(...excluded),
            fc.string({ unit, maxLength: half }),
          )
          .map(([a, c, b]) => a + c + b)
          .filter(keep('pattern'))
          .map(asCase('pattern', `contains a character ruled out by ${s.pattern as string}`)),
      );
    }
  }
  return out;
}
