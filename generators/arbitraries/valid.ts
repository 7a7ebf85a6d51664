/**
 * Values valid against a schema: a fast-check arbitrary (shrinking comes from fast-check's own combinators), one
 * deterministic canonical value, and the list of boundary values.
 */
import fc from 'fast-check';
import {
  type JsonSchema,
  type JsonType,
  type SchemaObject,
  type SchemaOptions,
  ALL_TYPES,
  NEVER,
  canonicalJson,
  codePointLength,
  generationTypes,
  isObject,
  mergeSchemas,
  normalize,
  withoutKeyword,
} from './schema';
import { isValid, patternRegExp } from './validate';
import {
  type CharSet,
  MAX_UUID,
  NIL_UUID,
  SAMPLE_UUID,
  charArbitrary,
  classifyPattern,
  fillerChar,
  uuidArbitrary,
} from './patterns';
import { withSeeds } from './seeded';

export type ValidOptions = SchemaOptions & {
  /** Nesting depth below which optional properties and array items are still generated (default 6). */
  maxDepth?: number;
  /** Optional properties: 'some' (each may be present, the default), 'all' or 'none'. */
  includeOptional?: 'some' | 'all' | 'none';
  /** Characters of generated strings: 'unicode' (default) or 'header' (visible ASCII only). */
  charset?: CharSet;
};

type Ctx = Required<Pick<ValidOptions, 'maxDepth' | 'includeOptional' | 'charset'>> &
  SchemaOptions & {
    depth: number;
    /** Inside a oneOf/anyOf branch: no undeclared properties, so a value cannot slip into a sibling branch. */
    noExtras: boolean;
  };

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
/** Largest array length generated for a maxItems boundary; longer boundaries are listed but not generated. */
const MAX_BOUNDARY_ITEMS = 5000;

export function makeContext(options: ValidOptions = {}): Ctx {
  return {
    maxDepth: options.maxDepth ?? 6,
    includeOptional: options.includeOptional ?? 'some',
    charset: options.charset ?? 'unicode',
    resolve: options.resolve,
    depth: 0,
    noExtras: false,
  };
}

function deeper(ctx: Ctx): Ctx {
  return { ...ctx, depth: ctx.depth + 1 };
}

/** Values valid against the (dereferenced) schema, with boundary values and examples biased in early. */
export function validValue(schema: JsonSchema, options: ValidOptions = {}): fc.Arbitrary<unknown> {
  return validArbitrary(schema, makeContext(options));
}

export function validArbitrary(schema: JsonSchema | undefined, ctx: Ctx): fc.Arbitrary<unknown> {
  const s = normalize(schema, ctx);
  if (s === NEVER) throw new Error('The schema accepts no value (false)');
  let arb = buildArbitrary(s, ctx);
  // Keywords merged imperfectly (residual allOf, not, patternProperties, property counts) act as a filter.
  if (['allOf', 'not', 'patternProperties', 'minProperties', 'maxProperties', 'prefixItems'].some((k) => k in s)) {
    arb = arb.filter((v) => isValid(s, v, ctx));
  }
  const examples = exampleValues(s, ctx);
  return withSeeds(
    arb,
    examples.map((e) => fc.constant(e)),
  );
}

function exampleValues(s: SchemaObject, ctx: SchemaOptions): unknown[] {
  const list = [...(Array.isArray(s.examples) ? s.examples : []), ...('example' in s ? [s.example] : [])];
  return list.filter((e) => isValid(s, e, ctx));
}

function buildArbitrary(s: SchemaObject, ctx: Ctx): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) {
    const rest = withoutKeyword(s, 'enum');
    const values = s.enum.filter((v) => isValid(rest, v, ctx));
    if (values.length === 0) throw new Error(`No enum value satisfies the schema: ${JSON.stringify(s.enum)}`);
    return fc.constantFrom(...values);
  }
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) return branchArbitrary(s, ctx);
  const types = generationTypes(s);
  if (types.length === 0) throw new Error('The schema allows no type');
  if (types.length === ALL_TYPES.length) return anyJsonScalar(ctx);
  const concrete = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
  const arbs = concrete.map((t) => ({ weight: t === 'null' ? 1 : 4, arbitrary: typeArbitrary(t, s, ctx) }));
  return arbs.length === 1 ? arbs[0].arbitrary : fc.oneof(...arbs);
}

/** oneOf/anyOf: generate from one branch merged with the parent keywords, keep values the whole schema accepts. */
function branchArbitrary(s: SchemaObject, ctx: Ctx): fc.Arbitrary<unknown> {
  const keyword = Array.isArray(s.oneOf) ? 'oneOf' : 'anyOf';
  const base = withoutKeyword(s, keyword);
  const branchCtx: Ctx = { ...ctx, noExtras: true };
  const viable: fc.Arbitrary<unknown>[] = [];
  for (const branch of s[keyword] as JsonSchema[]) {
    let arb: fc.Arbitrary<unknown>;
    try {
      arb = validArbitrary(mergeSchemas(base, normalize(branch, ctx)), branchCtx);
    } catch {
      continue;
    }
    // A branch subsumed by a sibling never yields a oneOf-valid value: probe it so the filter cannot spin forever.
    const probe = fc.sample(arb, { numRuns: 30, seed: 7 });
    if (probe.some((v) => isValid(s, v, ctx))) viable.push(arb.filter((v) => isValid(s, v, ctx)));
  }
  if (viable.length === 0) throw new Error(`No ${keyword} branch can produce a valid value`);
  return viable.length === 1 ? viable[0] : fc.oneof(...viable);
}

function anyJsonScalar(ctx: Ctx): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.string({ unit: charArbitrary(ctx.charset), maxLength: 20 }),
    fc.integer({ min: -1000, max: 1000 }),
    fc.boolean(),
    fc.constant(null),
  );
}

function typeArbitrary(type: JsonType, s: SchemaObject, ctx: Ctx): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(s);
    case 'number':
      return numberArbitrary(s);
    case 'string':
      return stringArbitrary(s, ctx);
    case 'array':
      return arrayArbitrary(s, ctx);
    case 'object':
      return objectArbitrary(s, ctx);
  }
}

// ---- numbers -------------------------------------------------------------------------------------------------

export type IntegerRange = { lo: number; hi: number; step: number; hasMin: boolean; hasMax: boolean };

/** Inclusive integer range of a schema; `step` is multipleOf (1 when absent). */
export function integerRange(s: SchemaObject): IntegerRange {
  let lo = -Number.MAX_SAFE_INTEGER;
  let hi = Number.MAX_SAFE_INTEGER;
  const hasMin = typeof s.minimum === 'number' || typeof s.exclusiveMinimum === 'number';
  const hasMax = typeof s.maximum === 'number' || typeof s.exclusiveMaximum === 'number';
  if (typeof s.minimum === 'number') lo = Math.max(lo, Math.ceil(s.minimum));
  if (typeof s.exclusiveMinimum === 'number') lo = Math.max(lo, Math.floor(s.exclusiveMinimum) + 1);
  if (typeof s.maximum === 'number') hi = Math.min(hi, Math.floor(s.maximum));
  if (typeof s.exclusiveMaximum === 'number') hi = Math.min(hi, Math.ceil(s.exclusiveMaximum) - 1);
  const step =
    typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
  if (step > 1) {
    lo = Math.ceil(lo / step) * step;
    hi = Math.floor(hi / step) * step;
  }
  return { lo, hi, step, hasMin, hasMax };
}

/** Integers in [lo, hi]; ranges beyond 32 bits (up to 2^53 - 1) go through bigInt so every value is reachable. */
export function integerBetween(lo: number, hi: number): fc.Arbitrary<number> {
  if (lo >= INT32_MIN && hi <= INT32_MAX) return fc.integer({ min: lo, max: hi });
  return fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(
    (b) => Number(b),
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < lo || v > hi) throw new Error('out of range');
      return BigInt(v);
    },
  );
}

function integerArbitrary(s: SchemaObject): fc.Arbitrary<unknown> {
  const r = integerRange(s);
  if (r.lo > r.hi) throw new Error('Empty integer range');
  // Without stated bounds stay within 32 bits; servers commonly reject wider numbers as out of range anyway.
  const lo = r.hasMin ? r.lo : Math.max(r.lo, Math.min(INT32_MIN, r.hi - INT32_MAX));
  const hi = r.hasMax ? r.hi : Math.min(r.hi, Math.max(INT32_MAX, lo + INT32_MAX));
  const main =
    r.step === 1
      ? integerBetween(lo, hi)
      : integerBetween(Math.ceil(lo / r.step), Math.floor(hi / r.step)).map(
          (k) => k * r.step,
          (v) => {
            if (typeof v !== 'number' || v % r.step !== 0) throw new Error('not a multiple');
            return v / r.step;
          },
        );
  return withSeeds(
    main,
    integerBoundaries(s).map((b) => fc.constant(b)),
  );
}

export function integerBoundaries(s: SchemaObject): number[] {
  const r = integerRange(s);
  if (r.lo > r.hi) return [];
  const out: number[] = [];
  if (r.hasMin) out.push(r.lo, r.lo + r.step);
  if (r.hasMax) out.push(r.hi - r.step, r.hi);
  return [...new Set(out.filter((v) => v >= r.lo && v <= r.hi))].sort((a, b) => a - b);
}

/** The next double after x towards +Infinity (or -Infinity with direction -1). */
export function nextDouble(x: number, direction: 1 | -1 = 1): number {
  if (x === 0) return direction * Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, x);
  const bits = buffer.getBigInt64(0);
  buffer.setBigInt64(0, x > 0 === direction > 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}

function numberBounds(s: SchemaObject): { min?: number; max?: number; minExcluded: boolean; maxExcluded: boolean } {
  let min: number | undefined;
  let max: number | undefined;
  let minExcluded = false;
  let maxExcluded = false;
  if (typeof s.minimum === 'number') min = s.minimum;
  if (typeof s.exclusiveMinimum === 'number' && (min === undefined || s.exclusiveMinimum >= min)) {
    min = s.exclusiveMinimum;
    minExcluded = true;
  }
  if (typeof s.maximum === 'number') max = s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && (max === undefined || s.exclusiveMaximum <= max)) {
    max = s.exclusiveMaximum;
    maxExcluded = true;
  }
  return { min, max, minExcluded, maxExcluded };
}

function numberArbitrary(s: SchemaObject): fc.Arbitrary<unknown> {
  if (typeof s.multipleOf === 'number') {
    // Multiples are generated as k * multipleOf so every value is exact.
    const m = s.multipleOf;
    const b = numberBounds(s);
    const kLo =
      b.min === undefined ? -1e6 : Math.ceil(b.min / m) + (b.minExcluded && Number.isInteger(b.min / m) ? 1 : 0);
    const kHi =
      b.max === undefined ? 1e6 : Math.floor(b.max / m) - (b.maxExcluded && Number.isInteger(b.max / m) ? 1 : 0);
    return integerBetween(kLo, kHi)
      .map((k) => k * m)
      .filter((v) => isValid(s, v));
  }
  const b = numberBounds(s);
  const main = fc.double({
    min: b.min,
    max: b.max,
    minExcluded: b.minExcluded,
    maxExcluded: b.maxExcluded,
    noNaN: true,
    noDefaultInfinity: true,
  });
  return withSeeds(
    main.filter((v) => !Object.is(v, -0)),
    numberBoundaries(s).map((v) => fc.constant(v)),
  );
}

export function numberBoundaries(s: SchemaObject): number[] {
  const b = numberBounds(s);
  const out: number[] = [];
  if (b.min !== undefined) out.push(b.minExcluded ? nextDouble(b.min, 1) : b.min);
  if (b.max !== undefined) out.push(b.maxExcluded ? nextDouble(b.max, -1) : b.max);
  return [...new Set(out)].filter((v) => isValid(s, v)).sort((x, y) => x - y);
}

// ---- strings -------------------------------------------------------------------------------------------------

/** Characters a pattern of the form ^[^...]*$ rules out; none for other patterns. */
function excludedChars(s: SchemaObject): string[] {
  if (typeof s.pattern !== 'string') return [];
  const p = classifyPattern(s.pattern);
  return p.kind === 'excluded-chars' ? p.chars : [];
}

function lengthOk(s: SchemaObject) {
  return (v: string) => {
    const n = codePointLength(v);
    return n >= ((s.minLength as number | undefined) ?? 0) && n <= ((s.maxLength as number | undefined) ?? Infinity);
  };
}

function stringArbitrary(s: SchemaObject, ctx: Ctx): fc.Arbitrary<unknown> {
  const minLength = (s.minLength as number | undefined) ?? 0;
  const maxLength = s.maxLength as number | undefined;
  const pattern = typeof s.pattern === 'string' ? classifyPattern(s.pattern) : undefined;
  if (pattern?.kind === 'uuid' || (pattern === undefined && s.format === 'uuid')) {
    return withSeeds(uuidArbitrary().filter(lengthOk(s)), [fc.constant(NIL_UUID), fc.constant(MAX_UUID)]);
  }
  if (pattern?.kind === 'regex') {
    const re = patternRegExp(pattern.pattern);
    let arb = fc.stringMatching(re).filter(lengthOk(s));
    if (ctx.charset === 'header') arb = arb.filter((v) => /^[\x21-\x7e]*$/.test(v));
    return arb;
  }
  if (pattern === undefined && s.format === 'date-time') {
    return dateTimeArbitrary().filter(lengthOk(s));
  }
  if (pattern === undefined && s.format === 'email' && ctx.charset === 'unicode') {
    return fc.emailAddress().filter(lengthOk(s));
  }
  const unit = charArbitrary(ctx.charset, pattern?.kind === 'excluded-chars' ? pattern.chars : []);
  const ofLength = (min: number, max?: number) => fc.string({ unit, minLength: min, maxLength: max });
  const seeds = stringBoundaryLengths(s).map((n) => ofLength(n, n));
  return withSeeds(ofLength(minLength, maxLength), seeds);
}

function dateTimeArbitrary(): fc.Arbitrary<string> {
  return fc
    .date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true })
    .map(
      (d) => d.toISOString(),
      (v) => {
        if (typeof v !== 'string') throw new Error('not a date-time');
        const d = new Date(v);
        if (Number.isNaN(d.getTime()) || d.toISOString() !== v) throw new Error('not a canonical date-time');
        return d;
      },
    );
}

/** minLength and maxLength as stated; the strings at those lengths are the boundaries. */
function stringBoundaryLengths(s: SchemaObject): number[] {
  const lengths: number[] = [];
  if (typeof s.minLength === 'number') lengths.push(s.minLength);
  if (typeof s.maxLength === 'number') lengths.push(s.maxLength);
  return [...new Set(lengths)];
}

// ---- arrays and objects --------------------------------------------------------------------------------------

function arrayArbitrary(s: SchemaObject, ctx: Ctx): fc.Arbitrary<unknown> {
  const minItems = (s.minItems as number | undefined) ?? 0;
  const stated = s.maxItems as number | undefined;
  const maxItems = ctx.depth >= ctx.maxDepth ? minItems : stated;
  if (s.items === false || maxItems === 0) return fc.constant([]);
  const item = validArbitrary(s.items as JsonSchema | undefined, deeper(ctx));
  const ofLength = (min: number, max?: number): fc.Arbitrary<unknown[]> =>
    s.uniqueItems === true
      ? fc.uniqueArray(item, { minLength: min, maxLength: max, selector: canonicalJson }).filter((a) => a.length >= min)
      : fc.array(item, { minLength: min, maxLength: max });
  const seeds: fc.Arbitrary<unknown[]>[] = [];
  if (typeof s.minItems === 'number') seeds.push(ofLength(minItems, minItems));
  if (typeof stated === 'number' && stated === maxItems && stated <= MAX_BOUNDARY_ITEMS)
    seeds.push(ofLength(stated, stated));
  return withSeeds(ofLength(minItems, maxItems), seeds);
}

function extraKeyArbitrary(taken: string[]): fc.Arbitrary<string> {
  return fc.stringMatching(/^x[A-Za-z0-9]{1,8}$/).filter((k) => !taken.includes(k));
}

function objectArbitrary(s: SchemaObject, ctx: Ctx): fc.Arbitrary<unknown> {
  const properties = (isObject(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
  const required = ((s.required as string[] | undefined) ?? []).slice();
  const additional = s.additionalProperties as JsonSchema | undefined;
  const shallow = ctx.depth >= ctx.maxDepth;
  const names =
    shallow || ctx.includeOptional === 'none' ? required : [...new Set([...Object.keys(properties), ...required])];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) {
    const schema = name in properties ? properties[name] : additional === false ? false : additional;
    model[name] = validArbitrary(schema, deeper(ctx));
  }
  const requiredKeys = ctx.includeOptional === 'all' && !shallow ? names : required.filter((n) => names.includes(n));
  const record = fc.record(model, { requiredKeys, noNullPrototype: true }) as fc.Arbitrary<Record<string, unknown>>;
  if (ctx.noExtras || shallow || additional === false) return record;
  let extraValue: fc.Arbitrary<unknown> | undefined;
  if (isObject(additional) && Object.keys(additional).length > 0) extraValue = validArbitrary(additional, deeper(ctx));
  else if (Object.keys(properties).length === 0) extraValue = anyJsonScalar(ctx); // a free-form object: a few entries
  if (!extraValue) return record;
  const extras = fc.dictionary(extraKeyArbitrary(Object.keys(properties)), extraValue, {
    maxKeys: 3,
    noNullPrototype: true,
  });
  return fc.tuple(extras, record).map(([e, r]) => ({ ...e, ...r }));
}

// ---- canonical and boundary values ---------------------------------------------------------------------------

/**
 * One deterministic valid value: examples first, else the simplest value meeting the constraints (required
 * properties only, minItems items). Invalid cases are built by breaking one spot of it.
 */
export function canonicalValue(schema: JsonSchema | undefined, options: ValidOptions = {}, depth = 0): unknown {
  const ctx = { ...makeContext(options), depth };
  if (depth > 4 * ctx.maxDepth) throw new Error('Required properties nest too deep (a required cycle?)');
  const s = normalize(schema, ctx);
  if (s === NEVER) throw new Error('The schema accepts no value (false)');
  const examples = exampleValues(s, ctx);
  if (examples.length > 0) return examples[0];
  const candidate = simpleValue(s, ctx);
  if (candidate.ok && isValid(s, candidate.value, ctx)) return candidate.value;
  const sampled = fc
    .sample(validArbitrary(s, { ...ctx, includeOptional: 'none' }), { numRuns: 50, seed: 42 })
    .find((v) => isValid(s, v, ctx));
  if (sampled === undefined) throw new Error(`Cannot find a valid value for ${JSON.stringify(s).slice(0, 200)}`);
  return sampled;
}

function simpleValue(s: SchemaObject, ctx: Ctx): { ok: boolean; value?: unknown } {
  if ('const' in s) return { ok: true, value: s.const };
  if (Array.isArray(s.enum)) {
    const rest = withoutKeyword(s, 'enum');
    const v = s.enum.find((e) => isValid(rest, e, ctx));
    return { ok: v !== undefined || s.enum.includes(undefined), value: v };
  }
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(s[keyword])) continue;
    const base = withoutKeyword(s, keyword);
    for (const branch of s[keyword] as JsonSchema[]) {
      try {
        const v = canonicalValue(mergeSchemas(base, normalize(branch, ctx)), ctx, ctx.depth);
        if (isValid(s, v, ctx)) return { ok: true, value: v };
      } catch {
        // try the next branch
      }
    }
    return { ok: false };
  }
  const types = generationTypes(s);
  const preferred = types.find((t) => t !== 'null') ?? types[0];
  switch (preferred) {
    case undefined:
      return { ok: false };
    case 'null':
      return { ok: true, value: null };
    case 'boolean':
      return { ok: true, value: true };
    case 'integer':
    case 'number': {
      const r = integerRange(s);
      if (r.lo > r.hi) return { ok: false };
      const one = Math.ceil(1 / r.step) * r.step;
      return { ok: true, value: Math.min(Math.max(one, r.lo), r.hi) };
    }
    case 'string':
      return simpleString(s, ctx);
    case 'array': {
      const n = (s.minItems as number | undefined) ?? 0;
      const items = distinctValidValues(s.items as JsonSchema | undefined, n, ctx);
      return items ? { ok: true, value: items } : { ok: false };
    }
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const name of (s.required as string[] | undefined) ?? []) {
        out[name] = canonicalValue(
          name in properties ? properties[name] : (s.additionalProperties as JsonSchema | undefined),
          ctx,
          ctx.depth + 1,
        );
      }
      return { ok: true, value: out };
    }
  }
}

function simpleString(s: SchemaObject, _ctx: Ctx): { ok: boolean; value?: unknown } {
  const pattern = typeof s.pattern === 'string' ? classifyPattern(s.pattern) : undefined;
  if (pattern?.kind === 'uuid' || (pattern === undefined && s.format === 'uuid'))
    return { ok: true, value: SAMPLE_UUID };
  if (pattern === undefined && s.format === 'date-time') return { ok: true, value: '2024-01-01T00:00:00.000Z' };
  if (pattern === undefined && s.format === 'email') return { ok: true, value: 'someone@example.com' };
  if (pattern?.kind === 'regex') return { ok: false };
  const min = (s.minLength as number | undefined) ?? 0;
  const max = (s.maxLength as number | undefined) ?? Infinity;
  const excluded = pattern?.kind === 'excluded-chars' ? pattern.chars : [];
  const word = 'sample'.split('').every((c) => !excluded.includes(c)) ? 'sample' : '';
  const n = Math.min(Math.max(word.length, min), max);
  return { ok: true, value: fixedString(n, excluded, word) };
}

/** A string of exactly n code points that avoids the excluded characters. */
export function fixedString(n: number, excluded: string[] = [], prefix = ''): string {
  return (prefix + fillerChar(excluded).repeat(Math.max(0, n - prefix.length))).slice(0, n);
}

/** n distinct (when possible) valid values, canonical first, for arrays at their boundaries. */
export function distinctValidValues(
  items: JsonSchema | undefined,
  n: number,
  options: ValidOptions & { depth?: number },
): unknown[] | undefined {
  if (n === 0) return [];
  const ctx = { ...makeContext(options), depth: (options.depth ?? 0) + 1 };
  const first = canonicalValue(items, ctx, ctx.depth);
  const out: unknown[] = [first];
  const seen = new Set([canonicalJson(first)]);
  if (n > 1) {
    const pool = fc.sample(validArbitrary(items, { ...ctx, includeOptional: 'none' }), {
      numRuns: Math.max(50, n * 4),
      seed: 42,
    });
    for (const v of pool) {
      if (out.length >= n) break;
      const key = canonicalJson(v);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(v);
      }
    }
  }
  return out.length === n ? out : undefined;
}

/**
 * Each boundary value of a schema: integers [min, min+1, max-1, max], numbers [min, max], strings at minLength and
 * maxLength, the nil and max uuid, arrays at minItems and maxItems; for objects, the canonical object with one
 * property set to each of that property's boundaries; for oneOf/anyOf, each branch's boundaries.
 */
export function boundaryValues(schema: JsonSchema, options: ValidOptions = {}): unknown[] {
  const ctx = makeContext(options);
  return boundaryList(schema, ctx);
}

function boundaryList(schema: JsonSchema | undefined, ctx: Ctx): unknown[] {
  const s = normalize(schema, ctx);
  if (s === NEVER || 'const' in s || Array.isArray(s.enum)) return [];
  const out: unknown[] = [];
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(s[keyword])) continue;
    const base = withoutKeyword(s, keyword);
    for (const branch of s[keyword] as JsonSchema[])
      out.push(...boundaryList(mergeSchemas(base, normalize(branch, ctx)), ctx));
    return dedupe(out.filter((v) => isValid(s, v, ctx)));
  }
  const types = generationTypes(s);
  if (types.length === ALL_TYPES.length) return [];
  if (types.includes('integer') && !types.includes('number')) out.push(...integerBoundaries(s));
  if (types.includes('number')) out.push(...numberBoundaries(s));
  if (types.includes('string')) {
    const pattern = typeof s.pattern === 'string' ? classifyPattern(s.pattern) : undefined;
    if (pattern?.kind === 'uuid' || (pattern === undefined && s.format === 'uuid')) out.push(NIL_UUID, MAX_UUID);
    else if (pattern?.kind !== 'regex') {
      for (const n of stringBoundaryLengths(s)) out.push(fixedString(n, excludedChars(s)));
    } else {
      for (const n of stringBoundaryLengths(s)) {
        const found = fc
          .sample(fc.stringMatching(patternRegExp(pattern.pattern)), { numRuns: 200, seed: 42 })
          .find((v) => codePointLength(v) === n);
        if (found !== undefined) out.push(found);
      }
    }
  }
  if (types.includes('array')) {
    const lengths = [s.minItems, s.maxItems].filter(
      (n): n is number => typeof n === 'number' && n <= MAX_BOUNDARY_ITEMS,
    );
    for (const n of [...new Set(lengths)]) {
      const items = distinctValidValues(s.items as JsonSchema | undefined, n, { ...ctx, depth: ctx.depth });
      if (items) out.push(items);
    }
  }
  if (types.includes('object') && ctx.depth < 3) {
    const properties = (isObject(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
    const base = canonicalValue(s, ctx, ctx.depth) as Record<string, unknown>;
    if (isObject(base)) {
      for (const [name, sub] of Object.entries(properties)) {
        for (const b of boundaryList(sub, deeper(ctx))) out.push({ ...base, [name]: b });
      }
    }
  }
  return dedupe(out.filter((v) => isValid(s, v, ctx)));
}

function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = canonicalJson(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
