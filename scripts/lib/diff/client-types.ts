// Do two documents generate the same client types? openapi-typescript with the options that shape the
// generated types (generators/type-options.ts, as npm run generate uses them), printed without comments
// (descriptions, `@deprecated`, formats and patterns are comments there). A separate process: openapi-typescript loads ES modules jest cannot.
// npx tsx scripts/lib/diff/client-types.ts <pairs.json>   pairs: [{ id, base, head }] (JSON files); prints [{ id, moved } or { id, error }]

import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { TYPE_SHAPE } from '../../../generators/type-options';

const printer = ts.createPrinter({ removeComments: true });

export async function clientTypesOf(file: string): Promise<string> {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(doc, TYPE_SHAPE);
  const source = ts.createSourceFile('types.ts', astToString(ast), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return printer.printFile(source);
}

async function main(): Promise<void> {
  const pairs = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Array<{ id: string; base: string; head: string }>;
  const out: Array<{ id: string; moved?: boolean; error?: string }> = [];
  for (const { id, base, head } of pairs) {
    try {
      out.push({ id, moved: (await clientTypesOf(base)) !== (await clientTypesOf(head)) });
    } catch (error) {
      // A fragment openapi-typescript cannot read (a path item removed to null) proves nothing either way.
      out.push({ id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
