// The operation model, the one place where an operation is normalised: each operation of a document with its
// parameters merged (path item, then operation), its security in force, request body, responses and retirement
// dates, every part with its pointer. The mock, the suite, the lint, the docs, the diff and the generators read it.
// It is total: a document the loader accepted never makes it throw, whatever its values (a missing or non-array
// `parameters`, a `$ref` that cannot be followed, a `security` that is not a list).
// @see https://spec.openapis.org/oas/v3.1.0#operation-object

import { asArray, asObject, isObject, type Json, type JsonObject } from './json';
import { childPointer, getAtPointer } from './pointer';

/** The fixed fields of a Path Item that hold operations (OAS 3.1 §4.8.8), in the specification's order. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ParameterLocation = 'query' | 'path' | 'header' | 'cookie';

export type Parameter = {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** The schema, dereferenced (a recursive reference stays a `$ref`). */
  schema: JsonObject;
  /** Pointer of the schema in the bundled document, for compiling it. */
  schemaPointer: string;
  /** Pointer of the Parameter Object itself (after following `$ref`s). */
  pointer: string;
  style?: string;
  explode?: boolean;
  /** The Parameter Object, dereferenced (its `x-assumption`, description, …). */
  node: JsonObject;
};

export type MediaType = { schema?: JsonObject; schemaPointer?: string };

export type ResponseHeader = {
  name: string;
  required: boolean;
  deprecated: boolean;
  schema?: JsonObject;
  schemaPointer?: string;
  pointer: string;
  node: JsonObject;
};

export type ResponseModel = {
  /** The key in `responses`: `200`, `4XX` or `default`. */
  key: string;
  pointer: string;
  description?: string;
  /** Keyed by the name as written in the document; look names up with `findHeader` (case-insensitive). */
  headers: Record<string, ResponseHeader>;
  content: Record<string, MediaType>;
  node: JsonObject;
};

export type RequestBodyModel = {
  required: boolean;
  pointer: string;
  contentTypes: string[];
  content: Record<string, MediaType>;
  node: JsonObject;
};

export type Retirement = { deprecation?: Date; sunset?: Date };

export type Operation = {
  operationId: string;
  /** Upper case, as on the wire. */
  method: string;
  /** The path template as written (`/orchestration/runs/{uuid}`), below the base path. */
  path: string;
  pointer: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: RequestBodyModel;
  responses: Record<string, ResponseModel>;
  /** Security requirements in force: the operation's own list, else the document's (OAS 3.1 §4.8.10). */
  security: JsonObject[];
  deprecated: boolean;
  /** Dates of a retiring operation (`x-deprecation`, `x-sunset`), see retirementOf. */
  retirement?: Retirement;
  /** The Operation Object, dereferenced (cycles kept as `$ref`). */
  node: JsonObject;
  /** The Path Item Object that holds it, dereferenced (where a report about its path points). */
  pathItem: JsonObject;
};

/** A Parameter Object as written: the two fields that identify it are strings, the rest is unread. */
export type ParameterObject = JsonObject & { name: string; in: string; required?: boolean; schema?: JsonObject };

/** A node reached through `$ref`s: the concrete node, or `{}` with the reason when a `$ref` cannot be followed. */
export type Followed = { value: JsonObject; pointer: string; unresolved?: string };

/** More `$ref`s in a row than any document needs: a chain this long goes round in a circle. */
const MAX_REF_HOPS = 64;

/**
 * Follows internal `$ref`s from a node to a concrete one; returns it with the pointer it lives at. Never throws:
 * a `$ref` outside the document, one that points at nothing and a chain that does not end give `{}` and say why.
 */
export function followRef(document: JsonObject, node: unknown, pointer: string): Followed {
  let current = node;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (hops >= MAX_REF_HOPS) return { value: {}, pointer: at, unresolved: `$ref chain from ${pointer} does not end` };
    if (ref !== '#' && !ref.startsWith('#/'))
      return { value: {}, pointer: at, unresolved: `$ref ${JSON.stringify(ref)} is not a pointer into the document` };
    at = ref;
    current = getAtPointer(document, at);
    if (current === undefined)
      return { value: {}, pointer: at, unresolved: `$ref ${JSON.stringify(ref)} points at nothing` };
  }
  return { value: asObject(current), pointer: at };
}

/** Header names are case-insensitive (RFC 9110 §5.1); other parameter names are not. */
export function parameterKey(p: { name: string; in: string }): string {
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

/** A Parameter Object as written, or undefined when it cannot be identified (not an object, no string name or in). */
export function readParameterObject(raw: unknown): ParameterObject | undefined {
  return isObject(raw) && typeof raw.name === 'string' && typeof raw.in === 'string'
    ? (raw as ParameterObject)
    : undefined;
}

/** Where a parameter of an operation is declared: its path item or the operation itself. */
export type ParameterLevel = 'path' | 'operation';

/**
 * The parameters in force for an operation, merged here once for every reader: the path item's list, each entry
 * overridden by the operation's own parameter of the same name and location (header names ignoring case), kept in
 * the order first met (OAS 3.1 §4.8.9 and §4.8.10 `parameters`). A list that is not an array counts as empty; an
 * entry `read` cannot identify (not an object, no string `name` or `in`, a `$ref` that cannot be followed) is left
 * out. Among duplicates on one level (which the specification forbids) the last wins.
 * @see https://spec.openapis.org/oas/v3.1.0#path-item-object
 */
export function mergeParameters<P extends { name: string; in: string }>(
  pathLevel: unknown,
  operationLevel: unknown,
  read: (raw: Json, level: ParameterLevel, index: number) => P | undefined,
): P[] {
  const byKey = new Map<string, P>();
  const levels: [ParameterLevel, unknown][] = [
    ['path', pathLevel],
    ['operation', operationLevel],
  ];
  for (const [level, list] of levels)
    asArray(list).forEach((raw, index) => {
      const parameter = read(raw, level, index);
      if (parameter) byKey.set(parameterKey(parameter), parameter);
    });
  return [...byKey.values()];
}

/**
 * The security requirements in force for an operation (OAS 3.1 §4.8.10 `security`): its own list when it states
 * one, an empty list meaning none, else the document's (§4.8.1). `null` counts as not stated. A stated value that
 * is not a list overrides with nothing readable, so none is in force (the lint and the diff then say so rather than
 * lend it the document's); entries that are not Security Requirement Objects are left out.
 * @see https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
export function securityInForce(documentSecurity: unknown, operationSecurity: unknown): JsonObject[] {
  const stated = operationSecurity ?? documentSecurity;
  return asArray(stated).filter(isObject);
}

/** A declared parameter by location and name (header names compared case-insensitively). */
export function findParameter(
  operation: Pick<Operation, 'parameters'>,
  location: ParameterLocation,
  name: string,
): Parameter | undefined {
  const key = parameterKey({ in: location, name });
  return operation.parameters.find((p) => parameterKey(p) === key);
}

/** A header of a response or a headers map by name, ignoring case. */
export function findHeader<T>(headers: Record<string, T> | undefined, name: string): [string, T] | undefined;
/** A header of a Headers map as written in a document (any value), its object form. */
export function findHeader(headers: unknown, name: string): [string, JsonObject] | undefined;
export function findHeader(headers: unknown, name: string): [string, unknown] | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(asObject(headers))) if (key.toLowerCase() === wanted) return [key, value];
  return undefined;
}

/** JSON types: `application/json` and any `+json` suffix (RFC 6839), parameters ignored. */
export function isJsonMediaType(type: string | undefined): boolean {
  const bare = (type ?? '').split(';')[0].trim().toLowerCase();
  return bare === 'application/json' || bare.endsWith('+json');
}

/** The first JSON media type of a content map, with its type. */
export function jsonContent(
  content: Record<string, MediaType> | undefined,
): (MediaType & { type: string }) | undefined {
  for (const [type, media] of Object.entries(content ?? {})) if (isJsonMediaType(type)) return { type, ...media };
  return undefined;
}

type Deref = (pointer: string) => JsonObject;

function mediaTypes(document: JsonObject, content: unknown, pointer: string, deref: Deref): Record<string, MediaType> {
  const out: Record<string, MediaType> = {};
  for (const [type, raw] of Object.entries(asObject(content))) {
    const media = followRef(document, raw, childPointer(pointer, type));
    if (media.value.schema === undefined) {
      out[type] = {};
      continue;
    }
    const schemaPointer = followRef(document, media.value.schema, childPointer(media.pointer, 'schema')).pointer;
    out[type] = { schema: deref(schemaPointer), schemaPointer };
  }
  return out;
}

function responseModel(document: JsonObject, key: string, raw: unknown, pointer: string, deref: Deref): ResponseModel {
  const response = followRef(document, raw, pointer);
  const headers: Record<string, ResponseHeader> = {};
  for (const [name, rawHeader] of Object.entries(asObject(response.value.headers))) {
    const header = followRef(document, rawHeader, childPointer(response.pointer, 'headers', name));
    const schemaPointer =
      header.value.schema === undefined
        ? undefined
        : followRef(document, header.value.schema, childPointer(header.pointer, 'schema')).pointer;
    headers[name] = {
      name,
      required: header.value.required === true,
      deprecated: header.value.deprecated === true,
      schema: schemaPointer ? deref(schemaPointer) : undefined,
      schemaPointer,
      pointer: header.pointer,
      node: deref(header.pointer),
    };
  }
  return {
    key,
    pointer: response.pointer,
    description: typeof response.value.description === 'string' ? response.value.description : undefined,
    headers,
    content: mediaTypes(document, response.value.content, childPointer(response.pointer, 'content'), deref),
    node: deref(response.pointer),
  };
}

function parseDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  // RFC 9745 also writes a date as `@<epoch seconds>` (a structured-field date).
  const text = String(value).trim();
  const date = /^@-?\d+$/.test(text) ? new Date(Number(text.slice(1)) * 1000) : new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * How the contract marks a retirement (Versioning 4-6): `deprecated: true` with `x-deprecation` (the date the
 * Deprecation header announces) and `x-sunset` (the Sunset date, at least MINIMUM_SUNSET_GAP_DAYS later).
 * Without them, a header-level `example` on the operation's own Deprecation/Sunset response header is read;
 * schema `examples` of the shared component header are generic samples, never an operation's date.
 */
export function retirementOf(operation: JsonObject): Retirement {
  const fromHeader = (name: string): Date | undefined => {
    for (const response of Object.values(asObject(operation.responses))) {
      const found = findHeader(asObject(asObject(response).headers), name);
      const date = found ? parseDate(asObject(found[1]).example) : undefined;
      if (date) return date;
    }
    return undefined;
  };
  return {
    deprecation: parseDate(operation['x-deprecation']) ?? fromHeader('Deprecation'),
    sunset: parseDate(operation['x-sunset']) ?? fromHeader('Sunset'),
  };
}

/** The values of the Deprecation (RFC 9745 `@<epoch seconds>`) and Sunset (RFC 8594 HTTP date) headers. */
export function retirementHeaderValues(
  retirement: Retirement | undefined,
): { deprecation: string; sunset?: string } | undefined {
  if (!retirement?.deprecation) return undefined;
  return {
    deprecation: `@${Math.floor(retirement.deprecation.getTime() / 1000)}`,
    sunset: retirement.sunset?.toUTCString(),
  };
}

/** A parameter of the model, or undefined when its object (after `$ref`s) has no string `name` or `in`. */
function parameterModel(document: JsonObject, raw: Json, pointer: string, deref: Deref): Parameter | undefined {
  const p = followRef(document, raw, pointer);
  const object = readParameterObject(p.value);
  if (!object) return undefined;
  const schemaPointer = followRef(document, object.schema ?? {}, childPointer(p.pointer, 'schema')).pointer;
  const parameter: Parameter = {
    name: object.name,
    in: object.in as ParameterLocation,
    required: object.required === true,
    schema: object.schema === undefined ? {} : deref(schemaPointer),
    schemaPointer,
    pointer: p.pointer,
    node: deref(p.pointer),
  };
  if (typeof object.style === 'string') parameter.style = object.style;
  if (typeof object.explode === 'boolean') parameter.explode = object.explode;
  return parameter;
}

function requestBodyModel(document: JsonObject, raw: Json, pointer: string, deref: Deref): RequestBodyModel {
  const body = followRef(document, raw, pointer);
  const content = mediaTypes(document, body.value.content, childPointer(body.pointer, 'content'), deref);
  return {
    required: body.value.required === true,
    pointer: body.pointer,
    contentTypes: Object.keys(content),
    content,
    node: deref(body.pointer),
  };
}

type PathItem = { path: string; value: JsonObject; pointer: string };

function operationModel(document: JsonObject, item: PathItem, method: HttpMethod, deref: Deref): Operation {
  const op = asObject(item.value[method]);
  const pointer = childPointer(item.pointer, method);
  const parameters = mergeParameters(item.value.parameters, op.parameters, (raw, level, index) =>
    parameterModel(document, raw, childPointer(level === 'path' ? item.pointer : pointer, 'parameters', index), deref),
  );
  const responses: Record<string, ResponseModel> = {};
  for (const [key, raw] of Object.entries(asObject(op.responses)))
    responses[key] = responseModel(document, key, raw, childPointer(pointer, 'responses', key), deref);
  const deprecated = op.deprecated === true;
  const node = deref(pointer);
  return {
    operationId: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${item.path}`,
    method: method.toUpperCase(),
    path: item.path,
    pointer,
    summary: typeof op.summary === 'string' ? op.summary : undefined,
    description: typeof op.description === 'string' ? op.description : undefined,
    tags: asArray(op.tags).filter((t): t is string => typeof t === 'string'),
    parameters,
    requestBody:
      op.requestBody === undefined
        ? undefined
        : requestBodyModel(document, op.requestBody, childPointer(pointer, 'requestBody'), deref),
    responses,
    security: securityInForce(document.security, op.security),
    deprecated,
    retirement: deprecated ? retirementOf(node) : undefined,
    node,
    pathItem: deref(item.pointer),
  };
}

/**
 * Every operation of a document, in document order: of a bundled one (internal `$ref`s kept) with `deref` giving
 * the dereferenced node at a pointer, or of one already dereferenced, read as it is (the default `deref`).
 */
export function listOperations(
  document: JsonObject,
  deref: Deref = (pointer) => asObject(getAtPointer(document, pointer)),
): Operation[] {
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(asObject(document.paths))) {
    const { value, pointer } = followRef(document, rawItem, childPointer('#/paths', path));
    const item: PathItem = { path, value, pointer };
    for (const method of HTTP_METHODS)
      if (isObject(value[method])) operations.push(operationModel(document, item, method, deref));
  }
  return operations;
}
