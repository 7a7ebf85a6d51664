// npm run spec:diff -- <base> [<head>] [--json] [--now <date>] [--no-cross-check] [--spec <path>] [--output <file>]
// Sides are files or git refs (a ref reads spec/openapi.yaml and its split files at that commit); head defaults to
// the working tree. Exit 1 when a breaking change alters an existing /v1 operation, 2 on usage or load errors.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { renderMarkdown } from './lib/diff/render-markdown';
import { runDiff } from './lib/diff/run-diff';

const USAGE = 'usage: npm run spec:diff -- <base> [<head>] [--json] [--now <date>] [--no-cross-check] [--spec <path>] [--output <file>]';

async function main(argv: string[]): Promise<number> {
  const positional: string[] = [];
  let json = false;
  let crossCheck = true;
  let now: Date | undefined;
  let specPath: string | undefined;
  let output: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--no-cross-check') crossCheck = false;
    else if (arg === '--now') now = new Date(argv[++i] ?? '');
    else if (arg === '--spec') specPath = argv[++i];
    else if (arg === '--output' || arg === '-o') output = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      return 0;
    } else if (arg.startsWith('-')) {
      console.error(`unknown option ${arg}\n${USAGE}`);
      return 2;
    } else positional.push(arg);
  }
  if (positional.length < 1 || positional.length > 2 || (now && Number.isNaN(now.getTime()))) {
    console.error(USAGE);
    return 2;
  }
  const report = await runDiff({ base: positional[0], head: positional[1], cwd: process.cwd(), specPath, now, crossCheck });
  const text = json ? `${JSON.stringify(report, null, 2)}\n` : renderMarkdown(report);
  if (output) {
    mkdirSync(dirname(resolve(output)), { recursive: true });
    writeFileSync(output, text);
  }
  process.stdout.write(text);
  return report.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: Error) => {
    console.error(`spec:diff: ${error.message}`);
    process.exitCode = 2;
  },
);
