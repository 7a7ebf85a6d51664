// npm run spec:lint -- [<spec file>...] [--json] [--waivers <file> | --no-waivers] [--now <date>]
// Contract rules of the Workspace Automation API on top of `redocly lint` (see scripts/lib/lint/rules/).
// Lint waivers (the `lint:` list of scripts/waivers.yaml) accept a problem deliberately, until they expire.
// Exit 1 on any problem not waived (or an expired waiver), 2 when a file cannot be read or the waiver file is malformed,
// or when the loader refuses the spec (a $ref outside its folder or on the network, a bound exceeded: one line saying
// which file and pointer, spec/lib/refusal.ts).

import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { DEFAULT_WAIVERS_PATH } from './lib/diff/waivers';
import { formatProblems, lintSpec, type LintResult } from './lib/lint/run-lint';
import type { Problem } from './lib/lint/types';
import { DEFAULT_SPEC_PATH, escapeTerminal, escapeTerminalLine, SpecRefused, stringifyJson } from '../spec/lib';

/**
 * A result as a terminal or CI log may show it: every text that comes from the spec (operation, pointer, message, a
 * waiver's words) on one line with its controls shown, so no path or name can start a line of its own
 * (`::stop-commands::`, a fake summary) or colour the log.
 */
function shown(result: LintResult): LintResult {
  const line = (p: Problem): Problem => ({
    ...p,
    operation: escapeTerminalLine(p.operation),
    pointer: escapeTerminalLine(p.pointer),
    message: escapeTerminalLine(p.message),
    ...(p.waived
      ? {
          waived: {
            reason: escapeTerminalLine(p.waived.reason),
            approvedBy: escapeTerminalLine(p.waived.approvedBy),
            expires: escapeTerminalLine(p.waived.expires),
          },
        }
      : {}),
  });
  return { ...result, problems: result.problems.map(line), waived: result.waived.map(line) };
}

function main(argv: string[]): number {
  const json = argv.includes('--json');
  let waivers: string | undefined = resolve(DEFAULT_WAIVERS_PATH);
  let now: Date | undefined;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') continue;
    if (arg === '--no-waivers') waivers = undefined;
    else if (arg === '--waivers') {
      waivers = resolve(argv[++i] ?? '');
      if (!existsSync(waivers)) throw new Error(`waiver file ${argv[i]} not found`);
    } else if (arg === '--now') now = new Date(argv[++i] ?? '');
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (now && Number.isNaN(now.getTime())) throw new Error('--now is not a date');
  const results = (files.length > 0 ? files : [DEFAULT_SPEC_PATH]).map((file) =>
    lintSpec(file, { waiversFile: waivers, now }),
  );
  if (json) process.stdout.write(`${stringifyJson(results, 2)}\n`);
  else
    for (const r of results)
      process.stdout.write(
        escapeTerminal(formatProblems(shown(r), escapeTerminalLine(relative(process.cwd(), r.file) || r.file))),
      );
  return results.some((r) => r.problems.length > 0) ? 1 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // No stack; a refusal in one line. The message may carry a spec's text (a file name, a $ref): shown escaped.
  const { message } = error as Error;
  console.error(`spec:lint: ${error instanceof SpecRefused ? escapeTerminalLine(message) : escapeTerminal(message)}`);
  process.exitCode = 2;
}
