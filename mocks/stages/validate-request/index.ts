import type { ValidateFunction } from 'ajv/dist/2020';
import { ApiError } from '../../errors';
import { safeDict } from '../../safety/dict';
import type { Ctx, Stage } from '../../context';
import { describeSchemaError, jsonContent, refTo, type Operation, type SchemaSet } from '../../../spec/lib';

/** `params` coerces query/path/header strings to their declared types; `body` does not coerce. */
export type ValidateRequestDeps = { params: SchemaSet; body: SchemaSet };

type Location = 'query' | 'path' | 'header';
type OperationValidators = { [L in Location]?: ValidateFunction } & { body?: ValidateFunction; jsonBody: boolean };

function invalid(message: string, location: string): ApiError {
  return new ApiError(400, 'invalid_request', message, { location });
}

/**
 * Declared query parameters only (unknown ones are ignored); `name[]` is read as `name` too. A parameter that is
 * not an array given twice is refused whatever the order (`?limit=5&limit=2000` as `?limit=2000&limit=5`).
 */
export function readQuery(operation: Operation, query: URLSearchParams): Record<string, unknown> {
  const values = safeDict<unknown>();
  for (const p of operation.parameters) {
    if (p.in !== 'query') continue;
    const all = query.getAll(p.name).concat(query.getAll(`${p.name}[]`));
    if (all.length === 0) continue;
    if (p.schema.type !== 'array' && all.length > 1)
      throw invalid(`${p.name}: must be given once, got ${all.length} values.`, 'query');
    values[p.name] = p.schema.type === 'array' ? all : all[0];
  }
  return values;
}

function compileOperation(operation: Operation, deps: ValidateRequestDeps): OperationValidators {
  const validators: OperationValidators = { jsonBody: false };
  for (const location of ['query', 'path', 'header'] as Location[]) {
    const declared = operation.parameters.filter((p) => p.in === location);
    if (declared.length === 0) continue;
    const name = (n: string) => (location === 'header' ? n.toLowerCase() : n);
    validators[location] = deps.params.compile({
      type: 'object',
      properties: Object.fromEntries(declared.map((p) => [name(p.name), refTo(p.schemaPointer)])),
      required: declared.filter((p) => p.required).map((p) => name(p.name)),
    });
  }
  const json = jsonContent(operation.requestBody?.content);
  if (json) validators.jsonBody = true;
  if (json?.schemaPointer) validators.body = deps.body.at(json.schemaPointer);
  return validators;
}

/** x-rules request-validation: every stated limit, pattern and enum on input is checked; a violation → 400. */
export function validateRequest(deps: ValidateRequestDeps): Stage {
  const compiled = new Map<Operation, OperationValidators>();
  return async (ctx, next) => {
    if (!ctx.route) throw new Error('validate-request runs after route');
    const { operation, params } = ctx.route;
    let validators = compiled.get(operation);
    if (!validators) compiled.set(operation, (validators = compileOperation(operation, deps)));
    checkParameters(ctx, operation, params, validators);
    if (operation.requestBody) checkBody(ctx, operation.requestBody.required, validators);
    return next();
  };
}

/** The first error ajv reports, in the error shape (ajv always reports one when validation fails). */
function firstError(validate: ValidateFunction, at: string, location: string): ApiError {
  const [error] = validate.errors ?? [];
  return invalid(error ? describeSchemaError(error, at) : `${location}: is not valid`, location);
}

function checkParameters(
  ctx: Ctx,
  operation: Operation,
  params: Record<string, string>,
  validators: OperationValidators,
): void {
  const query = readQuery(operation, ctx.req.query);
  const path: Record<string, unknown> = { ...params };
  const inputs: Record<Location, Record<string, unknown>> = { query, path, header: { ...ctx.req.headers } };
  for (const location of ['path', 'query', 'header'] as Location[]) {
    const validate = validators[location];
    if (validate && !validate(inputs[location])) throw firstError(validate, '', location);
  }
  ctx.input = { query, path };
}

function checkBody(ctx: Ctx, required: boolean | undefined, validators: OperationValidators): void {
  const { body } = ctx.req;
  if (body === undefined) {
    if (ctx.req.rawBody.length > 0) throw invalid('body: must be JSON (Content-Type: application/json).', 'body');
    if (required) throw invalid('body: is required', 'body');
    return;
  }
  const validate = validators.body;
  if (validate && !validate(body)) throw firstError(validate, 'body', 'body');
}
