// npm run spec:diff -- <base> [<head>] [options]
// Sides are files or git refs (a ref reads the spec and its split files at that commit); head defaults to the
// working tree's spec. The spec is `--spec`, else spec/openapi.yaml, else the one openapi.yaml|yml|json the
// repository tracks. Options:
//   --format text|markdown|json|junit|github   report format (--json is --format json); unless given, the one the
//                                              --output file's extension names (.md .json .xml .txt), else text on
//                                              a terminal and markdown when piped or redirected (a CI step)
//   --fail-on breaking|warning            lowest classification that fails (default breaking)
//   --waivers <file>                      accepted changes (default scripts/waivers.yaml when present); --no-waivers
//   --output <file>                       also write the report to a file
//   --now <date>                          clock for Sunset dates and waiver expiry
//   --cross-check | --no-cross-check      redocly diff as a second opinion, annotations only (default: when
//                                         @redocly/cli is installed, silently skipped when not; --cross-check says
//                                         why it did not run)
//   --no-impact                           skip client-type and conformance-check impact
//   --spec <path>                         the spec's path from the repository root: read at git refs, and the
//                                         name annotations give a side read from a file outside the repository
// Exit codes: 0 nothing fails; 1 a breaking change (or, with --fail-on warning, a warning) to an existing /v1
// operation or to a webhook or callback is not waived, or a waiver has expired; 2 usage error, a side that cannot
// be read or that the loader refuses (a $ref outside the spec's folder or on the network, too deep, too large),
// or a malformed waiver file. The cross-check never changes the exit code.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FORMATS, type Format, renderGithub, renderJson, renderJunit, renderText } from './lib/diff/render-ci';
import { renderMarkdown } from './lib/diff/render-markdown';
import { type FailOn, runDiff } from './lib/diff/run-diff';
import { DEFAULT_WAIVERS_PATH } from './lib/diff/waivers';
import { escapeTerminalLine } from '../spec/lib/escape';

const USAGE =
  'usage: npm run spec:diff -- <base> [<head>] [--format text|markdown|json|junit|github] [--fail-on breaking|warning] ' +
  '[--waivers <file> | --no-waivers] [--output <file>] [--now <date>] [--cross-check | --no-cross-check] [--no-impact] ' +
  '[--spec <path>]';

async function main(argv: string[]): Promise<number> {
  const positional: string[] = [];
  let format: Format | undefined;
  let failOn: FailOn = 'breaking';
  let crossCheck: boolean | 'auto' = 'auto';
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
    else if (arg === '--cross-check') crossCheck = true;
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
  // Unless told: the format --output's extension names; else text for a person at a terminal, markdown for a pipe
  // or a redirect (a CI step that posts a comment).
  format ??= formatOfFile(output) ?? (process.stdout.isTTY ? 'text' : 'markdown');
  const render = {
    text: renderText,
    markdown: renderMarkdown,
    json: renderJson,
    junit: renderJunit,
    github: renderGithub,
  }[format];
  const text = render(report);
  if (output) {
    mkdirSync(dirname(resolve(output)), { recursive: true });
    writeFileSync(output, text);
  }
  process.stdout.write(text);
  return report.exitCode;
}

class UsageError extends Error {}

function formatOfFile(file: string | undefined): Format | undefined {
  const extension = file ? /\.(\w+)$/.exec(file)?.[1]?.toLowerCase() : undefined;
  return ({ md: 'markdown', json: 'json', xml: 'junit', txt: 'text' } as Record<string, Format>)[extension ?? ''];
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    // One line, escaped: a refusal names a file and a pointer from the spec, which is hostile input.
    console.error(`spec:diff: ${escapeTerminalLine(error.message)}${error instanceof UsageError ? `\n${USAGE}` : ''}`);
    process.exitCode = 2;
  },
);
