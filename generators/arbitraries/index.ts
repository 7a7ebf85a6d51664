/**
 * fast-check arbitraries from JSON Schema 2020-12 (the subset the contract uses) and from OpenAPI 3.1 operations.
 *
 * Schemas must be dereferenced first (e.g. `loadContract().dereferenced` from spec/lib); a leftover
 * `$ref` throws unless `options.resolve` is given.
 */
export { type JsonSchema, type SchemaOptions, refResolver } from './schema';
export { validValue, boundaryValues, canonicalValue, type ValidOptions } from './valid';
export { invalidValue, invalidCases, type InvalidCase, type InvalidOptions } from './invalid';
export {
  validRequest,
  invalidRequests,
  canonicalRequest,
  boundaryRequests,
  DEFAULT_OMITTED_HEADERS,
  requestTarget,
  serializeParameter,
  parseParameter,
  operationParameters,
  jsonBody,
  type GeneratedRequest,
  type InvalidRequest,
  type BoundaryRequest,
  type RequestOptions,
  type ParameterLocation,
} from './request';
export { isValid } from './validate';
export { UUID_PATTERN, NIL_UUID, MAX_UUID } from './patterns';
