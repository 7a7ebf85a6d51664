/**
 * The independent oracle for the generator tests: ajv's 2020-12 validator with the contract's uuid pattern as the
 * `uuid` format (not ajv-formats), and a request validator that reads parameters the way a server does.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import { UUID_PATTERN } from './patterns';
import { type GeneratedRequest, jsonBody, operationParameters } from './request';
import type { JsonSchema } from './schema';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

export function createAjv(options: { coerceTypes?: 'array' } = {}): Ajv2020 {
  return new Ajv2020({
    strict: false,
    allErrors: true,
    logger: false,
    coerceTypes: options.coerceTypes ?? false,
    formats: { uuid: new RegExp(UUID_PATTERN), 'date-time': DATE_TIME },
  });
}

const plain = createAjv();
const coercing = createAjv({ coerceTypes: 'array' });
const compiled = new WeakMap<object, ValidateFunction>();

function compile(ajv: Ajv2020, schema: JsonSchema): ValidateFunction {
  if (typeof schema === 'boolean') return ajv.compile(schema);
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/** ajv's verdict on a JSON value. */
export function ajvValid(schema: JsonSchema, value: unknown): boolean {
  return compile(plain, schema)(value) as boolean;
}

export function ajvErrors(schema: JsonSchema, value: unknown): string {
  const fn = compile(plain, schema);
  fn(value);
  return JSON.stringify(fn.errors);
}

const paramSchemas = new WeakMap<object, Record<string, JsonSchema>>();

/**
 * Problems ajv finds in a generated request: each parameter is read from its wire text with ajv's own type
 * coercion (the reading a server does), the body is validated as JSON.
 */
export function requestProblems(operation: object, pathItemParams: object[], request: GeneratedRequest): string[] {
  const problems: string[] = [];
  let schemas = paramSchemas.get(operation);
  if (!schemas) {
    schemas = {};
    for (const location of ['path', 'query', 'header'] as const) {
      const params = operationParameters(operation, pathItemParams, { omitHeaders: [] }).filter(
        (p) => p.in === location,
      );
      schemas[location] = {
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [p.name, p.schema ?? {}])),
        required: params.filter((p) => p.required || location === 'path').map((p) => p.name),
      };
    }
    paramSchemas.set(operation, schemas);
  }
  const slots = { path: request.pathParams, query: request.query, header: request.headers } as const;
  for (const location of ['path', 'query', 'header'] as const) {
    const data = structuredClone(slots[location]);
    const fn = compile(coercing, schemas[location]);
    if (!fn(data)) problems.push(`${location}: ${JSON.stringify(fn.errors)}`);
  }
  const body = jsonBody(operation);
  if (body) {
    if (request.body === undefined) {
      if (body.required) problems.push('body: missing');
    } else if (!ajvValid(body.schema, request.body)) problems.push(`body: ${ajvErrors(body.schema, request.body)}`);
  }
  return problems;
}
