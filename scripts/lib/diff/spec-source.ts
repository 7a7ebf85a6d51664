// The two sides of a spec diff: a file, or the contract (and the split files beside it) at a git commit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { SPEC_LIMITS } from '../../../spec/lib/refusal';

/** Where the contract lives in the repository (and so in its git history). */
export const DEFAULT_SPEC_PATH = 'spec/openapi.yaml';

export type SpecSource =
  { kind: 'file'; file: string; label: string } | { kind: 'git'; ref: string; specPath: string; label: string };

/**
 * A side of a diff is a file when such a file exists, otherwise a git ref whose `spec/openapi.yaml`
 * (and split files beside it) is read from history.
 */
export function resolveSource(arg: string, cwd: string, specPath = DEFAULT_SPEC_PATH): SpecSource {
  const asFile = resolve(cwd, arg);
  if (existsSync(asFile)) return { kind: 'file', file: asFile, label: arg };
  return { kind: 'git', ref: arg, specPath, label: `${arg}:${specPath}` };
}

const roots = new Map<string, string | undefined>();

/** The root of the git work tree holding a folder, or undefined outside one (or without git). */
export function repositoryRoot(dir: string): string | undefined {
  if (!roots.has(dir)) {
    let root: string | undefined;
    try {
      root = git(dir, ['rev-parse', '--show-toplevel']).trim() || undefined;
    } catch {
      root = undefined;
    }
    roots.set(dir, root);
  }
  return roots.get(dir);
}

/** A file's path from the root of the git work tree it lies in (`api/openapi.yaml`), or undefined. */
export function pathInRepository(file: string): string | undefined {
  const root = repositoryRoot(dirname(file));
  if (!root) return undefined;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return undefined;
  }
  const inside = relative(realpathSync(root), real);
  return inside && !inside.startsWith('..') ? inside.split(sep).join('/') : undefined;
}

/** The working tree's copy of a path given from the repository's root. */
export function workingTreeFile(cwd: string, specPath: string): string {
  return join(repositoryRoot(cwd) ?? cwd, specPath);
}

/**
 * The spec's path in the repository when `--spec` does not say: spec/openapi.yaml when the repository has it, else
 * the one file the repository tracks named openapi.yaml, .yml or .json; otherwise an error that asks for `--spec`.
 */
export function findSpecPath(cwd: string): string {
  const root = repositoryRoot(cwd);
  if (!root || existsSync(join(root, DEFAULT_SPEC_PATH))) return DEFAULT_SPEC_PATH;
  const candidates = git(root, ['ls-files', '-z'])
    .split('\0')
    .filter((path) => /^openapi\.(ya?ml|json)$/i.test(basename(path)));
  if (candidates.length === 1) return candidates[0];
  const found =
    candidates.length > 1
      ? ` and ${candidates.length} files named openapi.* (${candidates.slice(0, 4).join(', ')})`
      : '';
  throw new Error(
    `cannot tell which spec to compare: this repository has no ${DEFAULT_SPEC_PATH}${found}; name it with --spec <path from the repository root>`,
  );
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Copy the spec and every file under its folder at `ref` into a temporary folder, so relative $refs to split
 * files resolve exactly as they did at that commit. Returns the entry file and a cleanup.
 */
export function materialiseGitSpec(cwd: string, ref: string, specPath: string): { file: string; cleanup(): void } {
  const root = git(cwd, ['rev-parse', '--show-toplevel']).trim();
  try {
    git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`"${ref}" is neither a file nor a git commit`);
  }
  const folder = dirname(specPath);
  // -z: a name holding a line feed or a quote is listed as it is, not C-quoted (which no `git show` would find).
  const listed = git(root, ['ls-tree', '-r', '-z', '--name-only', ref, '--', folder === '.' ? specPath : folder])
    .split('\0')
    .filter(Boolean);
  // Each file is one `git show`: a pull request's folder of 3 000 YAML files took 25 s before the loader's own
  // bound on files could refuse it.
  const specFiles = listed.filter((path) => /\.(ya?ml|json)$/i.test(path));
  if (specFiles.length > SPEC_LIMITS.maxFiles)
    throw new Error(
      `${ref}:${folder} holds ${specFiles.length} spec files, more than ${SPEC_LIMITS.maxFiles} (maxFiles)`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'spec-at-ref-'));
  if (!listed.includes(specPath)) {
    // A commit from before the spec existed: compare against an empty contract (everything reads as added).
    const target = join(dir, specPath);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `openapi: 3.1.0\ninfo: { title: 'no ${specPath} at ${ref}', version: '0' }\npaths: {}\n`);
    return { file: target, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  for (const path of specFiles) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, execFileSync('git', ['show', `${ref}:${path}`], { cwd: root, maxBuffer: 64 * 1024 * 1024 }));
  }
  return { file: join(dir, specPath), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A file path holding the source's entry document (temporary for git refs) and its cleanup. */
export function sourceFile(source: SpecSource, cwd: string): { file: string; cleanup(): void } {
  if (source.kind === 'file') return { file: source.file, cleanup: () => undefined };
  return materialiseGitSpec(cwd, source.ref, source.specPath);
}
