/**
 * `npm run generate`: writes TypeScript types for the contract with openapi-typescript into generators/generated/.
 * `npm run generate -- --check`: writes nothing, exits 1 when the committed output is stale (part of `npm test`).
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { resolve, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = resolve(__dirname, '..');
const specPath = resolve(root, 'spec/openapi.yaml');
const outDir = resolve(root, 'generators/generated');
const outPath = resolve(outDir, 'openapi.ts');

const header = [
  '/**',
  ' * Generated from spec/openapi.yaml by `npm run generate` (openapi-typescript). Do not edit: change the spec',
  ' * and regenerate; `npm test` fails while this file is stale.',
  ' */',
  '',
].join('\n');

export async function renderTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(specPath), {
    // Response objects are open unless the spec says otherwise, as the contract requires.
    additionalProperties: false,
    // Free-form objects (`input`, action `config`, query `rows`) take any value, not `Record<string, never>`.
    emptyObjectsUnknown: true,
    alphabetize: false,
    exportType: false,
    immutable: false,
  });
  return header + astToString(ast);
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const rendered = await renderTypes();
  const current = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
  const where = relative(root, outPath);
  if (check) {
    if (current !== rendered) {
      console.error(`${where} is stale: run \`npm run generate\` and commit the result.`);
      process.exitCode = 1;
      return;
    }
    console.log(`${where} is up to date with spec/openapi.yaml.`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(outPath, rendered);
  console.log(`wrote ${where}`);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
