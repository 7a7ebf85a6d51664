/**
 * One generated openapi-fetch call per operation of the contract: its path, its required parameters and its JSON
 * request body (required fields) written as the generated types accept them, keyed by operation id in a table
 * typed over `operations`, so `tsc` proves every operation callable as the contract describes it and a missing or
 * extra operation fails to compile. The hand calls of typed-client.ts read answers with types for a representative
 * set; these cover every operation.
 * Rendered from the contract into generators/generated/operation-calls.ts by `npm run generate`.
 */
import { jsonContent, type Contract, type Operation } from '../spec/lib';
import { propertyKey, sampleExpression } from './request-body-typos';

/** The id every generated call puts in its path (a path value must not be empty: `…/runs/` names no run). */
export const SAMPLE_PATH_ID = '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b';

const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;

/** A path parameter's value: the sample id (`ID`) for a string, else what its schema's type accepts. */
function pathValue(schema: Operation['parameters'][number]['schema']): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('string') && !('enum' in schema) && !('const' in schema) ? 'ID' : sampleExpression(schema);
}

/** The call's second argument: required parameters by location and the JSON body, or nothing when neither. */
export function initExpression(operation: Operation): string | undefined {
  const members: string[] = [];
  const params = LOCATIONS.flatMap((location) => {
    const required = operation.parameters.filter((p) => p.in === location && p.required);
    if (required.length === 0) return [];
    const values = required.map(
      (p) => `${propertyKey(p.name)}: ${location === 'path' ? pathValue(p.schema) : sampleExpression(p.schema)}`,
    );
    return [`${location}: { ${values.join(', ')} }`];
  });
  if (params.length > 0) members.push(`params: { ${params.join(', ')} }`);
  const body = jsonContent(operation.requestBody?.content)?.schema;
  if (body) members.push(`body: ${sampleExpression(body)}`);
  return members.length === 0 ? undefined : `{ ${members.join(', ')} }`;
}

/** One member of the table: the operation id and its call. */
export function callMember(operation: Operation): string {
  const init = initExpression(operation);
  const args = [JSON.stringify(operation.path), ...(init ? [init] : [])].join(', ');
  return `  ${propertyKey(operation.operationId)}: async (client) => (await client.${operation.method}(${args})).response,`;
}

export function renderOperationCalls(contract: Pick<Contract, 'operations'>): string {
  return [
    '/**',
    ' * Generated from spec/openapi.yaml by `npm run generate` (generators/operation-calls.ts). Do not edit.',
    ' * One call per operation through openapi-fetch, its path, required parameters and body typed against',
    ' * ./openapi: `npm run typecheck` proves every operation callable, and the table misses none (typed over',
    ' * `operations`). generators/typed-client.ts runs them.',
    ' */',
    "import type createClient from 'openapi-fetch';",
    "import type { operations, paths } from './openapi';",
    '',
    'type Client = ReturnType<typeof createClient<paths>>;',
    '',
    `const ID = ${JSON.stringify(SAMPLE_PATH_ID)};`,
    '',
    '/** Each operation called once with what it requires; resolves to the response. */',
    'export const OPERATION_CALLS: { [K in keyof operations]: (client: Client) => Promise<Response> } = {',
    ...contract.operations.map(callMember),
    '};',
    '',
  ].join('\n');
}
