import type { ValidateFunction } from 'ajv/dist/2020';
import { ApiError } from '../../errors';
import { safeDict } from '../../safety/dict';
import type { Ctx, Stage } from '../../context';
import { jsonContent, type Operation } from '../../../spec/lib/operations';
import { schemaProblems } from '../../../spec/lib/problems';
import { refTo, type SchemaSet } from '../../../spec/lib/schemas';

/** `params` coerces query/path/header strings to their declared types; `body` does not coerce. */
export type ValidateRequestDeps = { params: SchemaSet; body: SchemaSet };

type Location = 'query' | 'path' | 'header';
type OperationValidators = { [L in Location]?: ValidateFunction } & {
  body?: ValidateFunction;
  jsonBody: boolean;
  /** The header parameters declared (lower-case): the only headers the header validator reads. */
  headerNames: string[];
};

/** One thing wrong with a request: where (`in`, and a JSON pointer into that part: `/limit`, `/name`) and what. */
export type RequestProblem = { in: Location | 'body'; pointer: string; message: string };

/** The problems listed in one answer; a request with more has the count in the message. */
const MAX_PROBLEMS = 50;

/**
 * Declared query parameters only (unknown ones are ignored); `name[]` is read as `name` too. A parameter that is
 * not an array given twice is refused whatever the order (`?limit=5&limit=2000` as `?limit=2000&limit=5`).
 */
export function readQuery(
  operation: Operation,
  query: URLSearchParams,
  problems: RequestProblem[] = [],
): Record<string, unknown> {
  const values = safeDict<unknown>();
  if (query.size === 0) return values;
  for (const p of operation.parameters) {
    if (p.in !== 'query') continue;
    const all = query.getAll(p.name).concat(query.getAll(`${p.name}[]`));
    if (all.length === 0) continue;
    if (p.schema.type !== 'array' && all.length > 1) {
      problems.push({ in: 'query', pointer: `/${p.name}`, message: `must be given once, got ${all.length} values` });
      continue;
    }
    values[p.name] = p.schema.type === 'array' ? all : all[0];
  }
  return values;
}

/** How a problem reads in `errorMessage`: a parameter by its name, a body field by its pointer (`body/name`). */
const labelOf = (problem: RequestProblem) =>
  problem.in === 'body' || !problem.pointer ? `${problem.in}${problem.pointer}` : problem.pointer.slice(1);

/**
 * The 400 of an invalid request: `problems` lists each once with its pointer (an extra field of the contract's
 * error shape, which is open), `errorMessage` says the same in a line, `location` is where the first one is.
 */
function invalidRequest(problems: RequestProblem[]): ApiError {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const lines = shown.map((p) => `${labelOf(p)}: ${p.message}`);
  const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
  return new ApiError(400, 'invalid_request', `${lines.join('; ')}${more}`, {
    location: problems[0].in,
    problems: shown,
  });
}

function compileOperation(operation: Operation, deps: ValidateRequestDeps): OperationValidators {
  const validators: OperationValidators = { jsonBody: false, headerNames: [] };
  for (const location of ['query', 'path', 'header'] as Location[]) {
    const declared = operation.parameters.filter((p) => p.in === location);
    if (declared.length === 0) continue;
    const name = (n: string) => (location === 'header' ? n.toLowerCase() : n);
    if (location === 'header') validators.headerNames = declared.map((p) => name(p.name));
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
  const check = (ctx: Ctx): void => {
    if (!ctx.route) throw new Error('validate-request runs after route');
    const { operation, params } = ctx.route;
    let validators = compiled.get(operation);
    if (!validators) compiled.set(operation, (validators = compileOperation(operation, deps)));
    const problems: RequestProblem[] = [];
    checkParameters(ctx, operation, params, validators, problems);
    if (operation.requestBody) checkBody(ctx, operation.requestBody.required, validators, problems);
    if (problems.length > 0) throw invalidRequest(problems);
  };
  return (ctx, next) => {
    try {
      check(ctx);
    } catch (error) {
      return Promise.reject(error);
    }
    return next();
  };
}

/** Every problem the validator found, once each, at its pointer inside the part checked. */
function collect(validate: ValidateFunction, where: RequestProblem['in'], problems: RequestProblem[]): void {
  const found = schemaProblems(validate.errors ?? []);
  if (found.length === 0) problems.push({ in: where, pointer: '', message: 'is not valid' });
  for (const problem of found) problems.push({ in: where, ...problem });
}

function checkParameters(
  ctx: Ctx,
  operation: Operation,
  params: Record<string, string>,
  validators: OperationValidators,
  problems: RequestProblem[],
): void {
  const query = readQuery(operation, ctx.req.query, problems);
  const path: Record<string, unknown> = { ...params };
  if (validators.path && !validators.path(path)) collect(validators.path, 'path', problems);
  if (validators.query && !validators.query(query)) collect(validators.query, 'query', problems);
  // The declared headers only (the schema names no others), copied: coercion writes into what it checks.
  if (validators.header && !validators.header(declaredHeaders(ctx.req.headers, validators.headerNames)))
    collect(validators.header, 'header', problems);
  ctx.input = { query, path };
}

/**
 * The request's values of the operation's declared headers. A plain object: its keys are the contract's names in
 * the contract's order, so every request of an operation builds the same shape (a prototype-less dictionary
 * costs a hash table per request).
 */
function declaredHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  const declared: Record<string, string> = {};
  for (const name of names) {
    // dictionary-lookup: the names are the contract's header parameters, never taken from the request
    const value = headers[name];
    // dictionary-lookup: the same names, written in the contract's order
    if (value !== undefined) declared[name] = value;
  }
  return declared;
}

function checkBody(
  ctx: Ctx,
  required: boolean | undefined,
  validators: OperationValidators,
  problems: RequestProblem[],
): void {
  const { body } = ctx.req;
  if (body === undefined) {
    if (ctx.req.rawBody.length > 0)
      problems.push({ in: 'body', pointer: '', message: 'must be JSON (Content-Type: application/json)' });
    else if (required) problems.push({ in: 'body', pointer: '', message: 'is required' });
    return;
  }
  const validate = validators.body;
  if (validate && !validate(body)) collect(validate, 'body', problems);
}
