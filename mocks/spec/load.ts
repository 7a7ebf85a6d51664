import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type JsonObject = Record<string, any>;

export type ParameterInfo = { name: string; in: 'query' | 'path' | 'header' | 'cookie'; required: boolean; schema: JsonObject; pointer: string };

export type OperationInfo = {
  operationId: string;
  method: string;
  pathTemplate: string;
  /** JSON pointer of the operation inside the document, for compiling its schemas by reference. */
  pointer: string;
  parameters: ParameterInfo[];
  requestBody?: { required: boolean; contentTypes: string[]; pointer: string };
  responses: Record<string, JsonObject>;
  deprecated: boolean;
  /** Retirement headers of a deprecated operation (x-deprecation / x-sunset), ready to send. */
  retirement?: { deprecation: string; sunset?: string };
};

export type LoadedSpec = { document: JsonObject; operations: OperationInfo[]; basePath: string };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Follows internal `$ref`s (`#/…`) until a concrete object; returns it with the pointer it lives at. */
export function resolveRef(document: JsonObject, value: JsonObject, pointer: string): { value: JsonObject; pointer: string } {
  let current = value;
  let at = pointer;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
    at = current.$ref;
    current = getByPointer(document, at);
  }
  return { value: current, pointer: at };
}

export function getByPointer(document: JsonObject, ref: string): any {
  if (!ref.startsWith('#')) throw new Error(`only internal $refs are resolved here, got ${ref}`);
  return ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
    // dictionary-lookup: pointers come from the spec document, never from a request
    .reduce((node: any, key) => (node == null ? undefined : node[key]), document);
}

function hasExternalRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRef);
  if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return true;
      if (hasExternalRef(value)) return true;
    }
  }
  return false;
}

/**
 * Parsing YAML is most of the mock's start-up time, so the parsed document is kept as JSON in the temp
 * directory, keyed by a hash of the spec's text: any edit of the spec misses the cache.
 */
function parseYamlCached(text: string): JsonObject {
  const file = join(tmpdir(), `workspace-api-spec-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('yaml') as typeof import('yaml');
    const document = parse(text) as JsonObject;
    try {
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(document));
      renameSync(partial, file);
    } catch {
      // A read-only temp directory only costs speed.
    }
    return document;
  }
}

/** Reads the spec once; split files are bundled into one document with internal refs only. */
export async function loadSpec(specPath: string): Promise<LoadedSpec> {
  let document = parseYamlCached(readFileSync(specPath, 'utf8'));
  if (hasExternalRef(document)) {
    // Loaded only when needed: bundling is the slow part of start-up.
    const SwaggerParser = (await import('@apidevtools/swagger-parser')).default;
    document = (await SwaggerParser.bundle(specPath)) as JsonObject;
  }
  return { document, operations: listOperations(document), basePath: readBasePath(document) };
}

function readBasePath(document: JsonObject): string {
  const url: string | undefined = document.servers?.[0]?.url;
  if (!url) return '/v1';
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\{[^}]+\}/g, '');
  const match = /\/v\d+$/.exec(path.replace(/\/$/, ''));
  return match ? match[0] : '/v1';
}

/** Deprecation as an RFC 9745 structured date (`@<epoch seconds>`), Sunset as an RFC 8594 HTTP date. */
export function retirementHeaders(deprecation: unknown, sunset: unknown): OperationInfo['retirement'] {
  const toDate = (value: unknown) => {
    if (value instanceof Date) return value;
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date;
  };
  const since = toDate(deprecation);
  if (!since) return undefined;
  const until = toDate(sunset);
  return { deprecation: `@${Math.floor(since.getTime() / 1000)}`, sunset: until?.toUTCString() };
}

export function listOperations(document: JsonObject): OperationInfo[] {
  const operations: OperationInfo[] = [];
  for (const [pathTemplate, pathItemRaw] of Object.entries<JsonObject>(document.paths ?? {})) {
    const pathPointer = `#/paths/${escapePointer(pathTemplate)}`;
    const pathItem = resolveRef(document, pathItemRaw, pathPointer);
    for (const method of METHODS) {
      // dictionary-lookup: the method names are this file's own constants
      const op = pathItem.value[method];
      if (!op) continue;
      const pointer = `${pathItem.pointer}/${method}`;
      const parameters = new Map<string, ParameterInfo>();
      const collect = (list: JsonObject[] | undefined, listPointer: string) =>
        (list ?? []).forEach((raw, index) => {
          const p = resolveRef(document, raw, `${listPointer}/${index}`);
          const schemaPointer = `${p.pointer}/schema`;
          parameters.set(`${p.value.in}:${p.value.name}`, {
            name: p.value.name,
            in: p.value.in,
            required: Boolean(p.value.required),
            schema: resolveRef(document, p.value.schema ?? {}, schemaPointer).value,
            pointer: schemaPointer,
          });
        });
      collect(pathItem.value.parameters, `${pathItem.pointer}/parameters`);
      collect(op.parameters, `${pointer}/parameters`);
      let requestBody: OperationInfo['requestBody'];
      if (op.requestBody) {
        const body = resolveRef(document, op.requestBody, `${pointer}/requestBody`);
        requestBody = { required: Boolean(body.value.required), contentTypes: Object.keys(body.value.content ?? {}), pointer: body.pointer };
      }
      operations.push({
        operationId: op.operationId ?? `${method} ${pathTemplate}`,
        method: method.toUpperCase(),
        pathTemplate,
        pointer,
        parameters: [...parameters.values()],
        requestBody,
        responses: op.responses ?? {},
        deprecated: Boolean(op.deprecated),
        retirement: op.deprecated ? retirementHeaders(op['x-deprecation'], op['x-sunset']) : undefined,
      });
    }
  }
  return operations;
}
