// npm run spec:diff -- <base> [<head>] [options]
// Sides are files or git refs (a ref reads spec/openapi.yaml and its split files at that commit); head defaults to
// the working tree. Options:
//   --format markdown|json|junit|github   report format (default markdown; --json is --format json)
//   --fail-on breaking|warning            lowest classification that fails (default breaking)
//   --waivers <file>                      accepted changes (default scripts/waivers.yaml when present); --no-waivers
//   --output <file>                       also write the report to a file
//   --now <date>                          clock for Sunset dates and waiver expiry
//   --no-cross-check                      skip the redocly diff cross-check
//   --no-impact                           skip client-type and conformance-check impact
//   --spec <path>                         where the spec lives in git refs (default spec/openapi.yaml)
// Exit codes: 0 nothing fails; 1 a breaking change (or, with --fail-on warning, a warning) to an existing /v1
// operation is not waived, or a waiver has expired; 2 usage error, unreadable side or malformed waiver file.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FORMATS, type Format, renderGithub, renderJson, renderJunit } from './lib/diff/render-ci';
import { renderMarkdown } from './lib/diff/render-markdown';
import { type FailOn, runDiff } from './lib/diff/run-diff';
import { DEFAULT_WAIVERS_PATH } from './lib/diff/waivers';

const USAGE =
  'usage: npm run spec:diff -- <base> [<head>] [--format markdown|json|junit|github] [--fail-on breaking|warning] ' +
  '[--waivers <file> | --no-waivers] [--output <file>] [--now <date>] [--no-cross-check] [--no-impact] [--spec <path>]';

async function main(argv: string[]): Promise<number> {
  const positional: string[] = [];
  let format: Format = 'markdown';
  let failOn: FailOn = 'breaking';
  let crossCheck = true;
  let impact = true;
  let waivers: string | undefined | null;
  let now: Date | undefined;
  let specPath: string | undefined;
  let output: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--json') format = 'json';
    else if (arg === '--format') {
      const v = value();
      if (!FORMATS.includes(v as Format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
      format = v as Format;
    } else if (arg === '--fail-on') {
      const v = value();
      if (v !== 'breaking' && v !== 'warning') throw new UsageError('--fail-on must be breaking or warning');
      failOn = v;
    } else if (arg === '--waivers') waivers = value();
    else if (arg === '--no-waivers') waivers = null;
    else if (arg === '--no-cross-check') crossCheck = false;
    else if (arg === '--no-impact') impact = false;
    else if (arg === '--now') now = new Date(value());
    else if (arg === '--spec') specPath = value();
    else if (arg === '--output' || arg === '-o') output = value();
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      return 0;
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length < 1 || positional.length > 2) throw new UsageError('expected a base and an optional head');
  if (now && Number.isNaN(now.getTime())) throw new UsageError('--now is not a date');
  const cwd = process.cwd();
  if (typeof waivers === 'string' && !existsSync(resolve(cwd, waivers)))
    throw new UsageError(`waiver file ${waivers} not found`);
  const waiversFile = waivers === null ? undefined : resolve(cwd, waivers ?? DEFAULT_WAIVERS_PATH);
  const report = await runDiff({
    base: positional[0],
    head: positional[1],
    cwd,
    specPath,
    now,
    crossCheck,
    failOn,
    waiversFile,
    impact,
  });
  const render = { markdown: renderMarkdown, json: renderJson, junit: renderJunit, github: renderGithub }[format];
  const text = render(report);
  if (output) {
    mkdirSync(dirname(resolve(output)), { recursive: true });
    writeFileSync(output, text);
  }
  process.stdout.write(text);
  return report.exitCode;
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    console.error(`spec:diff: ${error.message}${error instanceof UsageError ? `\n${USAGE}` : ''}`);
    process.exitCode = 2;
  },
);
