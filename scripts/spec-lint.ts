// npm run spec:lint -- [<spec file>...] [--json]
// Contract rules of the Workspace Automation API on top of `redocly lint` (see scripts/lib/lint/rules/).
// Exit 1 on any problem, 2 when a file cannot be read.

import { relative } from 'node:path';
import { formatProblems, lintSpec } from './lib/lint/run-lint';
import { DEFAULT_SPEC_PATH } from './lib/spec/load-spec';

function main(argv: string[]): number {
  const json = argv.includes('--json');
  const files = argv.filter((a) => !a.startsWith('--'));
  const results = (files.length > 0 ? files : [DEFAULT_SPEC_PATH]).map((file) => lintSpec(file));
  if (json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else for (const r of results) process.stdout.write(formatProblems(r, relative(process.cwd(), r.file) || r.file));
  return results.some((r) => r.problems.length > 0) ? 1 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`spec:lint: ${(error as Error).message}`);
  process.exitCode = 2;
}
