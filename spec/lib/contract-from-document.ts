// The contract over a bundled document in memory: everything read from it. No file system (the mock's
// web-standard core builds on it); loadContract (contract.ts) reads it from a file.

import { readConstants, type ContractConstants } from './constants';
import { serverBasePath } from './document';
import { asArray, asObject, isObject, type JsonObject } from './json';
import { dereferenceDocument } from './dereference';
import { listOperations, type Operation } from './operations';
import { formatPointer, getAtPointer, parsePointer } from './pointer';
import { createRouter, type Router } from './router';
import { createSchemaSet, type SchemaOptions, type SchemaSet } from './schemas';
import { createResponseValidator, type ObservedResponse, type Violation } from './validate-response';

export type Rule = { id: string; text: string; node: JsonObject };

export type Contract = {
  /** The entry file, when loaded from one. */
  path?: string;
  /** The document with every `$ref` internal (split files bundled); pointers below point into it. */
  document: JsonObject;
  /** Dereferenced, every reference to a target the same object; recursive schemas are circular objects. */
  readonly resolved: JsonObject;
  /** Dereferenced, a reference that would recurse kept as `$ref` (for walkers that cannot stop on their own). */
  readonly dereferenced: JsonObject;
  /** The node of the bundled document at a pointer. */
  at(pointer: string): unknown;
  /** The dereferenced node (cycles kept as `$ref`) at a pointer, following the `$ref` there. */
  resolve(pointer: string): unknown;
  operations: Operation[];
  operation(operationId: string): Operation | undefined;
  route: Router;
  /** The operation a request goes to, or undefined (404 and 405 alike). */
  findOperation(method: string, path: string): Operation | undefined;
  /** The path of the first server URL (`/v1`), without origin or trailing slash; '' when there is none. */
  basePath: string;
  /** x-rules entries, each a rule the suite cites. */
  rules: Rule[];
  constants: ContractConstants;
  /** Compiled schemas; one set per option combination, made on first use. */
  schemas(options?: SchemaOptions): SchemaSet;
  validateResponse(observed: ObservedResponse): Violation[];
};

/** A contract over a document already in memory (fixtures, documents from git history). */
export function contractFromDocument(input: object, path?: string): Contract {
  const document = input as JsonObject;
  let resolved: JsonObject | undefined;
  let dereferenced: JsonObject | undefined;
  const derefCache = new Map<string, JsonObject>();
  const getDereferenced = () => (dereferenced ??= dereferenceDocument(document, 'ref'));
  const deref = (pointer: string): JsonObject => {
    let node = derefCache.get(pointer);
    if (!node) derefCache.set(pointer, (node = asObject(getAtPointer(getDereferenced(), pointer))));
    return node;
  };
  const operations = listOperations(document, deref);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const route = createRouter(operations);
  const constants = readConstants(document, operations);
  const schemaSets = new Map<string, SchemaSet>();
  const schemas = (options: SchemaOptions = {}) => {
    const key = `${options.coerce ? 'c' : ''}${options.allErrors ? 'a' : ''}`;
    let set = schemaSets.get(key);
    if (!set) schemaSets.set(key, (set = createSchemaSet(document, options)));
    return set;
  };
  let validator: ((observed: ObservedResponse) => Violation[]) | undefined;
  const rules = asArray(document['x-rules'])
    .filter(isObject)
    .filter((r) => typeof r.id === 'string' && typeof r.text === 'string')
    .map((r) => ({ id: r.id as string, text: r.text as string, node: r }));
  return {
    path,
    document,
    get resolved() {
      return (resolved ??= dereferenceDocument(document, 'object'));
    },
    get dereferenced() {
      return getDereferenced();
    },
    at: (pointer) => getAtPointer(document, pointer),
    resolve: (pointer) => getAtPointer(getDereferenced(), formatPointer(parsePointer(pointer))),
    operations,
    operation: (id) => byId.get(id),
    route,
    findOperation(method, path) {
      const found = route(method, path);
      return found.kind === 'match' ? found.operation : undefined;
    },
    basePath: serverBasePath(document),
    rules,
    constants,
    schemas,
    validateResponse: (observed) =>
      (validator ??= createResponseValidator({
        route,
        schemas: schemas({ allErrors: true }),
        rateLimitHeaders: constants.rateLimitHeaders,
      }))(observed),
  };
}
