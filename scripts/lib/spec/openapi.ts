// Minimal structural view of an OpenAPI 3.1 document: enough for the diff and lint rules, loose enough for
// fixtures that only carry the parts a rule needs.
// @see https://spec.openapis.org/oas/v3.1.0#openapi-object

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type Schema = JsonObject;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type Parameter = JsonObject & { name: string; in: string; required?: boolean; schema?: Schema };

export type OperationRef = {
  method: HttpMethod;
  path: string;
  /** `GET /x/{uuid}`: how the operation is named in reports. */
  key: string;
  operation: JsonObject;
  pathItem: JsonObject;
};

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** Every operation of the document, in document order. */
export function listOperations(api: JsonObject): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(asObject(api.paths))) {
    const pathItem = asObject(item);
    for (const method of HTTP_METHODS) {
      if (isObject(pathItem[method])) {
        out.push({ method, path, key: operationKey(method, path), operation: pathItem[method] as JsonObject, pathItem });
      }
    }
  }
  return out;
}

/** Path-level parameters overridden by operation-level ones of the same name and location (OAS 3.1 §4.8.9). */
export function effectiveParameters(ref: Pick<OperationRef, 'operation' | 'pathItem'>): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...asArray(ref.pathItem.parameters), ...asArray(ref.operation.parameters)]) {
    if (isObject(raw) && typeof raw.name === 'string' && typeof raw.in === 'string') {
      byKey.set(parameterKey(raw as Parameter), raw as Parameter);
    }
  }
  return [...byKey.values()];
}

/** Header names are case-insensitive (RFC 9110 §5.1); other parameter names are not. */
export function parameterKey(p: { name: string; in: string }): string {
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

/** Security in force for an operation: its own list, else the document's (OAS 3.1 §4.8.10). */
export function effectiveSecurity(api: JsonObject, operation: JsonObject): JsonObject[] | undefined {
  const own = operation.security ?? api.security;
  return Array.isArray(own) ? (own.filter(isObject) as JsonObject[]) : undefined;
}

/** Path of the document's first server URL, without origin or trailing slash (`/v1`); '' when none. */
export function serverPath(api: JsonObject): string {
  const url = asObject(asArray(api.servers)[0]).url;
  if (typeof url !== 'string') return '';
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/\/+$/, '');
}

/** Find a header in a headers map ignoring case. */
export function findHeader(headers: unknown, name: string): [string, JsonObject] | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(asObject(headers))) {
    if (key.toLowerCase() === wanted) return [key, asObject(value)];
  }
  return undefined;
}

/** Escape one JSON-pointer token (RFC 6901 §3). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
