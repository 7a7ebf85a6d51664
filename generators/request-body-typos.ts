/**
 * The compile-fail proof of the request body types: for every field of every operation's JSON request body, two
 * openapi-fetch calls with the field misspelled (letters swapped, capitals wrong), each under `@ts-expect-error` so
 * `tsc` fails the day it compiles, and the same call spelled right, which must compile (so the expected error
 * cannot come from something else).
 * Rendered from the contract into generators/generated/request-body-typos.ts by `npm run generate`.
 */
import { asArray, asObject, type Contract, type JsonObject, type Operation } from '../spec/lib';

export type BodyTypo = { operationId: string; method: string; path: string; field: string; misspelled: string };

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

function jsonBodySchema(operation: Operation): JsonObject | undefined {
  const media = Object.entries(operation.requestBody?.content ?? {}).find(([type]) => JSON_MEDIA.test(type));
  return media?.[1].schema;
}

/** The most common typo: two neighbouring letters swapped (`name` → `nmae`); else a letter doubled. */
export function misspell(field: string, taken: ReadonlySet<string>): string {
  for (let i = 1; i + 1 < field.length; i++) {
    if (field[i] === field[i + 1]) continue;
    const swapped = field.slice(0, i) + field[i + 1] + field[i] + field.slice(i + 2);
    if (!taken.has(swapped)) return swapped;
  }
  return `${field}${field.slice(-1) || 'x'}`;
}

/** The other common slip: an acronym in capitals (`workflowUuid` → `workflowUUID`), else a capital first letter. */
export function miscase(field: string, taken: ReadonlySet<string>): string {
  const acronyms = field.replace(/(Uuid|Url|Id|Sso|Mcp|Sql)(?=[A-Z]|s?$)/g, (word) => word.toUpperCase());
  if (acronyms !== field && !taken.has(acronyms)) return acronyms;
  const capital = field.charAt(0).toUpperCase() + field.slice(1);
  return capital !== field && !taken.has(capital) ? capital : `${field}_`;
}

/** A TypeScript expression of a value the schema's generated type accepts (not necessarily one the server does). */
export function sampleExpression(schema: JsonObject): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  const enumValues = asArray(schema.enum);
  if (enumValues.length > 0) return JSON.stringify(enumValues[0]);
  const branches = [...asArray(schema.anyOf), ...asArray(schema.oneOf)];
  if (branches.length > 0) return sampleExpression(asObject(branches[0]));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) return 'null';
  if (types.includes('string')) return "''";
  if (types.includes('integer') || types.includes('number')) return '0';
  if (types.includes('boolean')) return 'false';
  if (types.includes('array')) return '[]';
  return objectExpression(schema, asArray(schema.required).map(String));
}

/** A property name as written in an object literal (`name`, `'Idempotency-Key'`). */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function objectExpression(schema: JsonObject, fields: string[]): string {
  const properties = asObject(schema.properties);
  const members = fields.map((name) => `${propertyKey(name)}: ${sampleExpression(asObject(properties[name]))}`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}

/** Every misspelled field the file checks, derived from the contract's request bodies. */
export function listBodyTypos(contract: Contract): BodyTypo[] {
  return contract.operations.flatMap((operation) => {
    const schema = jsonBodySchema(operation);
    if (!schema) return [];
    const fields = Object.keys(asObject(schema.properties));
    const taken = new Set(fields);
    return fields.flatMap((field) =>
      [misspell(field, taken), miscase(field, taken)].map((misspelled) => ({
        operationId: operation.operationId,
        method: operation.method,
        path: operation.path,
        field,
        misspelled,
      })),
    );
  });
}

/** `params` an operation cannot be called without (required path, query and header parameters). */
function paramsExpression(operation: Operation): string {
  const byLocation = new Map<string, string[]>();
  for (const parameter of operation.parameters.filter((p) => p.required)) {
    const members = byLocation.get(parameter.in) ?? [];
    members.push(`${propertyKey(parameter.name)}: ${sampleExpression(parameter.schema)}`);
    byLocation.set(parameter.in, members);
  }
  const locations = [...byLocation].map(([where, members]) => `${where}: { ${members.join(', ')} }`);
  return locations.length === 0 ? '' : `params: { ${locations.join(', ')} }, `;
}

export function renderBodyTypos(contract: Contract): string {
  const lines = [
    '/**',
    ' * Generated from spec/openapi.yaml by `npm run generate` (generators/request-body-typos.ts). Do not edit.',
    ' * Every field of every request body, misspelled: each call must fail to compile, and the same call spelled',
    ' * right must compile. `npm run typecheck` compiles this file.',
    ' */',
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './openapi';",
    '',
    "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1' });",
    '',
    'export async function sendMisspelledFields(): Promise<void> {',
  ];
  for (const typo of listBodyTypos(contract)) {
    const operation = contract.operation(typo.operationId) as Operation;
    const schema = jsonBodySchema(operation) as JsonObject;
    const required = asArray(schema.required).map(String);
    const field = sampleExpression(asObject(asObject(schema.properties)[typo.field]));
    const right = objectExpression(schema, [...new Set([...required, typo.field])]);
    const call = (body: string) =>
      `  await api.${typo.method}(${JSON.stringify(typo.path)}, { ${paramsExpression(operation)}body: ${body} });`;
    lines.push(
      `  // ${typo.operationId}: \`${typo.field}\` written \`${typo.misspelled}\``,
      '  // @ts-expect-error',
      call(`{ ${propertyKey(typo.misspelled)}: ${field} }`),
      call(right),
    );
  }
  lines.push('}', '');
  return lines.join('\n');
}
