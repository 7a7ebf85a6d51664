// The table of diff fixture pairs (scripts/fixtures/diff/cases.yaml): each case places a `base` and a `head`
// fragment at one place of the template spec, so one small entry is a full base/head pair of documents.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Change } from './change';
import { compareSpecs } from './compare-operations';
import { asObject, isObject, type Json, type JsonObject } from '../../../spec/lib/json';
import { parseDocumentText } from '../../../spec/lib/load';

export const FIXTURES_DIR = join(__dirname, '..', '..', 'fixtures', 'diff');
export const CASES_FILE = join(FIXTURES_DIR, 'cases.yaml');
const TEMPLATE_FILE = join(FIXTURES_DIR, 'no-change', 'base.yaml');

export type FixtureCase = {
  id: string;
  at: Place;
  /** Placed on both sides first (where the place merges, `document` and `operation`), so base and head say only what differs. */
  both?: Json;
  base?: Json;
  head?: Json;
  want: string;
  alsoBreaking?: string[];
};

type Place = keyof typeof PLACES;

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Keys whose value is null are deleted; objects merge recursively; anything else replaces. */
function deepMerge(target: JsonObject, patch: JsonObject): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else if (isObject(v) && isObject(target[k])) deepMerge(target[k] as JsonObject, v);
    else target[k] = clone(v);
  }
}

const get = (doc: JsonObject) => asObject(asObject(asObject(doc.paths)['/things/{uuid}']).get);
const post = (doc: JsonObject) => asObject(asObject(asObject(doc.paths)['/things']).post);
const ok = (doc: JsonObject) => asObject(asObject(get(doc).responses)['200']);
const json = (content: unknown) => asObject(asObject(content)['application/json']);
const params = (op: JsonObject) => {
  if (!Array.isArray(op.parameters)) op.parameters = [];
  return op.parameters as Json[];
};
/** Set or delete (fragment undefined) one key of an object. */
const put = (target: JsonObject, key: string, fragment: Json | undefined) => {
  if (fragment === undefined) delete target[key];
  else target[key] = clone(fragment);
};

/** Where a fragment goes in the template (GET /things/{uuid} reads a thing, POST /things creates one). */
const PLACES = {
  'request-body': (d: JsonObject, f?: Json) => put(json(asObject(post(d).requestBody).content), 'schema', f),
  'request-property': (d: JsonObject, f?: Json) =>
    put(asObject(asObject(json(asObject(post(d).requestBody).content).schema).properties), 'field', f),
  'request-body-object': (d: JsonObject, f?: Json) => put(post(d), 'requestBody', f),
  'request-body-object-get': (d: JsonObject, f?: Json) => put(get(d), 'requestBody', f),
  'request-content': (d: JsonObject, f?: Json) => put(asObject(post(d).requestBody), 'content', f),
  'request-parameter': (d: JsonObject, f?: Json) => {
    if (f !== undefined) params(get(d)).push({ name: 'filter', in: 'query', schema: clone(f) });
  },
  'request-parameter-property': (d: JsonObject, f?: Json) => {
    if (f !== undefined)
      params(get(d)).push({
        name: 'filter',
        in: 'query',
        style: 'deepObject',
        explode: true,
        schema: { type: 'object', properties: { field: clone(f) } },
      });
  },
  'request-header-property': (d: JsonObject, f?: Json) => {
    if (f !== undefined)
      params(get(d)).push({
        name: 'X-Filter',
        in: 'header',
        schema: { type: 'object', properties: { field: clone(f) } },
      });
  },
  'request-header-object': (d: JsonObject, f?: Json) => {
    if (f !== undefined) params(get(d)).push({ name: 'X-Filter', in: 'header', schema: clone(f) });
  },
  parameter: (d: JsonObject, f?: Json) => {
    if (f !== undefined) params(get(d)).push(clone(f));
  },
  'path-parameter': (d: JsonObject, f?: Json) => {
    if (f !== undefined) asObject(asObject(d.paths)['/things/{uuid}']).parameters = [clone(f)];
  },
  'response-body': (d: JsonObject, f?: Json) => put(json(ok(d).content), 'schema', f),
  'response-property': (d: JsonObject, f?: Json) =>
    put(asObject(asObject(asObject(asObject(json(ok(d).content).schema).properties).thing).properties), 'field', f),
  'response-header': (d: JsonObject, f?: Json) => {
    if (f !== undefined) asObject(ok(d).headers)['X-Field'] = { schema: clone(f) };
  },
  'response-header-object': (d: JsonObject, f?: Json) => put(asObject(ok(d).headers), 'X-Field', f),
  'response-content': (d: JsonObject, f?: Json) => put(ok(d), 'content', f),
  responses: (d: JsonObject, f?: Json) => put(get(d), 'responses', f),
  operation: (d: JsonObject, f?: Json) => {
    if (isObject(f)) deepMerge(get(d), f);
  },
  'operation-delete': (d: JsonObject, f?: Json) => {
    if (isObject(f))
      asObject(asObject(d.paths)['/things/{uuid}']).delete = {
        operationId: 'deleteThing',
        responses: { 200: { description: 'Deleted' } },
        ...clone(f),
      };
  },
  document: (d: JsonObject, f?: Json) => {
    if (f === 'RENAME_PATH') {
      // A new path parameter makes another endpoint: /things/{uuid} → /things/{uuid}/{version}.
      const paths = asObject(d.paths);
      const item = clone(asObject(paths['/things/{uuid}']));
      params(asObject(item.get)).push({ name: 'version', in: 'path', required: true, schema: { type: 'string' } });
      delete paths['/things/{uuid}'];
      paths['/things/{uuid}/{version}'] = item;
    } else if (isObject(f)) deepMerge(d, f);
  },
} satisfies Record<string, (doc: JsonObject, fragment?: Json) => void>;

let loaded: FixtureCase[] | undefined;

export function loadCases(): FixtureCase[] {
  if (loaded) return loaded;
  const cases = parseDocumentText(readFileSync(CASES_FILE, 'utf8')) as FixtureCase[];
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`fixture case "${c.id}" is defined twice`);
    if (!(c.at in PLACES)) throw new Error(`fixture case "${c.id}": unknown place "${c.at}"`);
    ids.add(c.id);
  }
  loaded = cases;
  return cases;
}

let template: JsonObject | undefined;

/** The base and head documents of a case. */
export function documentsOf(c: FixtureCase): { base: JsonObject; head: JsonObject } {
  template ??= parseDocumentText(readFileSync(TEMPLATE_FILE, 'utf8')) as JsonObject;
  const base = clone(template);
  const head = clone(template);
  if (c.both !== undefined) {
    PLACES[c.at](base, c.both);
    PLACES[c.at](head, c.both);
  }
  PLACES[c.at](base, c.base);
  PLACES[c.at](head, c.head);
  return { base, head };
}

export function diffCase(c: FixtureCase, now: Date): Change[] {
  const { base, head } = documentsOf(c);
  return compareSpecs(base, head, { now });
}
