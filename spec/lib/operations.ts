// The operation model: each operation of the document with its parameters merged (path item, then operation),
// its security in force, request body, responses and retirement dates, every part with its pointer.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object

import { asArray, asObject, isObject, type JsonObject } from './json';
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
};

/** Follows internal `$ref`s from a node to a concrete one; returns it with the pointer it lives at. */
export function followRef(
  document: JsonObject,
  node: unknown,
  pointer: string,
): { value: JsonObject; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 64) throw new Error(`$ref chain from ${pointer} does not end`);
    at = current.$ref;
    current = getAtPointer(document, at);
  }
  return { value: asObject(current), pointer: at };
}

/** Header names are case-insensitive (RFC 9110 §5.1); other parameter names are not. */
export function parameterKey(p: { name: string; in: string }): string {
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
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

/**
 * Every operation of a bundled document, in document order. `deref` gives the dereferenced node at a pointer.
 */
export function listOperations(document: JsonObject, deref: Deref): Operation[] {
  const operations: Operation[] = [];
  const topSecurity = asArray(document.security).filter(isObject) as JsonObject[];
  for (const [path, rawItem] of Object.entries(asObject(document.paths))) {
    const item = followRef(document, rawItem, childPointer('#/paths', path));
    for (const method of HTTP_METHODS) {
      const op = item.value[method];
      if (!isObject(op)) continue;
      const pointer = childPointer(item.pointer, method);
      const parameters = new Map<string, Parameter>();
      const collect = (list: unknown, listPointer: string) =>
        asArray(list).forEach((raw, index) => {
          const p = followRef(document, raw, childPointer(listPointer, index));
          if (typeof p.value.name !== 'string' || typeof p.value.in !== 'string') return;
          const schemaPointer = followRef(document, p.value.schema ?? {}, childPointer(p.pointer, 'schema')).pointer;
          const parameter: Parameter = {
            name: p.value.name,
            in: p.value.in as ParameterLocation,
            required: p.value.required === true,
            schema: p.value.schema === undefined ? {} : deref(schemaPointer),
            schemaPointer,
            pointer: p.pointer,
            node: deref(p.pointer),
          };
          if (typeof p.value.style === 'string') parameter.style = p.value.style;
          if (typeof p.value.explode === 'boolean') parameter.explode = p.value.explode;
          parameters.set(parameterKey(parameter), parameter);
        });
      collect(item.value.parameters, childPointer(item.pointer, 'parameters'));
      collect(op.parameters, childPointer(pointer, 'parameters'));
      let requestBody: RequestBodyModel | undefined;
      if (op.requestBody !== undefined) {
        const body = followRef(document, op.requestBody, childPointer(pointer, 'requestBody'));
        const content = mediaTypes(document, body.value.content, childPointer(body.pointer, 'content'), deref);
        requestBody = {
          required: body.value.required === true,
          pointer: body.pointer,
          contentTypes: Object.keys(content),
          content,
          node: deref(body.pointer),
        };
      }
      const responses: Record<string, ResponseModel> = {};
      for (const [key, raw] of Object.entries(asObject(op.responses)))
        responses[key] = responseModel(document, key, raw, childPointer(pointer, 'responses', key), deref);
      const deprecated = op.deprecated === true;
      const node = deref(pointer);
      operations.push({
        operationId: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pointer,
        summary: typeof op.summary === 'string' ? op.summary : undefined,
        description: typeof op.description === 'string' ? op.description : undefined,
        tags: asArray(op.tags).filter((t): t is string => typeof t === 'string'),
        parameters: [...parameters.values()],
        requestBody,
        responses,
        security: Array.isArray(op.security) ? (op.security.filter(isObject) as JsonObject[]) : topSecurity,
        deprecated,
        retirement: deprecated ? retirementOf(node) : undefined,
        node,
      });
    }
  }
  return operations;
}
