/**
 * Prints an OpenAPI document dereferenced by swagger-parser as JSON (cycles left as $ref), for tests that run
 * where swagger-parser's ESM dependencies cannot load (jest's CommonJS runtime).
 * Usage: tsx generators/arbitraries/dereference-spec.ts spec/openapi.yaml
 */
import SwaggerParser from '@apidevtools/swagger-parser';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: dereference-spec.ts <openapi.yaml>');
  const api = await SwaggerParser.dereference(file, { dereference: { circular: 'ignore' } });
  process.stdout.write(JSON.stringify(api));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
