/**
 * `npm run spec:check`: the contract must pass four independent validators with 0 errors.
 * 1. @apidevtools/swagger-parser: structure and every $ref resolves.
 * 2. The official OAS 3.1 JSON Schemas, Schema Objects included (swagger-parser skips those for 3.x):
 *    - schema-draft-2020-12: the document as written (its jsonSchemaDialect is draft 2020-12);
 *    - schema-base: a copy carrying the OAS base dialect, which schema-base pins.
 * 3. `redocly lint` with its `recommended-strict` rules (redocly.yaml: waivers, each with its reason).
 * 4. Spectral with its `spectral:oas` ruleset (.spectral.yaml: waivers, each with its reason), hints included.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parseDocumentText, SpecRefused } from '../spec/lib';

const root = resolve(__dirname, '..');
const specPath = process.argv[2] ? resolve(process.argv[2]) : resolve(root, 'spec/openapi.yaml');

type Outcome = { validator: string; errors: string[] };

async function checkReferences(): Promise<Outcome> {
  try {
    await SwaggerParser.validate(specPath);
    return { validator: 'swagger-parser (structure and references)', errors: [] };
  } catch (error) {
    return { validator: 'swagger-parser (structure and references)', errors: [(error as Error).message] };
  }
}

type OutputUnit = {
  valid: boolean;
  keyword?: string;
  instanceLocation?: string;
  absoluteKeywordLocation?: string;
  errors?: OutputUnit[];
};

function flatten(unit: OutputUnit, into: string[] = []): string[] {
  if (!unit.valid && (!unit.errors || unit.errors.length === 0)) {
    into.push(`${unit.instanceLocation ?? '#'}: ${unit.keyword ?? 'invalid'} (${unit.absoluteKeywordLocation ?? ''})`);
  }
  for (const child of unit.errors ?? []) flatten(child, into);
  return into;
}

async function checkOasSchemas(): Promise<Outcome[]> {
  // ESM-only package: loaded dynamically from this CommonJS script.
  const { validate } = (await import('@hyperjump/json-schema/openapi-3-1')) as {
    validate: (schemaUri: string, instance: unknown, outputFormat?: string) => Promise<OutputUnit>;
  };
  const document = parseDocumentText(readFileSync(specPath, 'utf8'), specPath) as Record<string, unknown>;
  const asWritten = await validate('https://spec.openapis.org/oas/3.1/schema-draft-2020-12', document, 'BASIC');
  const baseCopy = { ...document, jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base' };
  const withBase = await validate('https://spec.openapis.org/oas/3.1/schema-base', baseCopy, 'BASIC');
  return [
    {
      validator: 'OAS 3.1 schema (draft 2020-12 dialect, Schema Objects included)',
      errors: asWritten.valid ? [] : flatten(asWritten),
    },
    {
      validator: 'OAS 3.1 schema-base (OAS base dialect, Schema Objects included)',
      errors: withBase.valid ? [] : flatten(withBase),
    },
  ];
}

function checkRedocly(): Outcome {
  const args = ['redocly', 'lint', specPath, '--format=stylish'];
  if (existsSync(resolve(root, 'redocly.yaml'))) args.push('--config', resolve(root, 'redocly.yaml'));
  const run = spawnSync('npx', args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const output = `${run.stdout}\n${run.stderr}`;
  const errors =
    run.status === 0
      ? []
      : output
          .split('\n')
          .filter((line) => /error/i.test(line))
          .slice(0, 50);
  if (run.status !== 0 && errors.length === 0) errors.push(output.trim().slice(-2000));
  return { validator: 'redocly lint', errors };
}

function checkSpectral(): Outcome {
  const args = [
    'spectral',
    'lint',
    specPath,
    '--ruleset',
    resolve(root, '.spectral.yaml'),
    '--fail-severity=hint',
    '--format=text',
  ];
  const run = spawnSync('npx', args, { cwd: root, encoding: 'utf8' });
  const output = `${run.stdout}\n${run.stderr}`;
  const errors =
    run.status === 0
      ? []
      : output
          .split('\n')
          .filter((line) => /\b(error|warning|information|hint)\b/.test(line))
          .slice(0, 50);
  if (run.status !== 0 && errors.length === 0) errors.push(output.trim().slice(-2000));
  return { validator: 'spectral lint (spectral:oas)', errors };
}

async function main(): Promise<void> {
  const outcomes = [await checkReferences(), ...(await checkOasSchemas()), checkRedocly(), checkSpectral()];
  let failed = 0;
  for (const { validator, errors } of outcomes) {
    console.log(`${errors.length === 0 ? 'ok  ' : 'FAIL'} ${validator}: ${errors.length} error(s)`);
    for (const error of errors) console.log(`     ${error}`);
    if (errors.length > 0) failed += 1;
  }
  console.log(
    failed === 0
      ? `spec:check: ${specPath} passes all ${outcomes.length} validators`
      : `spec:check: ${failed} validator(s) failed`,
  );
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  // A spec the loader refuses (its bounds, its syntax): the one escaped line, exit 2, as lint, docs and diff do.
  if (!(error instanceof SpecRefused)) throw error;
  process.stderr.write(`spec:check: ${error.message}\n`);
  process.exit(2);
});
