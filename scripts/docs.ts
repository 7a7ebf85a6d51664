// npm run docs -- [<spec>] [--output <file>] [--no-redoc]
// Builds the offline single-file API reference, reports/docs/index.html (open it from disk), and the Redoc page
// reports/docs/redoc.html (serve it). reports/ is not committed. Exit 2 when the loader refuses the spec (a $ref
// outside its folder or on the network, a bound exceeded: one line saying which file and pointer), 1 on other errors.

import { relative } from 'node:path';
import { buildDocs } from './lib/docs/build-docs';
import { DEFAULT_SPEC_PATH, escapeTerminal, escapeTerminalLine, SpecRefused } from '../spec/lib';

async function main(argv: string[]): Promise<void> {
  let output = 'reports/docs/index.html';
  let redoc = true;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--output' || argv[i] === '-o') output = argv[++i] ?? output;
    else if (argv[i] === '--no-redoc') redoc = false;
    else positional.push(argv[i]);
  }
  const built = await buildDocs({ spec: positional[0] ?? DEFAULT_SPEC_PATH, output, root: process.cwd(), redoc });
  const size = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
  console.log(
    `docs: ${relative(process.cwd(), built.output)} (${size(built.bytes)}, self-contained; open it from disk)`,
  );
  if (built.redoc)
    console.log(
      `docs: ${relative(process.cwd(), built.redoc.output)} (${size(built.redoc.bytes)}, Redoc; Redoc 3 routes by URL path: serve it as the site root)`,
    );
}

main(process.argv.slice(2)).catch((error: Error) => {
  // No stack; a refusal in one line. The message may carry a spec's text (a file name, a $ref): shown escaped.
  const refused = error instanceof SpecRefused;
  console.error(`docs: ${refused ? escapeTerminalLine(error.message) : escapeTerminal(error.message)}`);
  process.exitCode = refused ? 2 : 1;
});
