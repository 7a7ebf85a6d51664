// Recursive schema comparison with a direction: on input (request bodies, parameters) the server must keep
// accepting what it accepted; on output (responses) clients must keep understanding what they receive.
// Every keyword is either modelled here, documentation, an extension (`x-`), or reported as
// `schema-keyword-changed`, so no change to a schema passes silently.
// @see https://spec.openapis.org/oas/v3.1.0#schema-object
// @see https://json-schema.org/draft/2020-12/json-schema-validation

import { type Anchor, type Emit, type Place, show } from './change';
import { fieldOf } from './place';
import { compareLifecycle, isRetired } from './compare-lifecycle';
import { asArray, isObject, type Json, type JsonObject } from '../../../spec/lib/json';
import { sameTarget, similarNames } from './rename';
import { contentOf, DOC_KEYS, sameShape } from './shape';
import { boundOf, type End, formatRelation, NUMERIC_BOUND_KEYS, sameBound, showBound, tighter } from './semantics';
import { defineRules, type DiffRule, NO_TYPES } from './rules';

/** Schemas: request and response fields, values in each direction (`input-…` in requests, `output-…` in responses). */
export const SCHEMA_RULES = defineRules({
  'property-removed-after-sunset': ['non-breaking', 'its Sunset date has passed, so the contract allows retiring it'],
  'request-field-removed': ['breaking', 'clients still sending it are rejected or silently lose its effect'],
  'request-field-renamed': ['breaking', 'clients send the old name, which the server no longer reads'],
  'request-field-added-required': ['breaking', 'existing clients do not send it and get 400'],
  'request-field-added-optional': ['non-breaking', 'adding an optional request field is not breaking'],
  'request-field-made-required': ['breaking', 'clients that omit it now get 400'],
  'request-field-made-optional': ['non-breaking', 'requests that send it keep working'],
  'request-field-became-read-only': [
    'warning',
    'clients should stop sending it; a server may reject or ignore what they send',
  ],
  'request-body-wrapped-in-one-of': [
    'breaking',
    'a body valid before may now match two branches and fail oneOf, and generated clients change the body type',
  ],
  'input-type-changed': ['breaking', 'values clients send today no longer validate (400)'],
  'input-type-widened': ['non-breaking', 'every value accepted before is still accepted'],
  'input-constraint-tightened': ['breaking', 'values clients send today can now be rejected with 400'],
  'input-constraint-loosened': ['non-breaking', 'every value accepted before is still accepted'],
  'input-pattern-changed': [
    'warning',
    'the new pattern (or format) cannot be proven to accept every value the old one did',
    NO_TYPES,
  ],
  'input-format-incompatible': [
    'breaking',
    'no value is of both formats: every value clients send today is rejected with 400',
  ],
  'input-enum-narrowed': ['breaking', 'clients sending a removed value now get 400'],
  'input-enum-widened': ['non-breaking', 'every value accepted before is still accepted'],
  'input-const-added': ['breaking', 'only the fixed value is accepted now; clients sending others get 400'],
  'input-const-changed': ['breaking', 'clients sending the old fixed value get 400'],
  'input-const-removed': ['non-breaking', 'every value accepted before is still accepted'],
  'input-nullability-removed': ['breaking', 'clients sending null now get 400'],
  'input-nullability-added': ['non-breaking', 'every value accepted before is still accepted'],
  'input-alternative-added': ['non-breaking', 'a new accepted shape; every shape accepted before still is'],
  'input-alternative-removed': ['breaking', 'clients sending the removed shape now get 400'],
  'input-default-added': [
    'warning',
    'clients omitting the value now get a stated behaviour that may differ from what the server did before',
  ],
  'input-default-changed': ['breaking', 'clients omitting the value silently get a different behaviour'],
  'input-default-removed': [
    'breaking',
    'clients omitting the value relied on the default, which is no longer promised',
  ],
  'input-encoding-changed': [
    'breaking',
    'clients encode the value the old way (contentEncoding / contentMediaType), which the server no longer decodes',
    NO_TYPES,
  ],
  'response-field-removed': ['breaking', 'clients reading this field break'],
  'response-field-added': ['non-breaking', 'clients ignore response fields they do not recognise'],
  'response-field-made-optional': ['breaking', 'clients expecting the field to be present break when it is absent'],
  'response-field-made-required': ['non-breaking', 'the field is now always present'],
  'response-field-became-write-only': [
    'breaking',
    'the field is no longer returned; clients reading it break',
    NO_TYPES,
  ],
  'response-object-opened': ['informational', 'clients ignore response fields they do not recognise'],
  'response-enum-value-added': [
    'breaking',
    'the set is stated in full (a closed enum: generated clients type it as a closed union), so clients do not expect the new value',
  ],
  'response-enum-value-added-assumed': [
    'warning',
    'the closed set rests on an x-assumption, not on the description; clients typed on it may not expect the new value',
  ],
  'response-open-enum-value-added': [
    'informational',
    'an open enumeration (examples, no enum): clients accept values not listed',
    NO_TYPES,
  ],
  'response-enum-value-removed': ['non-breaking', 'responses use fewer values than before'],
  'response-body-wrapped-in-one-of': [
    'breaking',
    'responses may now take another shape; fields clients read may be absent',
  ],
  'output-type-changed': ['breaking', 'clients receive values of a type they do not parse'],
  'output-type-widened': ['breaking', 'clients receive values of a type they did not expect'],
  'output-type-narrowed': ['non-breaking', 'every value returned now was valid before'],
  'output-nullability-added': ['breaking', 'clients receive null where they expect a value'],
  'output-nullability-removed': ['non-breaking', 'every value returned now was valid before'],
  'output-constraint-loosened': ['breaking', 'clients receive values outside the range they were promised'],
  'output-constraint-tightened': ['non-breaking', 'every value returned now was valid before'],
  'output-pattern-changed': [
    'warning',
    'the new pattern (or format) cannot be proven to admit only values the old one did',
    NO_TYPES,
  ],
  'output-format-incompatible': [
    'breaking',
    'no value is of both formats: clients parsing the old format fail on every value',
  ],
  'output-const-added': ['non-breaking', 'every value returned now was valid before'],
  'output-const-changed': ['breaking', 'clients relying on the fixed value receive another'],
  'output-const-removed': ['breaking', 'clients relying on the fixed value may receive others'],
  'output-alternative-added': ['breaking', 'responses may take a shape clients do not parse'],
  'output-alternative-removed': ['non-breaking', 'every value returned now was valid before'],
  'output-default-changed': [
    'informational',
    'a default in a response is an annotation; the values sent are unchanged',
  ],
  'output-encoding-changed': [
    'breaking',
    'clients decode the value the old way (contentEncoding / contentMediaType)',
    NO_TYPES,
  ],
  'discriminator-changed': [
    'informational',
    'generated clients may pick branches differently; the values on the wire are unchanged',
  ],
  'discriminator-mapping-value-removed': [
    'breaking',
    'the mapping was the only statement of this value on the wire: clients sending or dispatching on it break',
  ],
  'schema-keyword-changed': ['warning', 'a keyword this diff does not model changed; review it by hand'],
});

export type Direction = 'input' | 'output';

type Normalised = {
  schema: JsonObject;
  types: Set<string>; // empty: any type
  nullable: boolean;
  enumValues?: Json[];
  /** oneOf/anyOf branches without the null branch, when more than one remains. */
  alternatives?: JsonObject[];
  combinator?: 'oneOf' | 'anyOf';
};

/** Counts (numeric bounds, in their every spelling, are compared as ranges: semantics.ts). */
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties', 'maxContains'] as const;
const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties', 'minContains'] as const;
/** Assertion and applicator keywords compared as a whole: added tightens, removed loosens, changed is unproven. */
const OPAQUE_CONSTRAINTS = [
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'contains',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
const MODELLED = new Set<string>([
  ...NUMERIC_BOUND_KEYS,
  ...UPPER_BOUNDS,
  ...LOWER_BOUNDS,
  ...OPAQUE_CONSTRAINTS,
  'type',
  'enum',
  'const',
  'nullable',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'allOf',
  'oneOf',
  'anyOf',
  'discriminator',
  'default',
  'readOnly',
  'writeOnly',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

function isNullSchema(s: unknown): boolean {
  return isObject(s) && (s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null));
}

/** How two bounds of allOf parts combine: a value must satisfy both. */
const TIGHTEST: Record<string, (a: number, b: number) => number> = Object.fromEntries([
  ...['minLength', 'minItems', 'minProperties', 'minContains', 'minimum', 'exclusiveMinimum'].map((k) => [k, Math.max]),
  ...['maxLength', 'maxItems', 'maxProperties', 'maxContains', 'maximum', 'exclusiveMaximum'].map((k) => [k, Math.min]),
]);

/** allOf merged into one object view; the shapes a contract spec uses, not a general JSON JsonObject intersection. */
function mergeAllOf(schema: JsonObject): JsonObject {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: JsonObject = { ...schema };
  delete merged.allOf;
  const properties: JsonObject = { ...(isObject(schema.properties) ? schema.properties : {}) };
  const required = new Set(asArray(schema.required).map(String));
  for (const part of schema.allOf) {
    if (!isObject(part)) continue;
    const flat = mergeAllOf(part);
    for (const [k, v] of Object.entries(flat)) {
      if (k === 'properties' && isObject(v)) {
        // A property stated by several parts must satisfy each of them.
        for (const [name, schema] of Object.entries(v))
          properties[name] = name in properties ? { allOf: [properties[name], schema] } : schema;
      } else if (k === 'required') asArray(v).forEach((r) => required.add(String(r)));
      else if (!(k in merged)) merged[k] = v;
      else if (typeof v === 'number' && typeof merged[k] === 'number' && k in TIGHTEST)
        merged[k] = TIGHTEST[k](merged[k] as number, v); // every part holds: the tightest bound
      else if (k === 'enum' && Array.isArray(v) && Array.isArray(merged.enum))
        merged.enum = merged.enum.filter((x) => v.some((y) => JSON.stringify(y) === JSON.stringify(x)));
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

export function normaliseSchema(raw: unknown): Normalised {
  let schema = mergeAllOf(isObject(raw) ? raw : {});
  let nullable = schema.nullable === true; // OpenAPI 3.0 spelling, still met in the wild
  let alternatives: JsonObject[] | undefined;
  const combinator = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (combinator) {
    const branches = asArray(schema[combinator]).filter(isObject) as JsonObject[];
    const nonNull = branches.filter((b) => !isNullSchema(b));
    if (nonNull.length < branches.length) nullable = true;
    if (nonNull.length === 1) {
      // `anyOf: [X, {type: null}]` is "X or null": compare as X.
      const { [combinator]: _dropped, ...rest } = schema;
      schema = { ...mergeAllOf(nonNull[0]), ...rest };
    } else {
      alternatives = nonNull;
    }
  }
  const typeList = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  const types = new Set(typeList.filter((t) => t !== 'null'));
  if (typeList.includes('null')) nullable = true;
  if (types.size === 0 && isObject(schema.properties)) types.add('object');
  if (types.size === 0 && schema.items !== undefined) types.add('array');
  let enumValues: Json[] | undefined = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (enumValues?.includes(null)) {
    nullable = true;
    enumValues = enumValues.filter((v) => v !== null);
  }
  if (schema.const === null) nullable = true;
  return { schema, types, nullable, enumValues, alternatives, combinator: alternatives ? combinator : undefined };
}

/** Does type set `outer` admit every value of `inner`? Empty sets mean "any"; integer is a subset of number. */
function typesCover(outer: Set<string>, inner: Set<string>): boolean {
  if (outer.size === 0) return true;
  if (inner.size === 0) return false;
  return [...inner].every((t) => outer.has(t) || (t === 'integer' && outer.has('number')));
}

function typeLabel(n: Normalised): string {
  return n.types.size === 0 ? 'any' : [...n.types].join('|');
}

/** A readable rendering of a schema's shape, for details. */
function canonical(value: unknown, seen = new Set<unknown>()): string {
  if (!isObject(value) && !Array.isArray(value)) return JSON.stringify(value) ?? 'undefined';
  if (seen.has(value)) return '"<cycle>"';
  seen.add(value);
  const text = Array.isArray(value)
    ? `[${value.map((v) => canonical(v, seen)).join(',')}]`
    : `{${Object.keys(value)
        .filter((k) => !DOC_KEYS.has(k) && !k.startsWith('x-'))
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical(value[k], seen)}`)
        .join(',')}}`;
  seen.delete(value);
  return text;
}

export type SchemaContext = {
  direction: Direction;
  emit: Emit;
  where: Place;
  now: Date;
  /** How the top-level schema is named in details (`\`limit\``, `the body`). */
  subject?: string;
  /** Plain name put before a field path that starts at the root (`reasons` + `[]`). */
  prefix?: string;
  /** Set for a request or response body (not a parameter or header): enables the "wrapped in oneOf" rules. */
  body?: boolean;
  visited?: WeakMap<object, WeakSet<object>>;
  /** The component a node was written as, when it was (see CompareOptions). */
  targetOf?: (node: object) => string | undefined;
};

function child(field: string, name: string): string {
  return field === '' ? name : `${field}.${name}`;
}

type Site = { name: string; at: Place; anchor: Anchor; ctx: SchemaContext };

export function compareSchema(baseRaw: unknown, headRaw: unknown, field: string, ctx: SchemaContext): void {
  if (!isObject(baseRaw) || !isObject(headRaw)) return;
  // Identical subtrees (one shared component object, fingerprinted once) have nothing to report.
  if (contentOf(baseRaw) === contentOf(headRaw)) return;
  // Dereferenced specs may be circular: compare each (base, head) pair once.
  const visited = (ctx.visited ??= new WeakMap());
  const seenHeads = visited.get(baseRaw) ?? new WeakSet<object>();
  if (seenHeads.has(headRaw)) return;
  seenHeads.add(headRaw);
  visited.set(baseRaw, seenHeads);

  const base = normaliseSchema(baseRaw);
  const head = normaliseSchema(headRaw);
  const shown = /^[[{(]/.test(field) ? `${ctx.prefix ?? ''}${field}` : field;
  const site: Site = {
    name: field === '' ? (ctx.subject ?? 'the schema') : `\`${shown}\``,
    at: fieldOf(ctx.where, field),
    anchor: { head: headRaw, base: baseRaw },
    ctx,
  };

  compareNullability(base, head, site);
  if (compareAlternatives(base, head, field, site)) return; // wrapped or unwrapped: compared against the matching branch
  compareTypes(base, head, site);
  compareBounds(base.schema, head.schema, site);
  compareNumericRange(base, head, site);
  compareValueSets(base, head, site);
  compareDefault(base.schema, head.schema, site);
  compareEncoding(base.schema, head.schema, field, site);
  compareDiscriminator(base.schema, head.schema, site, [baseRaw, headRaw]);
  compareUnknownKeywords(base.schema, head.schema, site);

  const bItems = base.schema.items;
  const hItems = head.schema.items;
  if (isObject(bItems) && isObject(hItems)) compareSchema(bItems, hItems, `${field}[]`, ctx);
  else if (isObject(bItems) !== isObject(hItems))
    constraint(
      !isObject(bItems),
      `items of ${site.name} ${isObject(hItems) ? 'now constrained' : 'no longer constrained'}`,
      site,
    );
  compareProperties(base.schema, head.schema, field, ctx, { base: baseRaw, head: headRaw });
  compareAdditionalProperties(base.schema, head.schema, field, site);
}

/** Report a constraint tightened (or loosened) in the rule of the context's direction. */
function constraint(tightened: boolean, detail: string, site: Site, key?: string): void {
  const rule =
    site.ctx.direction === 'input'
      ? tightened
        ? SCHEMA_RULES['input-constraint-tightened']
        : SCHEMA_RULES['input-constraint-loosened']
      : tightened
        ? SCHEMA_RULES['output-constraint-tightened']
        : SCHEMA_RULES['output-constraint-loosened'];
  site.ctx.emit(rule, site.at, detail, key === undefined ? site.anchor : { ...site.anchor, key });
}

function compareTypes(base: Normalised, head: Normalised, { name, at, anchor: node, ctx }: Site): void {
  const anchor = { ...node, key: 'type' };
  const same = typesCover(base.types, head.types) && typesCover(head.types, base.types);
  if (same) return;
  const detail = `type of ${name} changed from ${typeLabel(base)} to ${typeLabel(head)}`;
  if (ctx.direction === 'input') {
    ctx.emit(
      typesCover(head.types, base.types) ? SCHEMA_RULES['input-type-widened'] : SCHEMA_RULES['input-type-changed'],
      at,
      detail,
      anchor,
    );
  } else if (typesCover(base.types, head.types)) {
    ctx.emit(SCHEMA_RULES['output-type-narrowed'], at, detail, anchor);
  } else {
    ctx.emit(
      typesCover(head.types, base.types) ? SCHEMA_RULES['output-type-widened'] : SCHEMA_RULES['output-type-changed'],
      at,
      detail,
      anchor,
    );
  }
}

function compareNullability(base: Normalised, head: Normalised, { name, at, anchor: node, ctx }: Site): void {
  const anchor = { ...node, key: 'nullable' in (node.head as JsonObject) ? 'nullable' : 'type' };
  if (base.nullable === head.nullable) return;
  const detail = head.nullable ? `${name} may now be null` : `${name} may no longer be null`;
  if (ctx.direction === 'input')
    ctx.emit(
      head.nullable ? SCHEMA_RULES['input-nullability-added'] : SCHEMA_RULES['input-nullability-removed'],
      at,
      detail,
      anchor,
    );
  else
    ctx.emit(
      head.nullable ? SCHEMA_RULES['output-nullability-added'] : SCHEMA_RULES['output-nullability-removed'],
      at,
      detail,
      anchor,
    );
}

/** A pattern that admits every string: changing to it only loosens. */
function matchesEverything(pattern: unknown): boolean {
  return typeof pattern === 'string' && /^\^?(\.\*|\[\\s\\S\]\*)?\$?$/.test(pattern);
}

function compareBounds(base: JsonObject, head: JsonObject, site: Site): void {
  const { name, ctx } = site;
  const report = (tightened: boolean, key: string) =>
    constraint(tightened, `${key} of ${name} changed from ${show(base[key])} to ${show(head[key])}`, site, key);
  const bounds: Array<[readonly string[], (b: number, h: number) => boolean]> = [
    [UPPER_BOUNDS, (b, h) => h < b],
    [LOWER_BOUNDS, (b, h) => h > b],
  ];
  for (const [keys, tighter] of bounds) {
    for (const key of keys) {
      const b = base[key];
      const h = head[key];
      if (b === h) continue;
      if (typeof b !== 'number')
        report(true, key); // bound added
      else if (typeof h !== 'number')
        report(false, key); // bound removed
      else report(tighter(b, h), key);
    }
  }
  for (const key of ['pattern', 'format'] as const) {
    if (base[key] === head[key]) continue;
    if (base[key] === undefined || head[key] === undefined) {
      report(head[key] !== undefined, key);
      continue;
    }
    if (key === 'pattern' && matchesEverything(head[key])) {
      report(false, key);
      continue;
    }
    const relation = key === 'format' ? formatRelation(String(base.format), String(head.format)) : ('unknown' as const);
    if (relation === 'narrower' || relation === 'wider') {
      report(relation === 'narrower', key);
      continue;
    }
    if (relation === 'disjoint') {
      ctx.emit(
        SCHEMA_RULES[`${ctx.direction}-format-incompatible`],
        site.at,
        `format of ${name} changed from ${show(base.format)} to ${show(head.format)}: no value is both`,
        { ...site.anchor, key },
      );
      continue;
    }
    // Undecidable here: regular expressions, and formats whose value sets this diff does not know.
    const why =
      key === 'pattern'
        ? 'whether two regular expressions match the same strings is not decided here'
        : `the value sets of formats ${show(base.format)} and ${show(head.format)} are not known to this diff`;
    ctx.emit(
      ctx.direction === 'input' ? SCHEMA_RULES['input-pattern-changed'] : SCHEMA_RULES['output-pattern-changed'],
      site.at,
      `${key} of ${name} changed from ${show(base[key])} to ${show(head[key])} (${why})`,
      { ...site.anchor, key },
    );
  }
  const bm = base.multipleOf;
  const hm = head.multipleOf;
  if (bm !== hm) {
    // Multiples of b stay multiples of h when h divides b.
    const loosened = typeof bm === 'number' && (typeof hm !== 'number' || (bm / hm) % 1 === 0);
    report(!loosened, 'multipleOf');
  }
  if ((base.uniqueItems === true) !== (head.uniqueItems === true)) report(head.uniqueItems === true, 'uniqueItems');
  for (const key of OPAQUE_CONSTRAINTS) {
    if (sameShape(base[key], head[key])) continue;
    if (base[key] === undefined || head[key] === undefined) {
      report(head[key] !== undefined, key);
    } else {
      // Not provably equivalent: take the side that can break clients.
      constraint(ctx.direction === 'input', `${key} of ${name} changed (not provably equivalent)`, site, key);
    }
  }
}

/** Is every value of the schema a whole number (`type: integer`, or its only non-null type)? */
function wholeNumbers(n: Normalised): boolean {
  return n.types.size === 1 && n.types.has('integer');
}

/**
 * The numeric range compared as a range: `minimum: 1` and `exclusiveMinimum: 0` on an integer are the same lower
 * end, 3.0's boolean `exclusiveMinimum` is read with its `minimum`, and when both spellings are stated the tighter
 * one holds. Each end that changed is one report, in the direction's rule.
 */
function compareNumericRange(base: Normalised, head: Normalised, site: Site): void {
  for (const end of ['lower', 'upper'] as End[]) {
    const b = boundOf(base.schema, end, wholeNumbers(base));
    const h = boundOf(head.schema, end, wholeNumbers(head));
    if (sameBound(b, h)) continue;
    const tightened = b === undefined || (h !== undefined && tighter(h, b, end));
    const keys = end === 'lower' ? ['exclusiveMinimum', 'minimum'] : ['exclusiveMaximum', 'maximum'];
    const key = keys.find((k) => (h ? head.schema : base.schema)[k] !== undefined);
    constraint(
      tightened,
      `${end} bound of ${site.name} changed from ${showBound(b, end)} to ${showBound(h, end)}`,
      site,
      h ? key : undefined,
    );
  }
}

/**
 * `const: a` is `enum: [a]`: when one side fixes a value and the other lists values, the two sets are compared as
 * enumerations (equal sets: nothing changed). Otherwise each keyword by its own rules.
 */
function compareValueSets(base: Normalised, head: Normalised, site: Site): void {
  const fixed = (n: Normalised) => 'const' in n.schema;
  const asEnum = (n: Normalised): Normalised =>
    fixed(n) ? { ...n, enumValues: n.schema.const === null ? [] : [n.schema.const as Json] } : n;
  if ((fixed(base) && !fixed(head) && head.enumValues) || (fixed(head) && !fixed(base) && base.enumValues)) {
    compareEnum(asEnum(base), asEnum(head), site);
    return;
  }
  compareConst(base.schema, head.schema, site);
  compareEnum(base, head, site);
}

function compareConst(base: JsonObject, head: JsonObject, { name, at, anchor: node, ctx }: Site): void {
  const anchor = { ...node, key: 'const' };
  const had = 'const' in base;
  const has = 'const' in head;
  if (!had && !has) return;
  const dir = ctx.direction;
  if (!had) ctx.emit(SCHEMA_RULES[`${dir}-const-added`], at, `${name} is now fixed to ${show(head.const)}`, anchor);
  else if (!has)
    ctx.emit(SCHEMA_RULES[`${dir}-const-removed`], at, `${name} is no longer fixed to ${show(base.const)}`, anchor);
  else if (!sameShape(base.const, head.const))
    ctx.emit(
      SCHEMA_RULES[`${dir}-const-changed`],
      at,
      `fixed value of ${name} changed from ${show(base.const)} to ${show(head.const)}`,
      anchor,
    );
}

/** How the contract marks a response enumeration: stated closed set, assumed closed set, or open. */
function enumAddedRule(schema: JsonObject): DiffRule {
  return typeof schema['x-assumption'] === 'string'
    ? SCHEMA_RULES['response-enum-value-added-assumed']
    : SCHEMA_RULES['response-enum-value-added'];
}

function compareEnum(base: Normalised, head: Normalised, { name, at, anchor: node, ctx }: Site): void {
  const anchor = { ...node, key: 'enum' };
  const b = base.enumValues;
  const h = head.enumValues;
  const input = ctx.direction === 'input';
  if (!b && !h) {
    // An open enumeration (examples, no enum): a new value is informational on output.
    const be = asArray(base.schema.examples);
    const he = asArray(head.schema.examples);
    const key = (v: Json) => JSON.stringify(v);
    const listed = new Set(be.map(key));
    const added = he.filter((v) => typeof v === 'string' && !listed.has(key(v)));
    if (!input && be.length > 0 && added.length > 0 && head.types.has('string')) {
      ctx.emit(
        SCHEMA_RULES['response-open-enum-value-added'],
        at,
        `open enumeration ${name} lists new values ${show(added)}`,
        anchor,
      );
    }
    return;
  }
  if (!b || !h) {
    const detail = h ? `${name} is now limited to ${show(h)}` : `${name} is no longer limited to ${show(b)}`;
    if (input)
      ctx.emit(h ? SCHEMA_RULES['input-enum-narrowed'] : SCHEMA_RULES['input-enum-widened'], at, detail, anchor);
    else ctx.emit(h ? SCHEMA_RULES['output-constraint-tightened'] : enumAddedRule(base.schema), at, detail, anchor);
    return;
  }
  // Sets, not a scan per value: a pull request's pair of 10 000-value enums took 90 s.
  const key = (v: Json) => JSON.stringify(v);
  const inBase = new Set(b.map(key));
  const inHead = new Set(h.map(key));
  const removed = b.filter((v) => !inHead.has(key(v)));
  const added = h.filter((v) => !inBase.has(key(v)));
  if (removed.length > 0) {
    ctx.emit(
      input ? SCHEMA_RULES['input-enum-narrowed'] : SCHEMA_RULES['response-enum-value-removed'],
      at,
      `${name} lost values ${show(removed)}`,
      anchor,
    );
  }
  if (added.length > 0) {
    ctx.emit(
      input ? SCHEMA_RULES['input-enum-widened'] : enumAddedRule(base.schema),
      at,
      `${name} gained values ${show(added)}`,
      anchor,
    );
  }
}

function compareDefault(base: JsonObject, head: JsonObject, { name, at, anchor: node, ctx }: Site): void {
  const anchor = { ...node, key: 'default' };
  const had = 'default' in base;
  const has = 'default' in head;
  if ((!had && !has) || (had && has && sameShape(base.default, head.default))) return;
  const detail = !had
    ? `default of ${name} set to ${show(head.default)}`
    : !has
      ? `default ${show(base.default)} of ${name} removed`
      : `default of ${name} changed from ${show(base.default)} to ${show(head.default)}`;
  if (ctx.direction === 'output') ctx.emit(SCHEMA_RULES['output-default-changed'], at, detail, anchor);
  else
    ctx.emit(
      !had
        ? SCHEMA_RULES['input-default-added']
        : !has
          ? SCHEMA_RULES['input-default-removed']
          : SCHEMA_RULES['input-default-changed'],
      at,
      detail,
      anchor,
    );
}

function compareEncoding(base: JsonObject, head: JsonObject, field: string, site: Site): void {
  const { name, at, anchor, ctx } = site;
  for (const key of ['contentEncoding', 'contentMediaType'] as const) {
    if (base[key] === head[key]) continue;
    ctx.emit(
      SCHEMA_RULES[`${ctx.direction}-encoding-changed`],
      at,
      `${key} of ${name} changed from ${show(base[key])} to ${show(head[key])}`,
      anchor,
    );
  }
  const bc = base.contentSchema;
  const hc = head.contentSchema;
  if (isObject(bc) && isObject(hc)) compareSchema(bc, hc, `${field}(decoded content)`, ctx);
  else if (isObject(bc) !== isObject(hc))
    constraint(isObject(hc), `contentSchema of ${name} ${isObject(hc) ? 'added' : 'removed'}`, site);
}

/** The oneOf/anyOf/allOf parts of a schema and their own parts: where a branch fixes a discriminator value. */
function branchesOf(raw: unknown, depth = 0): JsonObject[] {
  if (!isObject(raw) || depth > 8) return [];
  const out: JsonObject[] = [raw];
  for (const key of ['oneOf', 'anyOf', 'allOf'])
    for (const part of asArray(raw[key])) out.push(...branchesOf(part, depth + 1));
  return out;
}

/** Does the schema fix its property to the value (`const`, or a one-value `enum`)? */
function fixesValue(schema: JsonObject, property: string, value: string): boolean {
  const p = asObjectProp(schema, property);
  return p.const === value || (Array.isArray(p.enum) && p.enum.includes(value));
}

function compareDiscriminator(
  base: JsonObject,
  head: JsonObject,
  { name, at, anchor: node, ctx }: Site,
  raws: unknown[],
): void {
  const anchor = { ...node, key: 'discriminator' };
  if (sameShape(base.discriminator, head.discriminator)) return;
  const b = isObject(base.discriminator) ? base.discriminator : {};
  const h = isObject(head.discriminator) ? head.discriminator : {};
  const parts: string[] = [];
  if (base.discriminator === undefined) parts.push(`discriminator ${show(h.propertyName)} added`);
  else if (head.discriminator === undefined) parts.push(`discriminator ${show(b.propertyName)} removed`);
  else {
    if (b.propertyName !== h.propertyName)
      parts.push(`propertyName changed from ${show(b.propertyName)} to ${show(h.propertyName)}`);
    const bm = isObject(b.mapping) ? b.mapping : {};
    const hm = isObject(h.mapping) ? h.mapping : {};
    const added = Object.keys(hm).filter((k) => !(k in bm));
    const removed = Object.keys(bm).filter((k) => !(k in hm));
    const changed = Object.keys(bm).filter((k) => k in hm && !sameShape(bm[k], hm[k]));
    if (added.length) parts.push(`mapping added for ${added.join(', ')}`);
    // A value the mapping alone put on the wire (no branch fixes it with const or enum, and it is not the
    // schema name an implicit mapping would use) is gone from the wire.
    const statedElsewhere = (value: string) =>
      raws.some((raw) => branchesOf(raw).some((branch) => fixesValue(branch, String(b.propertyName), value))) ||
      String(bm[value]).split('/').at(-1) === value;
    const unstated = removed.filter((v) => !statedElsewhere(v));
    for (const value of unstated)
      ctx.emit(
        SCHEMA_RULES['discriminator-mapping-value-removed'],
        at,
        `${name}: discriminator value ${show(value)} of ${show(b.propertyName)} is no longer mapped, and nothing else states it`,
        anchor,
      );
    if (unstated.length === removed.length && changed.length === 0 && added.length === 0 && parts.length === 0) return;
    if (removed.length) parts.push(`mapping removed for ${removed.join(', ')}`);
    if (changed.length) parts.push(`mapping changed for ${changed.join(', ')}`);
  }
  ctx.emit(
    SCHEMA_RULES['discriminator-changed'],
    at,
    `${name}: ${parts.join('; ') || 'discriminator changed'}`,
    anchor,
  );
}

function compareUnknownKeywords(base: JsonObject, head: JsonObject, { name, at, anchor, ctx }: Site): void {
  const keys = new Set([...Object.keys(base), ...Object.keys(head)]);
  for (const key of keys) {
    if (MODELLED.has(key) || DOC_KEYS.has(key) || key.startsWith('x-') || sameShape(base[key], head[key])) continue;
    ctx.emit(
      SCHEMA_RULES['schema-keyword-changed'],
      at,
      `keyword \`${key}\` of ${name} changed from ${show(base[key])} to ${show(head[key])}`,
      { ...anchor, key },
    );
  }
}

/** How well a head branch stands for a base branch: identical shape first, then shared type and property names. */
function branchScore(b: JsonObject, h: JsonObject): number {
  if (sameShape(b, h)) return 1000;
  const nb = normaliseSchema(b);
  const nh = normaliseSchema(h);
  let score = typesCover(nb.types, nh.types) && typesCover(nh.types, nb.types) ? 10 : 0;
  if (typeof b.title === 'string' && b.title === h.title) score += 50;
  const bp = Object.keys(isObject(nb.schema.properties) ? nb.schema.properties : {});
  const hp = new Set(Object.keys(isObject(nh.schema.properties) ? nh.schema.properties : {}));
  score += bp.filter((p) => hp.has(p)).length * 5;
  // A branch fixed by a const discriminator value matches only the same value.
  for (const p of bp) {
    const bc = asObjectProp(nb.schema, p).const;
    const hc = asObjectProp(nh.schema, p).const;
    if (bc !== undefined && hc !== undefined) score += bc === hc ? 100 : -100;
  }
  return score;
}

function asObjectProp(schema: JsonObject, name: string): JsonObject {
  const props = isObject(schema.properties) ? schema.properties : {};
  return isObject(props[name]) ? props[name] : {};
}

/** Greedy best pairs of base and head branches (each used once); unmatched ones are returned apart. */
function matchBranches(
  b: JsonObject[],
  h: JsonObject[],
): { pairs: Array<[number, number]>; removed: number[]; added: number[] } {
  const candidates: Array<[number, number, number]> = [];
  b.forEach((bs, i) => h.forEach((hs, j) => candidates.push([branchScore(bs, hs), i, j])));
  candidates.sort((x, y) => y[0] - x[0] || x[1] - y[1] || x[2] - y[2]);
  const usedB = new Set<number>();
  const usedH = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const [score, i, j] of candidates) {
    if (score <= 0 || usedB.has(i) || usedH.has(j)) continue;
    pairs.push([i, j]);
    usedB.add(i);
    usedH.add(j);
  }
  // Leftovers at the same position pair up when the counts match (a branch edited beyond recognition).
  if (b.length === h.length) {
    b.forEach((_, i) => {
      if (!usedB.has(i) && !usedH.has(i)) {
        pairs.push([i, i]);
        usedB.add(i);
        usedH.add(i);
      }
    });
  }
  return {
    pairs: pairs.sort((x, y) => x[0] - y[0]),
    removed: b.map((_, i) => i).filter((i) => !usedB.has(i)),
    added: h.map((_, j) => j).filter((j) => !usedH.has(j)),
  };
}

function branchLabel(field: string, i: number): string {
  return field === '' ? `(alternative ${i + 1})` : `${field}(alternative ${i + 1})`;
}

/**
 * oneOf/anyOf: branches matched by shape, added and removed ones reported, matched ones compared. A single shape
 * wrapped into alternatives (or unwrapped from them) is compared with its matching branch; returns true then,
 * because the rest of the comparison has already happened against that branch.
 */
function compareAlternatives(base: Normalised, head: Normalised, field: string, site: Site): boolean {
  const { name, at, anchor, ctx } = site;
  const b = base.alternatives;
  const h = head.alternatives;
  if (!b && !h) return false;
  const dir = ctx.direction;
  if (b && h) return compareBranches(base, head, b, h, field, site);
  if (!b && h) {
    const { pairs } = matchBranches([base.schema], h);
    const matched = pairs.length > 0 ? pairs[0][1] : -1;
    if (head.combinator === 'oneOf' && ctx.body) {
      ctx.emit(
        SCHEMA_RULES[dir === 'input' ? 'request-body-wrapped-in-one-of' : 'response-body-wrapped-in-one-of'],
        at,
        `${name} wrapped in a oneOf of ${h.length} shapes`,
        anchor,
      );
    } else {
      ctx.emit(
        SCHEMA_RULES[`${dir}-alternative-added`],
        at,
        `${name} changed from one shape to ${head.combinator} of ${h.length}`,
        anchor,
      );
    }
    if (matched >= 0) compareSchema(base.schema, h[matched], branchLabel(field, matched), ctx);
    return true;
  }
  if (b && !h) {
    const { pairs } = matchBranches(b, [head.schema]);
    const matched = pairs.length > 0 ? pairs[0][0] : -1;
    ctx.emit(
      SCHEMA_RULES[`${dir}-alternative-removed`],
      at,
      `${name} changed from ${base.combinator} of ${b.length} shapes to one`,
      anchor,
    );
    if (matched >= 0) compareSchema(b[matched], head.schema, field, ctx);
    return true;
  }
  return false;
}

/** Alternatives on both sides: the combinator, then branch by branch. */
function compareBranches(
  base: Normalised,
  head: Normalised,
  bb: JsonObject[],
  hh: JsonObject[],
  field: string,
  site: Site,
): boolean {
  const { name, at, anchor, ctx } = site;
  const dir = ctx.direction;
  const branchDetail = (schema: JsonObject, verb: string) =>
    `${name}: alternative ${show(schema.title ?? canonicalBrief(schema))} ${verb}`;
  if (base.combinator !== head.combinator) {
    // anyOf admits what oneOf admits (and values matching several branches).
    constraint(head.combinator === 'oneOf', `${name} changed from ${base.combinator} to ${head.combinator}`, site);
  }
  const { pairs, removed, added } = matchBranches(bb, hh);
  for (const i of removed)
    ctx.emit(SCHEMA_RULES[`${dir}-alternative-removed`], at, branchDetail(bb[i], 'removed'), anchor);
  for (const j of added) ctx.emit(SCHEMA_RULES[`${dir}-alternative-added`], at, branchDetail(hh[j], 'added'), anchor);
  for (const [i, j] of pairs) compareSchema(bb[i], hh[j], branchLabel(field, j), ctx);
  return false;
}

function canonicalBrief(schema: JsonObject): string {
  const text = canonical(schema);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function visibleProperties(schema: JsonObject, direction: Direction): Map<string, JsonObject> {
  // readOnly properties are never sent by clients; writeOnly ones never returned (JSON JsonObject validation §9.4).
  const hidden = direction === 'input' ? 'readOnly' : 'writeOnly';
  const out = new Map<string, JsonObject>();
  for (const [key, value] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    if (isObject(value) && value[hidden] !== true) out.set(key, value);
  }
  return out;
}

/**
 * The object written in the document that holds a member: the raw schema itself, else one of its allOf parts or
 * oneOf/anyOf branches (a merged view has no place in the file; the part that says it has).
 */
function holderOf(raw: unknown, test: (node: JsonObject) => boolean, depth = 0): JsonObject | undefined {
  if (!isObject(raw) || depth > 16) return undefined;
  if (test(raw)) return raw;
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const part of asArray(raw[key])) {
      const found = holderOf(part, test, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** Anchor at a property's name in the `properties` that lists it (its own line, not its `$ref` target's). */
function propertyAnchor(raw: unknown, name: string): { node?: JsonObject; key: string } {
  const holder = holderOf(raw, (n) => isObject(n.properties) && name in n.properties);
  return { node: holder?.properties as JsonObject | undefined, key: name };
}

/** Anchor at the entry of `required` that names a property. */
function requiredAnchor(raw: unknown, name: string): { node?: JsonObject; path: string[] } {
  const holder = holderOf(raw, (n) => asArray(n.required).includes(name));
  return holder
    ? { node: holder, path: ['required', String(asArray(holder.required).indexOf(name))] }
    : { node: undefined, path: [] };
}

function compareProperties(
  base: JsonObject,
  head: JsonObject,
  field: string,
  ctx: SchemaContext,
  raw: { base: unknown; head: unknown },
): void {
  const input = ctx.direction === 'input';
  const bProps = visibleProperties(base, ctx.direction);
  const hProps = visibleProperties(head, ctx.direction);
  const bAll = isObject(base.properties) ? base.properties : {};
  const hAll = isObject(head.properties) ? head.properties : {};
  if (bProps.size === 0 && hProps.size === 0) return;
  const bReq = new Set(asArray(base.required).map(String));
  const hReq = new Set(asArray(head.required).map(String));
  const at = (name: string) => fieldOf(ctx.where, child(field, name));
  // A property still defined but now hidden in this direction (readOnly on input, writeOnly on output).
  const hidden = (k: string) => isObject(hAll[k]) && !hProps.has(k);
  const unhidden = (k: string) => isObject(bAll[k]) && !bProps.has(k);
  const removed = [...bProps.keys()].filter((k) => !hProps.has(k) && !hidden(k));
  const added = [...hProps.keys()].filter((k) => !bProps.has(k) && !unhidden(k));

  // A removed field and an added one of the same shape read as a rename when there is evidence (rename.ts).
  const renamedTo = new Map<string, string>();
  const taken = new Set<string>();
  for (const r of removed) {
    const match = added.find(
      (a) =>
        !taken.has(a) &&
        (similarNames(r, a) || sameTarget(ctx.targetOf, bProps.get(r), hProps.get(a))) &&
        sameShape(bProps.get(r), hProps.get(a)),
    );
    if (match) {
      renamedTo.set(r, match);
      taken.add(match);
    }
  }

  for (const k of [...bProps.keys()].filter(hidden)) {
    const named = propertyAnchor(raw.head, k);
    const anchor = { head: named.node ?? hAll[k], base: bProps.get(k), key: named.node ? k : undefined };
    if (input)
      ctx.emit(
        SCHEMA_RULES['request-field-became-read-only'],
        at(k),
        `request field \`${child(field, k)}\` became readOnly`,
        anchor,
      );
    else
      ctx.emit(
        SCHEMA_RULES['response-field-became-write-only'],
        at(k),
        `response field \`${child(field, k)}\` became writeOnly`,
        anchor,
      );
  }
  for (const r of removed) {
    const to = renamedTo.get(r);
    // The `properties` of the head schema it is gone from (the base side's name when the head has no place).
    const was = propertyAnchor(raw.base, r);
    const anchor = {
      head: holderOf(raw.head, (n) => isObject(n.properties)) ?? head,
      base: holderOf(raw.base, (n) => isObject(n.properties) && r in n.properties) ?? bProps.get(r),
      path: ['properties', r],
    };
    if (isRetired(bProps.get(r), ctx.now)) {
      ctx.emit(
        SCHEMA_RULES['property-removed-after-sunset'],
        at(r),
        `field \`${child(field, r)}\` removed after its Sunset`,
        anchor,
      );
    } else if (input) {
      if (to)
        ctx.emit(
          SCHEMA_RULES['request-field-renamed'],
          at(r),
          `request field \`${child(field, r)}\` renamed to \`${child(field, to)}\``,
          { head: propertyAnchor(raw.head, to).node ?? hProps.get(to), base: was.node ?? bProps.get(r), key: to },
        );
      else
        ctx.emit(SCHEMA_RULES['request-field-removed'], at(r), `request field \`${child(field, r)}\` removed`, anchor);
    } else {
      const hint = to ? ` (a field \`${to}\` of the same shape was added: a rename)` : '';
      ctx.emit(
        SCHEMA_RULES['response-field-removed'],
        at(r),
        `response field \`${child(field, r)}\` removed${hint}`,
        anchor,
      );
    }
  }
  for (const a of [...hProps.keys()].filter(unhidden).concat(added)) {
    if (input && taken.has(a)) continue;
    const required = hReq.has(a);
    const named = propertyAnchor(raw.head, a);
    const anchor = { head: named.node ?? hProps.get(a), base, key: named.node ? a : undefined };
    if (input) {
      ctx.emit(
        required ? SCHEMA_RULES['request-field-added-required'] : SCHEMA_RULES['request-field-added-optional'],
        at(a),
        `${required ? 'required' : 'optional'} request field \`${child(field, a)}\` added`,
        anchor,
      );
    } else {
      ctx.emit(SCHEMA_RULES['response-field-added'], at(a), `response field \`${child(field, a)}\` added`, anchor);
    }
  }
  for (const [key, bSchema] of bProps) {
    const hSchema = hProps.get(key);
    if (!hSchema) continue;
    const was = bReq.has(key);
    const now = hReq.has(key);
    const path = child(field, key);
    if (was !== now) {
      // Now required: the `required` entry that says so; now optional: the property, no longer listed there.
      const entry = requiredAnchor(now ? raw.head : raw.base, key);
      const named = propertyAnchor(raw.head, key);
      const anchor = now
        ? { head: entry.node ?? hSchema, base: bSchema, path: entry.path }
        : { head: named.node ?? hSchema, base: entry.node ?? bSchema, key: named.node ? key : undefined };
      if (input)
        ctx.emit(
          now ? SCHEMA_RULES['request-field-made-required'] : SCHEMA_RULES['request-field-made-optional'],
          at(key),
          `request field \`${path}\` is now ${now ? 'required' : 'optional'}`,
          anchor,
        );
      else
        ctx.emit(
          now ? SCHEMA_RULES['response-field-made-required'] : SCHEMA_RULES['response-field-made-optional'],
          at(key),
          `response field \`${path}\` is now ${now ? 'always present' : 'optional'}`,
          anchor,
        );
    }
    compareLifecycle('property', `field \`${path}\``, bSchema, hSchema, ctx.now, ctx.emit, at(key));
    compareSchema(bSchema, hSchema, path, ctx);
  }
}

function compareAdditionalProperties(base: JsonObject, head: JsonObject, field: string, site: Site): void {
  const { name, at, anchor, ctx } = site;
  const b = base.additionalProperties;
  const h = head.additionalProperties;
  if (isObject(b) && isObject(h)) {
    compareSchema(b, h, `${field}{*}`, ctx);
    return;
  }
  const closedBefore = b === false;
  const closedNow = h === false;
  if (closedBefore === closedNow) {
    if (isObject(b) !== isObject(h) && !closedBefore) {
      // `additionalProperties: {schema}` against absent/true: a schema constrains unlisted fields.
      constraint(
        isObject(h),
        `unlisted fields of ${name} ${isObject(h) ? 'now constrained by a schema' : 'no longer constrained'}`,
        site,
      );
    }
    return;
  }
  if (ctx.direction === 'input') {
    ctx.emit(
      closedNow ? SCHEMA_RULES['input-constraint-tightened'] : SCHEMA_RULES['input-constraint-loosened'],
      at,
      closedNow
        ? `${name} now rejects unknown fields (additionalProperties: false)`
        : `${name} now accepts unknown fields`,
      anchor,
    );
  } else if (closedBefore) {
    ctx.emit(SCHEMA_RULES['response-object-opened'], at, `${name} may now carry fields not listed`, anchor);
  } else {
    ctx.emit(
      SCHEMA_RULES['output-constraint-tightened'],
      at,
      `${name} no longer carries unlisted fields (additionalProperties: false)`,
      anchor,
    );
  }
}
