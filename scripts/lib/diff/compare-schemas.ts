// Recursive schema comparison with a direction: on input (request bodies, parameters) the server must keep
// accepting what it accepted; on output (responses) clients must keep understanding what they receive.
// @see https://spec.openapis.org/oas/v3.1.0#schema-object

import { type Emit, show } from './change';
import { asArray, isObject, type Json, type JsonObject, type Schema } from '../spec/openapi';

export type Direction = 'input' | 'output';

type Normalised = {
  schema: Schema;
  types: Set<string>; // empty: any type
  nullable: boolean;
  enumValues?: Json[];
  alternatives?: Schema[]; // oneOf/anyOf without the null branch
};

const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxProperties'] as const;
const LOWER_BOUNDS = ['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minProperties'] as const;
const EXACT_CONSTRAINTS = ['pattern', 'format', 'multipleOf'] as const;
const DOC_KEYS = new Set(['description', 'title', 'example', 'examples', 'externalDocs', '$comment', 'deprecated']);

function isNullSchema(s: unknown): boolean {
  return isObject(s) && (s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null));
}

/** allOf merged into one object view; the shapes a contract spec uses, not a general JSON Schema intersection. */
function mergeAllOf(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: JsonObject = { ...schema };
  delete merged.allOf;
  const properties: JsonObject = { ...(isObject(schema.properties) ? schema.properties : {}) };
  const required = new Set(asArray(schema.required).map(String));
  for (const part of schema.allOf) {
    if (!isObject(part)) continue;
    const flat = mergeAllOf(part);
    for (const [k, v] of Object.entries(flat)) {
      if (k === 'properties' && isObject(v)) Object.assign(properties, v);
      else if (k === 'required') asArray(v).forEach((r) => required.add(String(r)));
      else if (!(k in merged)) merged[k] = v;
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

export function normaliseSchema(raw: unknown): Normalised {
  let schema = mergeAllOf(isObject(raw) ? raw : {});
  let nullable = schema.nullable === true; // OpenAPI 3.0 spelling, still met in the wild
  let alternatives: Schema[] | undefined;
  const combinator = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  if (combinator) {
    const branches = asArray(schema[combinator]).filter(isObject) as Schema[];
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
  const typeList = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const types = new Set(typeList.filter((t) => t !== 'null'));
  if (typeList.includes('null')) nullable = true;
  if (types.size === 0 && isObject(schema.properties)) types.add('object');
  if (types.size === 0 && schema.items !== undefined) types.add('array');
  let enumValues: Json[] | undefined;
  if (Array.isArray(schema.enum)) enumValues = schema.enum;
  else if (schema.const !== undefined) enumValues = [schema.const];
  if (enumValues?.includes(null)) {
    nullable = true;
    enumValues = enumValues.filter((v) => v !== null);
  }
  return { schema, types, nullable, enumValues, alternatives };
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

/** Structural equality ignoring documentation keywords, for rename detection. */
export function sameShape(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown, seen = new Set<unknown>()): string {
  if (!isObject(value) && !Array.isArray(value)) return JSON.stringify(value) ?? 'undefined';
  if (seen.has(value)) return '"<cycle>"';
  seen.add(value);
  const text = Array.isArray(value)
    ? `[${value.map((v) => canonical(v, seen)).join(',')}]`
    : `{${Object.keys(value)
        .filter((k) => !DOC_KEYS.has(k))
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical(value[k], seen)}`)
        .join(',')}}`;
  seen.delete(value);
  return text;
}

export type SchemaContext = {
  direction: Direction;
  emit: Emit;
  where: string;
  /** How the top-level schema is named in details (`\`limit\``, `the body`). */
  subject?: string;
  /** Plain name put before a field path that starts at the root (`reasons` + `[]`). */
  prefix?: string;
  visited?: WeakMap<object, WeakSet<object>>;
};

function fieldLabel(field: string): string {
  return field === '' ? '' : ` › ${field}`;
}

function child(field: string, name: string): string {
  return field === '' ? name : `${field}.${name}`;
}

export function compareSchema(baseRaw: unknown, headRaw: unknown, field: string, ctx: SchemaContext): void {
  if (!isObject(baseRaw) || !isObject(headRaw)) return;
  // Dereferenced specs may be circular: compare each (base, head) pair once.
  const visited = (ctx.visited ??= new WeakMap());
  const seenHeads = visited.get(baseRaw) ?? new WeakSet<object>();
  if (seenHeads.has(headRaw)) return;
  seenHeads.add(headRaw);
  visited.set(baseRaw, seenHeads);

  const base = normaliseSchema(baseRaw);
  const head = normaliseSchema(headRaw);
  const at = `${ctx.where}${fieldLabel(field)}`;
  const shown = /^[[{(]/.test(field) ? `${ctx.prefix ?? ''}${field}` : field;
  const name = field === '' ? ctx.subject ?? 'the schema' : `\`${shown}\``;
  const input = ctx.direction === 'input';

  compareTypes(base, head, name, at, ctx);
  compareNullability(base, head, name, at, ctx);
  compareBounds(base.schema, head.schema, name, at, ctx);
  compareEnum(base, head, name, at, ctx);
  compareAlternatives(base, head, field, name, at, ctx);

  if (isObject(base.schema.items) && isObject(head.schema.items)) {
    compareSchema(base.schema.items, head.schema.items, `${field}[]`, ctx);
  }
  compareProperties(base.schema, head.schema, field, ctx);
  compareAdditionalProperties(base.schema, head.schema, field, name, at, ctx, input);
}

function compareTypes(base: Normalised, head: Normalised, name: string, at: string, ctx: SchemaContext): void {
  const same = typesCover(base.types, head.types) && typesCover(head.types, base.types);
  if (same) return;
  const detail = `type of ${name} changed from ${typeLabel(base)} to ${typeLabel(head)}`;
  if (ctx.direction === 'input') {
    ctx.emit(typesCover(head.types, base.types) ? 'input-type-widened' : 'input-type-changed', at, detail);
  } else {
    ctx.emit(typesCover(base.types, head.types) ? 'output-type-narrowed' : 'output-type-widened', at, detail);
  }
}

function compareNullability(base: Normalised, head: Normalised, name: string, at: string, ctx: SchemaContext): void {
  if (base.nullable === head.nullable) return;
  const detail = head.nullable ? `${name} may now be null` : `${name} may no longer be null`;
  if (ctx.direction === 'input') ctx.emit(head.nullable ? 'input-nullability-added' : 'input-nullability-removed', at, detail);
  else ctx.emit(head.nullable ? 'output-nullability-added' : 'output-nullability-removed', at, detail);
}

function compareBounds(base: Schema, head: Schema, name: string, at: string, ctx: SchemaContext): void {
  const report = (tightened: boolean, key: string) => {
    const detail = `${key} of ${name} changed from ${show(base[key])} to ${show(head[key])}`;
    if (ctx.direction === 'input') ctx.emit(tightened ? 'input-constraint-tightened' : 'input-constraint-loosened', at, detail);
    else ctx.emit(tightened ? 'output-constraint-tightened' : 'output-constraint-loosened', at, detail);
  };
  const bounds: Array<[readonly string[], (b: number, h: number) => boolean]> = [
    [UPPER_BOUNDS, (b, h) => h < b],
    [LOWER_BOUNDS, (b, h) => h > b],
  ];
  for (const [keys, tighter] of bounds) {
    for (const key of keys) {
      const b = base[key];
      const h = head[key];
      if (b === h) continue;
      if (typeof b !== 'number') report(true, key); // bound added
      else if (typeof h !== 'number') report(false, key); // bound removed
      else report(tighter(b, h), key);
    }
  }
  for (const key of EXACT_CONSTRAINTS) {
    if (base[key] === head[key]) continue;
    if (base[key] === undefined || head[key] === undefined) {
      report(head[key] !== undefined, key);
      continue;
    }
    // A changed pattern or format cannot be proven to admit the same values: take the side that can break clients.
    const detail = `${key} of ${name} changed from ${show(base[key])} to ${show(head[key])} (not provably equivalent)`;
    ctx.emit(ctx.direction === 'input' ? 'input-constraint-tightened' : 'output-constraint-loosened', at, detail);
  }
  if ((base.uniqueItems === true) !== (head.uniqueItems === true)) report(head.uniqueItems === true, 'uniqueItems');
}

function compareEnum(base: Normalised, head: Normalised, name: string, at: string, ctx: SchemaContext): void {
  const b = base.enumValues;
  const h = head.enumValues;
  if (!b && !h) return;
  const input = ctx.direction === 'input';
  if (!b || !h) {
    const detail = h ? `${name} is now limited to ${show(h)}` : `${name} is no longer limited to ${show(b)}`;
    if (input) ctx.emit(h ? 'input-enum-narrowed' : 'input-enum-widened', at, detail);
    else ctx.emit(h ? 'output-constraint-tightened' : 'response-enum-value-added', at, detail);
    return;
  }
  const key = (v: Json) => JSON.stringify(v);
  const removed = b.filter((v) => !h.some((w) => key(w) === key(v)));
  const added = h.filter((v) => !b.some((w) => key(w) === key(v)));
  if (removed.length > 0) {
    ctx.emit(input ? 'input-enum-narrowed' : 'response-enum-value-removed', at, `${name} lost values ${show(removed)}`);
  }
  if (added.length > 0) {
    ctx.emit(input ? 'input-enum-widened' : 'response-enum-value-added', at, `${name} gained values ${show(added)}`);
  }
}

function compareAlternatives(base: Normalised, head: Normalised, field: string, name: string, at: string, ctx: SchemaContext): void {
  const b = base.alternatives;
  const h = head.alternatives;
  if (!b && !h) return;
  if (b && h && b.length === h.length) {
    b.forEach((branch, i) => compareSchema(branch, h[i], field === '' ? `(alternative ${i + 1})` : `${field}(alternative ${i + 1})`, ctx));
    return;
  }
  const bn = b?.length ?? 1;
  const hn = h?.length ?? 1;
  const detail = `${name} changed from ${bn} to ${hn} alternative shape(s)`;
  if (ctx.direction === 'input') ctx.emit(hn > bn ? 'input-type-widened' : 'input-type-changed', at, detail);
  else ctx.emit(hn > bn ? 'output-type-widened' : 'output-type-narrowed', at, detail);
}

function visibleProperties(schema: Schema, direction: Direction): Map<string, JsonObject> {
  // readOnly properties are never sent by clients; writeOnly ones never returned (JSON Schema validation §9.4).
  const hidden = direction === 'input' ? 'readOnly' : 'writeOnly';
  const out = new Map<string, JsonObject>();
  for (const [key, value] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    if (isObject(value) && value[hidden] !== true) out.set(key, value);
  }
  return out;
}

function compareProperties(base: Schema, head: Schema, field: string, ctx: SchemaContext): void {
  const input = ctx.direction === 'input';
  const bProps = visibleProperties(base, ctx.direction);
  const hProps = visibleProperties(head, ctx.direction);
  if (bProps.size === 0 && hProps.size === 0) return;
  const bReq = new Set(asArray(base.required).map(String));
  const hReq = new Set(asArray(head.required).map(String));
  const removed = [...bProps.keys()].filter((k) => !hProps.has(k));
  const added = [...hProps.keys()].filter((k) => !bProps.has(k));
  const at = (name: string) => `${ctx.where} › ${child(field, name)}`;

  // A removed field and an added one of the same shape read as a rename.
  const renamedTo = new Map<string, string>();
  for (const r of removed) {
    const match = added.find((a) => ![...renamedTo.values()].includes(a) && sameShape(bProps.get(r), hProps.get(a)));
    if (match) renamedTo.set(r, match);
  }

  for (const r of removed) {
    const to = renamedTo.get(r);
    if (input) {
      if (to) ctx.emit('request-field-renamed', at(r), `request field \`${child(field, r)}\` renamed to \`${child(field, to)}\``);
      else ctx.emit('request-field-removed', at(r), `request field \`${child(field, r)}\` removed`);
    } else {
      const hint = to ? ` (a field \`${to}\` of the same shape was added: a rename)` : '';
      ctx.emit('response-field-removed', at(r), `response field \`${child(field, r)}\` removed${hint}`);
    }
  }
  for (const a of added) {
    if (input && [...renamedTo.values()].includes(a)) continue;
    const required = hReq.has(a);
    if (input) {
      ctx.emit(required ? 'request-field-added-required' : 'request-field-added-optional', at(a),
        `${required ? 'required' : 'optional'} request field \`${child(field, a)}\` added`);
    } else {
      ctx.emit('response-field-added', at(a), `response field \`${child(field, a)}\` added`);
    }
  }
  for (const [key, bSchema] of bProps) {
    const hSchema = hProps.get(key);
    if (!hSchema) continue;
    const was = bReq.has(key);
    const now = hReq.has(key);
    const path = child(field, key);
    if (was !== now) {
      if (input) ctx.emit(now ? 'request-field-made-required' : 'request-field-made-optional', at(key), `request field \`${path}\` is now ${now ? 'required' : 'optional'}`);
      else ctx.emit(now ? 'response-field-made-required' : 'response-field-made-optional', at(key), `response field \`${path}\` is now ${now ? 'always present' : 'optional'}`);
    }
    compareSchema(bSchema, hSchema, path, ctx);
  }
}

function compareAdditionalProperties(base: Schema, head: Schema, field: string, name: string, at: string, ctx: SchemaContext, input: boolean): void {
  const b = base.additionalProperties;
  const h = head.additionalProperties;
  if (isObject(b) && isObject(h)) {
    compareSchema(b, h, `${field}{*}`, ctx);
    return;
  }
  const closedBefore = b === false;
  const closedNow = h === false;
  if (closedBefore === closedNow) return;
  if (input) {
    ctx.emit(closedNow ? 'input-constraint-tightened' : 'input-constraint-loosened', at,
      closedNow ? `${name} now rejects unknown fields (additionalProperties: false)` : `${name} now accepts unknown fields`);
  } else if (closedBefore) {
    ctx.emit('response-object-opened', at, `${name} may now carry fields not listed`);
  } else {
    ctx.emit('output-constraint-tightened', at, `${name} no longer carries unlisted fields (additionalProperties: false)`);
  }
}
