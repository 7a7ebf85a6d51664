/**
 * Schema plumbing shared by the generators and the validator: the subset of JSON Schema 2020-12 the contract uses.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation
 */

export type JsonSchema = Record<string, unknown> | boolean;
export type SchemaObject = Record<string, unknown>;
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** Options every entry point accepts. `$ref`s must be dereferenced beforehand unless `resolve` is given. */
export type SchemaOptions = {
  /** Resolves a `$ref` (e.g. '#/components/schemas/Uuid') that is still present in the schema. */
  resolve?: (ref: string) => JsonSchema;
};

export const ALL_TYPES: JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** The schema that no value satisfies, in object form. */
export const NEVER: SchemaObject = Object.freeze({ not: {} }) as SchemaObject;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function jsonTypeOf(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'number':
      if (!Number.isFinite(value)) return undefined;
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}

/** JSON Schema counts string length in Unicode code points, not UTF-16 units (one definition, in spec/lib). */
export { codePointLength } from '../../spec/lib/json';

/** Key-order independent JSON text, used for equality (enum, const, uniqueItems). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * A resolver for local references ('#/components/schemas/Run', '#/$defs/node') into one document, for schemas
 * left with `$ref`s (e.g. recursive ones that a dereferencer kept as references).
 * @see https://datatracker.ietf.org/doc/html/rfc6901
 */
export function refResolver(document: object): (ref: string) => JsonSchema {
  return (ref) => {
    if (!ref.startsWith('#')) throw new Error(`Only local references are supported: ${ref}`);
    const pointer = ref.slice(1);
    let at: unknown = document;
    for (const raw of pointer.split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(at) && !Array.isArray(at)) throw new Error(`Unresolvable reference: ${ref}`);
      at = (at as Record<string, unknown>)[key];
    }
    if (at === undefined) throw new Error(`Unresolvable reference: ${ref}`);
    return at as JsonSchema;
  };
}

function resolveRef(schema: SchemaObject, options: SchemaOptions): JsonSchema {
  const ref = schema.$ref as string;
  if (!options.resolve) {
    throw new Error(
      `Schema still contains "$ref": "${ref}". Dereference the document first (loadContract().dereferenced in spec/lib) or pass options.resolve.`,
    );
  }
  const { $ref: _omit, ...siblings } = schema;
  const target = options.resolve(ref);
  return Object.keys(siblings).length === 0 ? target : { allOf: [target, siblings] };
}

const normalizedCache = new WeakMap<object, SchemaObject>();

/**
 * One level of normalisation: booleans become objects, `$ref` is resolved, OpenAPI 3.0 `nullable` becomes a null
 * type and `allOf` is merged into the parent. Subschemas are left alone, so cyclic (dereferenced) schemas are safe.
 */
export function normalize(schema: JsonSchema | undefined, options: SchemaOptions = {}): SchemaObject {
  if (schema === undefined || schema === true) return {};
  if (schema === false) return NEVER;
  if (!isObject(schema)) throw new Error(`Not a JSON Schema: ${JSON.stringify(schema)}`);
  const cached = normalizedCache.get(schema);
  if (cached && !options.resolve) return cached;
  let result: SchemaObject = schema;
  if (typeof result.$ref === 'string') result = normalize(resolveRef(result, options), options);
  if (result.nullable === true && result.type !== undefined) {
    const { nullable: _n, ...rest } = result;
    result = { ...rest, type: [...typeList(result.type), 'null'] };
  }
  if (Array.isArray(result.allOf)) {
    const { allOf, ...rest } = result;
    result = (allOf as JsonSchema[]).reduce<SchemaObject>(
      (acc, part) => mergeSchemas(acc, normalize(part, options)),
      rest,
    );
  }
  if (!options.resolve) normalizedCache.set(schema, result);
  return result;
}

function typeList(type: unknown): JsonType[] {
  if (type === undefined) return [];
  return (Array.isArray(type) ? type : [type]) as JsonType[];
}

/** The `type` keyword as a list; undefined when the schema does not restrict the type. */
export function declaredTypes(schema: SchemaObject): JsonType[] | undefined {
  return schema.type === undefined ? undefined : typeList(schema.type);
}

/** Types a value generated for this schema may take: declared, or inferred from const/enum/keywords. */
export function generationTypes(schema: SchemaObject): JsonType[] {
  const declared = declaredTypes(schema);
  if (declared) return declared;
  if ('const' in schema) return [jsonTypeOf(schema.const) ?? 'null'];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v) => jsonTypeOf(v) ?? 'null'))];
  if (['properties', 'required', 'additionalProperties', 'patternProperties'].some((k) => k in schema))
    return ['object'];
  if (['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems'].some((k) => k in schema)) return ['array'];
  if (['minLength', 'maxLength', 'pattern', 'format'].some((k) => k in schema)) return ['string'];
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => k in schema))
    return ['number'];
  return [...ALL_TYPES];
}

/** A type allowed by a type list ('integer' values are also 'number' values). */
export function typeAllows(types: JsonType[], type: JsonType): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

const MIN_KEYS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const MAX_KEYS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

/**
 * allOf of two normalised schemas as one schema. What cannot be merged exactly is kept in a residual `allOf`,
 * which the validator honours and the generators apply as a filter.
 */
export function mergeSchemas(a: SchemaObject, b: SchemaObject): SchemaObject {
  if (a === NEVER || b === NEVER) return NEVER;
  const out: SchemaObject = { ...a };
  const residue: JsonSchema[] = Array.isArray(a.allOf) ? [...(a.allOf as JsonSchema[])] : [];
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const current = out[key];
    if (key === 'type') {
      const left = typeList(current);
      const right = typeList(value);
      const both = ALL_TYPES.filter((t) => typeAllows(left, t) && typeAllows(right, t));
      out.type = both.length === 1 ? both[0] : both;
    } else if (MIN_KEYS.includes(key)) out[key] = Math.max(current as number, value as number);
    else if (MAX_KEYS.includes(key)) out[key] = Math.min(current as number, value as number);
    else if (key === 'required') out.required = [...new Set([...(current as string[]), ...(value as string[])])];
    else if (key === 'properties') {
      const merged: Record<string, JsonSchema> = { ...(current as Record<string, JsonSchema>) };
      for (const [name, sub] of Object.entries(value as Record<string, JsonSchema>)) {
        merged[name] = name in merged ? { allOf: [merged[name], sub] } : sub;
      }
      out.properties = merged;
    } else if (key === 'enum')
      out.enum = (current as unknown[]).filter((x) => (value as unknown[]).some((y) => deepEqual(x, y)));
    else if (key === 'uniqueItems') out.uniqueItems = current === true || value === true;
    else if (key === 'items' || key === 'additionalProperties') {
      out[key] = current === false || value === false ? false : { allOf: [current, value] };
    } else if (
      key === 'examples' ||
      key === 'example' ||
      key === 'description' ||
      key === 'title' ||
      key === 'default'
    ) {
      // annotations of one part need not hold for the merge; examples are re-validated before use
    } else if (key === 'allOf') residue.push(...(value as JsonSchema[]));
    else if (!deepEqual(current, value)) residue.push({ [key]: value });
  }
  // With additionalProperties: false on one side, the other side's extra properties are not allowed at all.
  for (const [closed, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (closed.additionalProperties === false && isObject(other.properties) && isObject(out.properties)) {
      const allowed = Object.keys((closed.properties as object) ?? {});
      out.properties = Object.fromEntries(Object.entries(out.properties).filter(([name]) => allowed.includes(name)));
    }
  }
  if (residue.length > 0) out.allOf = residue;
  else delete out.allOf;
  return out;
}

/** A copy of the schema without one keyword (or without one name of `required`). */
export function withoutKeyword(schema: SchemaObject, keyword: string, requiredName?: string): SchemaObject {
  const copy: SchemaObject = { ...schema };
  if (keyword === 'required' && requiredName !== undefined) {
    copy.required = ((schema.required as string[]) ?? []).filter((n) => n !== requiredName);
  } else {
    delete copy[keyword];
  }
  return copy;
}

export function joinPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}
