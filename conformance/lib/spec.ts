/**
 * The contract as the suite reads it at run time: spec/openapi.yaml dereferenced, its operations,
 * a router from request paths to operations, and response validation with ajv (draft 2020-12).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';

export type JsonSchema = Record<string, any>;

export type Parameter = { name: string; in: 'query' | 'path' | 'header' | 'cookie'; required?: boolean; schema?: JsonSchema; style?: string; explode?: boolean };

export type ResponseObject = {
  description?: string;
  headers?: Record<string, { required?: boolean; schema?: JsonSchema; deprecated?: boolean }>;
  content?: Record<string, { schema?: JsonSchema }>;
};

export type Operation = {
  operationId: string;
  method: string;
  path: string;
  deprecated: boolean;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, ResponseObject>;
  raw: Record<string, any>;
  matcher: RegExp;
};

export type Contract = {
  document: Record<string, any>;
  operations: Operation[];
  rules: Array<{ id: string; text: string }>;
  /** Finds the operation for a method and a path below the base URL (query string allowed). */
  findOperation(method: string, requestPath: string): Operation | undefined;
  operation(operationId: string): Operation | undefined;
  /** Validates a value against the schema at a JSON pointer of the bundled document (`#/components/...`). */
  validateAt(pointer: string, value: unknown): ErrorObject[];
  /** The pointer of a response's body schema or header schema, following `$ref`s; undefined when not declared. */
  responsePointer(op: Operation, statusKey: string, part: { mediaType: string } | { header: string }): string | undefined;
  schema(name: string): JsonSchema | undefined;
  /** The dereferenced node at an internal `$ref` (for references left in place by cycles). */
  resolve(ref: string): any;
};

export const DEFAULT_SPEC_PATH = path.resolve(__dirname, '..', '..', 'spec', 'openapi.yaml');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

function templateToRegExp(template: string): RegExp {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}/?$`);
}

export async function loadContract(specPath = DEFAULT_SPEC_PATH): Promise<Contract> {
  // Bundled (internal $refs only) for validation, so recursive schemas stay references ajv can follow.
  const bundled = await bundle(specPath);
  const rules = Array.isArray(bundled['x-rules']) ? (bundled['x-rules'] as Array<{ id: string; text: string }>) : [];
  const document = dereference(bundled);
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const parameter of [...(item.parameters ?? []), ...(op.parameters ?? [])] as Parameter[]) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      operations.push({
        operationId: op.operationId ?? `${method} ${template}`,
        method: method.toUpperCase(),
        path: template,
        deprecated: op.deprecated === true,
        parameters: [...byKey.values()],
        requestBody: op.requestBody,
        responses: op.responses ?? {},
        raw: op,
        matcher: templateToRegExp(template),
      });
    }
  }
  // Literal segments win over templated ones (e.g. /runs/download over /runs/{uuid}).
  const ordered = [...operations].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, logger: false, validateSchema: false });
  ajv.addSchema(bundled, CONTRACT_ID);
  const compiled = new Map<string, ValidateFunction>();
  const lookup = (pointer: string): any => lookupPointer(bundled, pointer);
  const follow = (pointer: string): string | undefined => {
    for (let depth = 0; depth < 20; depth++) {
      const node = lookup(pointer);
      if (node === undefined) return undefined;
      if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) return pointer;
      pointer = node.$ref;
    }
    return undefined;
  };

  return {
    document,
    operations,
    rules,
    findOperation(method, requestPath) {
      const pathname = requestPath.split('?')[0];
      return ordered.find((op) => op.method === method.toUpperCase() && op.matcher.test(pathname));
    },
    operation(operationId) {
      return operations.find((op) => op.operationId === operationId);
    },
    validateAt(pointer, value) {
      let validateFn = compiled.get(pointer);
      if (!validateFn) {
        validateFn = ajv.compile({ $ref: `${CONTRACT_ID}${pointer}` });
        compiled.set(pointer, validateFn);
      }
      return validateFn(value) ? [] : [...(validateFn.errors ?? [])];
    },
    responsePointer(op, statusKey, part) {
      const response = follow(`#/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}/responses/${escapePointer(statusKey)}`);
      if (!response) return undefined;
      if ('mediaType' in part) return follow(`${response}/content/${escapePointer(part.mediaType)}/schema`);
      const headers = lookup(`${response}/headers`) ?? {};
      const name = Object.keys(headers).find((key) => key.toLowerCase() === part.header.toLowerCase());
      if (!name) return undefined;
      const header = follow(`${response}/headers/${escapePointer(name)}`);
      return header ? follow(`${header}/schema`) : undefined;
    },
    schema(name) {
      return document.components?.schemas?.[name];
    },
    resolve(ref) {
      return lookupPointer(document, ref);
    },
  };
}

function lookupPointer(document: Record<string, any>, pointer: string): any {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part.length > 0)
    .reduce<any>((node, part) => (node === undefined || node === null ? undefined : node[part.replace(/~1/g, '/').replace(/~0/g, '~')]), document);
}

function hasExternalRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRef);
  if (!node || typeof node !== 'object') return false;
  const ref = (node as Record<string, unknown>).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return true;
  return Object.values(node).some(hasExternalRef);
}

/**
 * The contract as one document with internal references only. A single file is read directly; split files
 * are bundled by swagger-parser (an ESM module, loaded only then).
 */
async function bundle(specPath: string): Promise<Record<string, any>> {
  const document = YAML.parse(readFileSync(specPath, 'utf8'), { maxAliasCount: -1 }) as Record<string, any>;
  if (!hasExternalRef(document)) return document;
  const SwaggerParser = (await import('@apidevtools/swagger-parser')).default;
  return (await SwaggerParser.bundle(specPath)) as Record<string, any>;
}

/** Replaces internal `$ref`s by their targets; a reference that would recurse into itself stays a `$ref`. */
export function dereference(document: Record<string, any>): Record<string, any> {
  const resolved = new Map<string, unknown>();
  const active = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith('#')) {
      const { $ref: ref, ...siblings } = record as { $ref: string };
      let target: unknown;
      if (resolved.has(ref)) target = resolved.get(ref);
      else if (active.has(ref)) return node;
      else {
        active.add(ref);
        target = walk(lookupPointer(document, ref));
        active.delete(ref);
        resolved.set(ref, target);
      }
      if (Object.keys(siblings).length === 0) return target;
      return { ...(target as object), ...(walk(siblings) as object) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) out[key] = walk(value);
    return out;
  };
  return walk(document) as Record<string, any>;
}

const CONTRACT_ID = 'https://contract.invalid/openapi.json';

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The key of the declared response for a status: exact code, then `4XX`-style ranges, then `default`. */
export function declaredResponseKey(op: Operation, status: number): string | undefined {
  const range = `${String(status)[0]}XX`;
  for (const key of [String(status), range, range.toLowerCase(), 'default']) if (op.responses[key] !== undefined) return key;
  return undefined;
}

export function isStatusDeclared(op: Operation, status: number): boolean {
  const key = declaredResponseKey(op, status);
  return key !== undefined && key !== 'default';
}
