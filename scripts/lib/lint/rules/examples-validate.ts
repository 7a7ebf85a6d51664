// Examples are promises to readers and inputs to mocks: each must validate against the schema it illustrates.
// Media types, parameters and headers (`example`, `examples.*.value`) and schemas (`examples`, `example`).
// @see https://spec.openapis.org/oas/v3.1.0#example-object

import type { LintRule } from '../types';
import { createSchemaSet, describeSchemaErrors, getAtPointer } from '../../../../spec/lib';
import { isObject, type Json, type JsonObject, escapeToken } from '../../../../spec/lib';

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf', 'prefixItems'];
const SUBSCHEMAS = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

type Found = { at: string; schema: string; value: Json; label: string };

function pointer(tokens: string[]): string {
  return `#/${tokens.map(escapeToken).join('/')}`;
}

/** Examples of a media type, parameter or header object (its `schema` is what they illustrate). */
function holderExamples(node: JsonObject, at: string[], document: JsonObject, out: Found[]): void {
  if (!isObject(node.schema)) return;
  const schema = pointer([...at, 'schema']);
  if (node.example !== undefined)
    out.push({ at: pointer([...at, 'example']), schema, value: node.example, label: 'example' });
  if (isObject(node.examples)) {
    for (const [name, raw] of Object.entries(node.examples)) {
      const example = isObject(raw) && typeof raw.$ref === 'string' ? getAtPointer(document, raw.$ref) : raw;
      if (isObject(example) && example.value !== undefined) {
        out.push({ at: pointer([...at, 'examples', name]), schema, value: example.value, label: `example "${name}"` });
      }
    }
  }
}

function schemaExamples(node: unknown, at: string[], out: Found[], seen: Set<unknown>): void {
  if (!isObject(node) || seen.has(node) || typeof node.$ref === 'string') return;
  seen.add(node);
  const self = pointer(at);
  if (Array.isArray(node.examples))
    node.examples.forEach((value, i) =>
      out.push({ at: pointer([...at, 'examples', String(i)]), schema: self, value, label: `schema example ${i + 1}` }),
    );
  if (node.example !== undefined)
    out.push({ at: pointer([...at, 'example']), schema: self, value: node.example, label: 'schema example' });
  for (const key of SUBSCHEMA_MAPS) {
    if (isObject(node[key]))
      for (const [name, sub] of Object.entries(node[key] as JsonObject))
        schemaExamples(sub, [...at, key, name], out, seen);
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (Array.isArray(node[key]))
      (node[key] as Json[]).forEach((sub, i) => schemaExamples(sub, [...at, key, String(i)], out, seen));
  }
  for (const key of SUBSCHEMAS) schemaExamples(node[key], [...at, key], out, seen);
}

/** Walk the bundled document (internal `$ref`s kept), visiting each place examples can live once. */
export function findExamples(document: JsonObject): Found[] {
  const out: Found[] = [];
  const seen = new Set<unknown>();
  const visitHolder = (node: unknown, at: string[]) => {
    if (!isObject(node) || typeof node.$ref === 'string') return;
    holderExamples(node, at, document, out);
    schemaExamples(node.schema, [...at, 'schema'], out, seen);
    if (isObject(node.content))
      for (const [type, media] of Object.entries(node.content)) visitHolder(media, [...at, 'content', type]);
  };
  const visitOperation = (op: unknown, at: string[]) => {
    if (!isObject(op)) return;
    if (Array.isArray(op.parameters)) op.parameters.forEach((p, i) => visitHolder(p, [...at, 'parameters', String(i)]));
    if (isObject(op.requestBody)) visitHolder(op.requestBody, [...at, 'requestBody']);
    if (isObject(op.responses)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!isObject(response) || typeof response.$ref === 'string') continue;
        visitHolder(response, [...at, 'responses', status]);
        if (isObject(response.headers))
          for (const [name, header] of Object.entries(response.headers))
            visitHolder(header, [...at, 'responses', status, 'headers', name]);
      }
    }
  };
  for (const root of ['paths', 'webhooks']) {
    for (const [path, item] of Object.entries(isObject(document[root]) ? (document[root] as JsonObject) : {})) {
      if (!isObject(item)) continue;
      if (Array.isArray(item.parameters))
        item.parameters.forEach((p, i) => visitHolder(p, [root, path, 'parameters', String(i)]));
      for (const [method, op] of Object.entries(item))
        if (method !== 'parameters') visitOperation(op, [root, path, method]);
    }
  }
  const components = isObject(document.components) ? document.components : {};
  for (const [name, schema] of Object.entries(isObject(components.schemas) ? components.schemas : {}))
    schemaExamples(schema, ['components', 'schemas', name], out, seen);
  for (const kind of ['parameters', 'headers', 'requestBodies']) {
    for (const [name, node] of Object.entries(isObject(components[kind]) ? (components[kind] as JsonObject) : {}))
      visitHolder(node, ['components', kind, name]);
  }
  for (const [name, response] of Object.entries(isObject(components.responses) ? components.responses : {})) {
    visitOperation({ responses: { [name]: response } }, ['components']);
  }
  return out;
}

export const examplesValidate: LintRule = {
  id: 'examples-validate-against-their-schemas',
  contractRule: 'response-conformance',
  description:
    'Every example (of a media type, parameter, header or schema) validates against the schema it illustrates.',
  check(ctx) {
    const schemas = createSchemaSet(ctx.bundled, { allErrors: true });
    for (const found of findExamples(ctx.bundled)) {
      let errors;
      try {
        errors = schemas.errorsAt(found.schema, found.value);
      } catch (error) {
        ctx.reportAt(
          found.at,
          `${found.label} cannot be checked: its schema does not compile (${(error as Error).message.split('\n')[0]})`,
        );
        continue;
      }
      if (errors.length > 0) {
        ctx.reportAt(
          found.at,
          `${found.label} ${JSON.stringify(found.value).slice(0, 60)} does not validate against ${found.schema} (${describeSchemaErrors(errors, 'value')}): add a value that does, or correct the schema`,
        );
      }
    }
  },
};
