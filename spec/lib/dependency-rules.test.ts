/**
 * The dependency rules of the repository, kept by a test: the contract library imports none of its users; the
 * conformance suite (outside its broken-server fixtures) never imports the mock; and only the library parses the
 * contract (no other module imports a YAML parser or swagger-parser to read it).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'coverage', 'reports', '.tmp']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file imports, requires or dynamically imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const pattern of [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
  ]) {
    for (const match of text.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/** A relative specifier as a path from the repository root; a package name as written. */
function target(file: string, specifier: string): string {
  return specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)) : specifier;
}

const files = sourceFiles(ROOT).map((path) => ({
  path: relative(ROOT, path),
  imports: importsOf(path).map((s) => target(path, s)),
}));
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** Modules that may import a YAML parser or swagger-parser, each for a reason other than reading the contract. */
const CONTRACT_PARSER_EXCEPTIONS: Record<string, string> = {
  'scripts/lib/diff/diff.test.ts':
    'writes and splits fixture documents as YAML files, so reported lines are those of YAML',
  'scripts/lib/diff/notifications.test.ts':
    'writes webhook and callback fixture documents as YAML files, so reported lines are those of YAML',
  'scripts/spec-check.ts':
    'validates the document with third-party validators (swagger-parser is one of them), not reading it',
  'mocks/testing/compose-example.ts':
    'reads the shared-deployment example (a compose file) so tests run the settings it describes, not the contract',
  'mocks/control/fixture-text.ts':
    "reads fixture files (YAML) a user uploads, not the contract, with its nesting bounded and YAML's alias limits kept",
};

describe('dependency rules', () => {
  it('should keep spec/lib free of imports from the mock, the suite, the scripts and the generators', () => {
    const offending = files
      .filter((f) => under(f.path, 'spec/lib'))
      .flatMap((f) =>
        f.imports
          .filter((i) => ['mocks', 'conformance', 'scripts', 'generators'].some((folder) => under(i, folder)))
          .map((i) => `${f.path} → ${i}`),
      );
    expect(offending).toEqual([]);
  });

  it('should keep conformance/ (outside its fixtures) free of imports from mocks/', () => {
    const offending = files
      // Tests may start the mock as a server to run the suite against; the suite's own code may not import it.
      .filter(
        (f) => under(f.path, 'conformance') && !under(f.path, 'conformance/fixtures') && !f.path.endsWith('.test.ts'),
      )
      .flatMap((f) => f.imports.filter((i) => under(i, 'mocks')).map((i) => `${f.path} → ${i}`));
    expect(offending).toEqual([]);
  });

  it('should leave parsing the contract to spec/lib', () => {
    const parsers = ['yaml', '@apidevtools/swagger-parser', 'js-yaml'];
    const offending = files
      .filter((f) => !under(f.path, 'spec/lib') && !(f.path in CONTRACT_PARSER_EXCEPTIONS))
      .flatMap((f) => f.imports.filter((i) => parsers.includes(i)).map((i) => `${f.path} → ${i}`));
    expect(offending).toEqual([]);
  });
});
