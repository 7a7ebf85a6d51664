// Schemas of the contract compiled by pointer with one ajv set-up (JSON Schema 2020-12, the document's
// dialect). `$ref`s, recursive ones too, resolve inside the one bundled document.

import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { JsonObject } from './json';

const DOCUMENT_ID = 'https://contract.invalid/openapi.json';

/**
 * The contract's own UUID rule (Resources, Conventions): a version 1-8 UUID with variant 8, 9, a or b, or the nil
 * or max UUID. Used for `format: uuid`, so that format never means a laxer generic check.
 */
export const CONTRACT_UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

function isUriReference(value: string): boolean {
  if (/[\s<>"{}|\\^`]/.test(value)) return false;
  try {
    new URL(value, 'http://base.invalid/');
    return true;
  } catch {
    return false;
  }
}

export type SchemaOptions = {
  /** Coerce strings to the declared types (query, path and header values arrive as strings). */
  coerce?: boolean;
  /** Collect every error instead of stopping at the first. */
  allErrors?: boolean;
};

export type SchemaSet = {
  /** The validator of the schema at `pointer` (e.g. `#/components/schemas/Run`), compiled once on first use. */
  at(pointer: string): ValidateFunction;
  /** Compiles a schema built by the caller whose `$ref`s point into the document (see `refTo`). */
  compile(schema: JsonObject): ValidateFunction;
  /** Errors of `value` against the schema at `pointer` ([] when valid). */
  errorsAt(pointer: string, value: unknown): ErrorObject[];
};

/** A `$ref` into the loaded document, usable in schemas given to `compile`. */
export function refTo(pointer: string): { $ref: string } {
  const fragment = pointer
    .replace(/^#/, '')
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%7E/gi, '~'))
    .join('/');
  return { $ref: `${DOCUMENT_ID}#${fragment}` };
}

export function createSchemaSet(document: JsonObject, options: SchemaOptions = {}): SchemaSet {
  const ajv = new Ajv2020({
    strict: false,
    validateSchema: false,
    allErrors: options.allErrors ?? false,
    coerceTypes: options.coerce ? 'array' : false,
    // Lengths in code points, as JSON Schema defines them (not UTF-16 units).
    unicode: true,
    logger: false,
    formats: {
      uuid: new RegExp(CONTRACT_UUID_PATTERN),
      'uri-reference': { type: 'string', validate: isUriReference },
    },
  });
  ajv.addSchema(document, DOCUMENT_ID);
  const cache = new Map<string, ValidateFunction>();
  const at = (pointer: string) => {
    let validate = cache.get(pointer);
    if (!validate) cache.set(pointer, (validate = ajv.compile(refTo(pointer))));
    return validate;
  };
  return {
    at,
    compile: (schema) => ajv.compile(schema),
    errorsAt(pointer, value) {
      const validate = at(pointer);
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
  };
}

/** One line that names the offending field, e.g. "limit: must be <= 1000". */
export function describeSchemaError(error: ErrorObject, root: string): string {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') parts.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') parts.push(String(params.additionalProperty));
  const field = [root, ...parts].filter(Boolean).join('.') || 'body';
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'enum')
    message += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'additionalProperties') message = 'is not allowed';
  if (error.keyword === 'required') message = 'is required';
  return `${field}: ${message}`;
}

/** Several errors on one line, the first five in full. */
export function describeSchemaErrors(errors: readonly ErrorObject[], root = ''): string {
  const shown = errors.slice(0, 5).map((e) => describeSchemaError(e, root));
  return shown.join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : '');
}
