/**
 * Replaying one counterexample: `--path <property>:<fast-check path>[@<commands replay path>]` with the run's seed.
 * The commands part restores which model commands ran, without which fast-check cannot walk a stateful shrink.
 */
import fc from 'fast-check';
import { DEFAULT_SPEC_PATH } from '../../spec/lib';
import { DEFAULTS, type RunConfig } from '../config';

export type ReplayTarget = { property: string; path: string; commands?: string };

export function parseReplayPath(text: string | undefined): ReplayTarget | undefined {
  if (text === undefined) return undefined;
  const at = text.indexOf('@');
  const head = at >= 0 ? text.slice(0, at) : text;
  const colon = head.indexOf(':');
  if (colon <= 0) return { property: head, path: '' };
  return {
    property: head.slice(0, colon),
    path: head.slice(colon + 1),
    commands: at >= 0 ? text.slice(at + 1) : undefined,
  };
}

export function formatReplayPath(target: ReplayTarget): string {
  return `${target.property}:${target.path}${target.commands ? `@${target.commands}` : ''}`;
}

/** The commands replay path fast-check prints inside a failing command sequence, if the counterexample has one. */
export function commandsReplayPath(counterexample: unknown): string | undefined {
  return /replayPath="([^"]*)"/.exec(fc.stringify(counterexample))?.[1];
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A token as the run was given it: a literal from a flag, a variable reference from the environment. */
function tokenArgument(value: string): string {
  return value.startsWith('$') ? `"${value}"` : shellQuote(value);
}

/**
 * The command that starts the suite where this one runs: the installed package's bin (compiled JavaScript), or the
 * checkout's npm script (TypeScript through tsx), so a printed line works where it was printed.
 */
export function suiteCommand(compiled = __filename.endsWith('.js')): string {
  return compiled ? 'npx workspace-api-conformance' : 'npm run conformance --';
}

/** The command line that replays a counterexample: every setting that decides the property's cases is repeated. */
export function replayCommand(config: RunConfig, checkId: string, target: ReplayTarget): string {
  const args = ['--target', shellQuote(config.target), '--token', tokenArgument(config.credentials.a)];
  if (config.tokenB) args.push('--token-b', tokenArgument(config.credentials.b));
  args.push('--seed', String(config.seed), '--only', checkId, '--path', shellQuote(formatReplayPath(target)));
  if (config.runs !== DEFAULTS.runs) args.push('--runs', String(config.runs));
  if (config.allowWrites) args.push('--allow-writes');
  if (config.specPath !== DEFAULT_SPEC_PATH) args.push('--spec', shellQuote(config.specPath));
  if (config.createRunPath !== DEFAULTS.createRunPath) args.push('--create-run-path', shellQuote(config.createRunPath));
  return `${suiteCommand()} ${args.join(' ')}`;
}
