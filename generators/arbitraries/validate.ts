/**
 * A small validator for the JSON Schema subset the generators support. The generators use it to keep examples,
 * oneOf branches and invalid cases honest; the tests cross-check everything against ajv.
 * @see https://json-schema.org/draft/2020-12/json-schema-core#section-10
 */
import {
  type JsonSchema,
  type SchemaOptions,
  canonicalJson,
  codePointLength,
  deepEqual,
  isObject,
  jsonTypeOf,
  normalize,
  typeAllows,
  declaredTypes,
} from './schema';

const regexCache = new Map<string, RegExp>();

/** Patterns are ECMA-262 regexes with the unicode flag, as ajv compiles them. */
export function patternRegExp(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    regexCache.set(pattern, re);
  }
  return re;
}

export function isValid(schema: JsonSchema | undefined, value: unknown, options: SchemaOptions = {}): boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  const s = normalize(schema, options);
  const type = jsonTypeOf(value);
  if (type === undefined) return false;

  const types = declaredTypes(s);
  if (types && !types.some((t) => typeAllows([t], type))) return false;
  if ('const' in s && !deepEqual(s.const, value)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, value))) return false;
  if (isObject(s.not) || typeof s.not === 'boolean') {
    if (isValid(s.not as JsonSchema, value, options)) return false;
  }

  if (typeof value === 'string') {
    const length = codePointLength(value);
    if (typeof s.minLength === 'number' && length < s.minLength) return false;
    if (typeof s.maxLength === 'number' && length > s.maxLength) return false;
    if (typeof s.pattern === 'string' && !patternRegExp(s.pattern).test(value)) return false;
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return false;
    if (typeof s.maximum === 'number' && value > s.maximum) return false;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return false;
    if (typeof s.multipleOf === 'number' && !Number.isInteger(value / s.multipleOf)) return false;
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return false;
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return false;
    if (s.uniqueItems === true && new Set(value.map(canonicalJson)).size !== value.length) return false;
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
    for (let i = 0; i < value.length; i++) {
      const itemSchema = i < prefix.length ? prefix[i] : (s.items as JsonSchema | undefined);
      if (!isValid(itemSchema, value[i], options)) return false;
    }
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return false;
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return false;
    for (const name of (s.required as string[] | undefined) ?? []) if (!(name in value)) return false;
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const patternProperties = (s.patternProperties ?? {}) as Record<string, JsonSchema>;
    for (const key of keys) {
      let matched = false;
      if (Object.prototype.hasOwnProperty.call(properties, key)) {
        matched = true;
        if (!isValid(properties[key], value[key], options)) return false;
      }
      for (const [pattern, sub] of Object.entries(patternProperties)) {
        if (patternRegExp(pattern).test(key)) {
          matched = true;
          if (!isValid(sub, value[key], options)) return false;
        }
      }
      if (
        !matched &&
        s.additionalProperties !== undefined &&
        !isValid(s.additionalProperties as JsonSchema, value[key], options)
      ) {
        return false;
      }
    }
  }

  if (Array.isArray(s.allOf) && !(s.allOf as JsonSchema[]).every((sub) => isValid(sub, value, options))) return false;
  if (Array.isArray(s.anyOf) && !(s.anyOf as JsonSchema[]).some((sub) => isValid(sub, value, options))) return false;
  if (Array.isArray(s.oneOf) && (s.oneOf as JsonSchema[]).filter((sub) => isValid(sub, value, options)).length !== 1) {
    return false;
  }
  return true;
}
