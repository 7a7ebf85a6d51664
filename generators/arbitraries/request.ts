/**
 * Whole requests for one OpenAPI operation: path, query and header parameters serialised as they travel on the
 * wire (form style, exploded arrays as repeated keys), plus the JSON body.
 * @see https://spec.openapis.org/oas/v3.1.0#parameter-object
 * @see https://spec.openapis.org/oas/v3.1.0#style-values
 */
import fc from 'fast-check';
import {
  type JsonSchema,
  type SchemaObject,
  type SchemaOptions,
  deepEqual,
  generationTypes,
  isObject,
  normalize,
} from './schema';
import { isValid } from './validate';
import { mergeParameters, readParameterObject } from '../../spec/lib';
import { type ValidOptions, boundaryValues, canonicalValue, makeContext, validArbitrary } from './valid';
import { type InvalidCase, invalidCases } from './invalid';

export type GeneratedRequest = {
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
};

export type ParameterLocation = 'query' | 'path' | 'header';
export type InvalidRequest = InvalidCase & { request: GeneratedRequest; location: ParameterLocation | 'body' };

export type RequestOptions = SchemaOptions &
  Pick<ValidOptions, 'maxDepth' | 'includeOptional'> & {
    /**
     * Header parameters left out, case-insensitive. Default ['Idempotency-Key']: a key is server state (a reused
     * key with another body answers 422), so the caller sets a fresh one per request. Pass [] to generate it.
     */
    omitHeaders?: string[];
  };

export const DEFAULT_OMITTED_HEADERS = ['Idempotency-Key'];

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
  style?: string;
  explode?: boolean;
};

/** A dereferenced Parameter Object; a `$ref` left in place is a caller's mistake, said at once. */
function readParameter(raw: unknown): Parameter | undefined {
  if (isObject(raw) && typeof raw.$ref === 'string')
    throw new Error('Parameter $ref found: dereference the spec first');
  return readParameterObject(raw) as Parameter | undefined;
}

/**
 * Operation parameters override path-item parameters of the same name and location: the contract library's
 * merge (spec/lib mergeParameters), the one every reader of an operation uses.
 */
export function operationParameters(
  operation: object,
  pathItemParams: object[] = [],
  options: RequestOptions = {},
): Parameter[] {
  const own = isObject(operation) ? operation.parameters : undefined;
  const merged = mergeParameters(pathItemParams, own, readParameter);
  const omitted = (options.omitHeaders ?? DEFAULT_OMITTED_HEADERS).map((h) => h.toLowerCase());
  return merged.filter(
    (p) => ['query', 'path', 'header'].includes(p.in) && !(p.in === 'header' && omitted.includes(p.name.toLowerCase())),
  );
}

/** The JSON schema of the request body and whether the body is required; undefined without a JSON body. */
export function jsonBody(operation: object): { schema: JsonSchema; required: boolean } | undefined {
  const body = (
    operation as { requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } }
  ).requestBody;
  if (!body?.content) return undefined;
  const type = Object.keys(body.content).find((t) => /^application\/(?:[\w.+-]+\+)?json\b/.test(t));
  if (!type) return undefined;
  return { schema: body.content[type].schema ?? {}, required: body.required === true };
}

/** Sets one parameter of a request to its wire text, in the slot of its location. */
function setParameter(request: GeneratedRequest, p: Parameter, wire: string | string[]): void {
  if (p.in === 'path') request.pathParams[p.name] = wire as string;
  else if (p.in === 'query') request.query[p.name] = wire;
  else request.headers[p.name] = wire as string;
}

function deleteParameter(request: GeneratedRequest, p: Parameter): void {
  if (p.in === 'path') delete request.pathParams[p.name];
  else if (p.in === 'query') delete request.query[p.name];
  else delete request.headers[p.name];
}

function isExploded(p: Parameter): boolean {
  return p.explode ?? (p.style === undefined || p.style === 'form');
}

function scalarToWire(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A parameter value as it travels: arrays as repeated keys (exploded form) or comma-joined, scalars as text. */
export function serializeParameter(p: Parameter, value: unknown): string | string[] {
  if (Array.isArray(value)) {
    const parts = value.map(scalarToWire);
    return p.in === 'query' && isExploded(p) ? parts : parts.join(',');
  }
  return scalarToWire(value);
}

/** The typed value a server reads from wire text, following the parameter schema (the reverse of serialisation). */
export function parseParameter(p: Parameter, raw: string | string[], options: SchemaOptions = {}): unknown {
  const s = normalize(p.schema, options);
  const types = generationTypes(s);
  if (types.includes('array') && !types.includes('string')) {
    const parts = Array.isArray(raw) ? raw : raw === '' ? [] : raw.split(',');
    return parts.map((part) => parseScalar(normalize(s.items as JsonSchema | undefined, options), part));
  }
  return parseScalar(s, Array.isArray(raw) ? raw[raw.length - 1] : raw);
}

function parseScalar(s: SchemaObject, text: string): unknown {
  const types = generationTypes(s);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text))
    return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === 'null' && !types.includes('string')) return null;
  return text;
}

/** Valid requests: required parameters always, optional ones sometimes, the JSON body when the operation has one. */
export function validRequest(
  operation: object,
  pathItemParams: object[] = [],
  options: RequestOptions = {},
): fc.Arbitrary<GeneratedRequest> {
  const params = operationParameters(operation, pathItemParams, options);
  const ctx = makeContext(options);
  const group = (location: ParameterLocation) => {
    const model: Record<string, fc.Arbitrary<string | string[]>> = {};
    const required: string[] = [];
    for (const p of params.filter((x) => x.in === location)) {
      if (options.includeOptional === 'none' && !p.required && location !== 'path') continue;
      const charset = location === 'header' ? 'header' : 'unicode';
      let arb = validArbitrary(p.schema, { ...ctx, charset }).map((v) => serializeParameter(p, v));
      // An empty path segment routes elsewhere and an empty header reads as absent: both must be non-empty.
      if (location !== 'query') arb = arb.filter((v) => v !== '');
      model[p.name] = arb;
      if (p.required || location === 'path') required.push(p.name);
    }
    const requiredKeys = options.includeOptional === 'all' ? Object.keys(model) : required;
    return fc.record(model, { requiredKeys, noNullPrototype: true }) as fc.Arbitrary<Record<string, string | string[]>>;
  };
  const body = jsonBody(operation);
  return fc
    .record({
      pathParams: group('path') as fc.Arbitrary<Record<string, string>>,
      query: group('query'),
      headers: group('header') as fc.Arbitrary<Record<string, string>>,
      body: body ? validArbitrary(body.schema, ctx) : fc.constant(undefined),
    })
    .map(({ pathParams, query, headers, body: b }) =>
      body ? { pathParams, query, headers, body: b } : { pathParams, query, headers },
    );
}

/** The canonical valid request: required parameters and the body at their canonical values. */
export function canonicalRequest(
  operation: object,
  pathItemParams: object[] = [],
  options: RequestOptions = {},
): GeneratedRequest {
  const request: GeneratedRequest = { pathParams: {}, query: {}, headers: {} };
  for (const p of operationParameters(operation, pathItemParams, options)) {
    if (!p.required && p.in !== 'path') continue;
    setParameter(request, p, serializeParameter(p, canonicalValue(p.schema, options)));
  }
  const body = jsonBody(operation);
  if (body) request.body = canonicalValue(body.schema, options);
  return request;
}

export type BoundaryRequest = {
  request: GeneratedRequest;
  location: ParameterLocation | 'body';
  path: string;
  value: unknown;
};

/**
 * Valid requests at the edges, deterministic: the canonical request with one parameter at one of its boundary
 * values (limit=1000, offset=9007199254740991, ...) or the body at one of its boundaries (a name of its maxLength,
 * a 10000-character query). Every one is valid, so a server must accept it.
 */
export function boundaryRequests(
  operation: object,
  pathItemParams: object[] = [],
  options: RequestOptions = {},
): BoundaryRequest[] {
  const base = canonicalRequest(operation, pathItemParams, options);
  const out: BoundaryRequest[] = [];
  for (const p of operationParameters(operation, pathItemParams, options)) {
    const location = p.in as ParameterLocation;
    for (const value of boundaryValues(p.schema ?? {}, options)) {
      const wire = serializeParameter(p, value);
      if (location !== 'query' && (wire === '' || Array.isArray(wire))) continue;
      const request = structuredClone(base);
      setParameter(request, p, wire);
      out.push({ request, location, path: p.name, value });
    }
  }
  const body = jsonBody(operation);
  if (body) {
    for (const value of boundaryValues(body.schema, options))
      out.push({ request: { ...structuredClone(base), body: value }, location: 'body', path: '', value });
  }
  return out;
}

/** Cases a parameter can carry on the wire: e.g. limit=abc, limit=1.5, limit=1001; never a value the server reads as valid. */
function parameterCases(p: Parameter, options: SchemaOptions): InvalidCase[] {
  const s = normalize(p.schema, options);
  const cases: InvalidCase[] = invalidCases(s, { path: p.name, resolve: options.resolve });
  const types = generationTypes(s);
  if ((types.includes('integer') || types.includes('number')) && !types.includes('string')) {
    cases.push({ value: 'abc', breaks: 'type', path: p.name, description: `${p.name}: "abc" is not a number` });
  }
  if (types.includes('boolean') && !types.includes('string')) {
    cases.push({ value: 'maybe', breaks: 'type', path: p.name, description: `${p.name}: "maybe" is not a boolean` });
  }
  const seen = new Set<string>();
  const out: InvalidCase[] = [];
  for (const c of cases) {
    if (c.value === undefined || isObject(c.value)) continue;
    const wire = serializeParameter(p, c.value);
    const key = JSON.stringify(wire);
    if (seen.has(key)) continue;
    if (p.in === 'path' && (wire === '' || /[/?#]/.test(wire as string))) continue;
    if (p.in === 'header' && (Array.isArray(wire) || !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(wire))) continue;
    // The server sees the value after the round trip through text: keep a case only if it reads back unchanged
    // (so the stated reason still holds), or a wrong type that stays unparsed text.
    const parsed = parseParameter(p, wire, options);
    const sameValue = deepEqual(parsed, c.value);
    const stillWrongType =
      c.breaks === 'type' && c.path === p.name && typeof parsed === 'string' && !types.includes('string');
    if (!(sameValue || stillWrongType) || isValid(s, parsed, options)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/**
 * Requests that each break exactly one thing: one parameter (as it reads on the wire) or one spot of the body,
 * starting from the canonical valid request. A missing required parameter or body is a 'required' case.
 * Header parameters are all included unless `options.omitHeaders` says otherwise.
 */
export function invalidRequests(
  operation: object,
  pathItemParams: object[] = [],
  options: RequestOptions = {},
): InvalidRequest[] {
  const base = canonicalRequest(operation, pathItemParams, options);
  const clone = (): GeneratedRequest => structuredClone(base);
  const out: InvalidRequest[] = [];
  // An invalid header is refused before any state is kept, so even the Idempotency-Key is broken here by default.
  for (const p of operationParameters(operation, pathItemParams, { omitHeaders: [], ...options })) {
    const location = p.in as ParameterLocation;
    for (const c of parameterCases(p, options)) {
      const request = clone();
      setParameter(request, p, serializeParameter(p, c.value));
      out.push({ ...c, request, location });
    }
    if (p.required && location !== 'path') {
      const request = clone();
      deleteParameter(request, p);
      out.push({
        value: undefined,
        breaks: 'required',
        path: p.name,
        description: `${p.name}: missing required ${location} parameter`,
        request,
        location,
      });
    }
  }
  const body = jsonBody(operation);
  if (body) {
    for (const c of invalidCases(body.schema, { resolve: options.resolve })) {
      const request = clone();
      request.body = c.value;
      out.push({ ...c, request, location: 'body' });
    }
    if (body.required) {
      const request = clone();
      delete request.body;
      out.push({
        value: undefined,
        breaks: 'required',
        path: '',
        description: 'missing required request body',
        request,
        location: 'body',
      });
    }
  }
  return out;
}

/** The request target for a path template: '/things/{uuid}' + request -> '/things/3f1b...?limit=5&reasons=a&reasons=b'. */
export function requestTarget(pathTemplate: string, request: GeneratedRequest): string {
  const path = pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(request.pathParams[name] ?? ''),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}
