/**
 * `npm run generate`: writes TypeScript types for the contract with openapi-typescript into generators/generated/,
 * and beside them the compile-fail proof of the request body types (request-body-typos.ts), a typed call per
 * operation (operation-calls.ts), and the bundled
 * contract the mock's web-standard core reads as prebuilt data (mocks/contract/document.generated.ts), and the suite's
 * registries derived from its checks and fixtures (registries.ts).
 * `npm run generate -- --check`: writes nothing, exits 1 when the committed output is stale (part of `npm test`).
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { resolve, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadContract } from '../spec/lib';
import { GENERATED_PATH as MOCK_DOCUMENT_PATH, renderDocumentModule } from '../mocks/contract/generate';
import { renderBodyTypos } from './request-body-typos';
import { renderOperationCalls } from './operation-calls';
import { renderRegistries } from './registries';
import { TYPE_SHAPE } from './type-options';
import { REQUEST_BODY_COMMENT, REQUEST_BODY_DECLARATION, wrapRequestBody } from './request-body-types';

const root = resolve(__dirname, '..');
const specPath = resolve(root, 'spec/openapi.yaml');
const outDir = resolve(root, 'generators/generated');

const header = [
  '/**',
  ' * Generated from spec/openapi.yaml by `npm run generate` (openapi-typescript). Do not edit: change the spec',
  ' * and regenerate; `npm test` fails while this file is stale.',
  ' */',
  '',
].join('\n');

export async function renderTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(specPath), {
    ...TYPE_SHAPE,
    exportType: false,
    immutable: false,
    // Request bodies refuse fields the client misspelled (see request-body-types.ts); responses stay as they are.
    inject: REQUEST_BODY_DECLARATION,
    postTransform: (type, { path }) => wrapRequestBody(type, path),
  });
  // The printer drops comments of injected declarations; the helper's is put back.
  return header + astToString(ast).replace(/^export type RequestBody</m, `${REQUEST_BODY_COMMENT}\n$&`);
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const outputs: { file: string; text: string; source?: string }[] = [
    { file: 'openapi.ts', text: await renderTypes() },
    { file: 'request-body-typos.ts', text: renderBodyTypos(loadContract()) },
    { file: 'operation-calls.ts', text: renderOperationCalls(loadContract()) },
    // The mock's web-standard core reads the contract as prebuilt data (no file system where it runs).
    { file: MOCK_DOCUMENT_PATH, text: renderDocumentModule() },
    // The checks list, the fixtures index and the README's checks table (absolute paths).
    ...(await renderRegistries()),
  ];
  for (const { file, text, source = 'spec/openapi.yaml' } of outputs) {
    const outPath = resolve(outDir, file);
    const current = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
    const where = relative(root, outPath);
    if (check) {
      if (current !== text) {
        console.error(
          `${where} is stale (it is derived from ${source}): run \`npm run generate\` and commit the result.`,
        );
        process.exitCode = 1;
      } else console.log(`${where} is up to date with ${source}.`);
      continue;
    }
    mkdirSync(outDir, { recursive: true });
    writeFileSync(outPath, text);
    console.log(`wrote ${where}`);
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
