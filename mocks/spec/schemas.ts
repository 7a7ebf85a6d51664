import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { JsonObject } from './load';

const DOCUMENT_ID = 'openapi.json';

/**
 * Compiles schemas of the spec by their JSON pointer, so `$ref`s (recursive ones too) resolve inside the one
 * document. Each pointer is compiled once, on first use: start-up stays fast.
 */
export function createSchemaCompiler(document: JsonObject, options: { coerce?: boolean } = {}) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    validateFormats: false,
    validateSchema: false,
    coerceTypes: options.coerce ? 'array' : false,
  });
  ajv.addSchema(document, DOCUMENT_ID);
  const cache = new Map<string, ValidateFunction>();
  return {
    /** The validator of the schema at `pointer` (e.g. "#/components/schemas/Run"). */
    at(pointer: string): ValidateFunction {
      let validate = cache.get(pointer);
      if (!validate) {
        validate = ajv.compile(refTo(pointer));
        cache.set(pointer, validate);
      }
      return validate;
    },
    /** A schema built here whose `$ref`s point into the document (see refTo). */
    compile(schema: JsonObject): ValidateFunction {
      return ajv.compile(schema);
    },
  };
}

export type SchemaCompiler = ReturnType<typeof createSchemaCompiler>;

/** A `$ref` into the loaded document, usable in schemas given to `compile`. */
export function refTo(pointer: string): { $ref: string } {
  const fragment = pointer
    .replace(/^#/, '')
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%7E/gi, '~'))
    .join('/');
  return { $ref: `${DOCUMENT_ID}#${fragment}` };
}

/** One line that names the offending field, e.g. "limit: must be <= 1000". */
export function describeSchemaError(error: ErrorObject, root: string): string {
  const parts = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') parts.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') parts.push(String(params.additionalProperty));
  const field = [root, ...parts].filter(Boolean).join('.') || 'body';
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'enum') message += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'additionalProperties') message = 'is not allowed';
  if (error.keyword === 'required') message = 'is required';
  return `${field}: ${message}`;
}
