/**
 * What the package exports for other projects' code: standalone files (they import nothing but each other, so
 * `./control` runs in a browser and never pulls in the mock), whose types say what the mock does.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { canonicalValue } from '../generators/arbitraries';
import { loadContract } from '../spec/lib';
import type * as client from '../mocks/control/client';
import { readFixtures } from '../mocks/control/fixtures';
import type { RuntimeSettings, SettingsPatch } from '../mocks/control/settings';
import type { Fault, Outcome } from '../mocks/prefer';
import { WORKSPACE_A } from '../mocks/config';

const ROOT = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  types: string;
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
};
const exportsMap = manifest.exports;

/** The TypeScript source an export's declarations are compiled from (dist/x.d.ts → x.ts). */
const sources = Object.entries(exportsMap)
  .filter(([, target]) => typeof target === 'object' && typeof (target as { types?: string }).types === 'string')
  .map(([name, target]) => ({
    name,
    file: join(ROOT, (target as { types: string }).types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts')),
  }));

/**
 * The entries a browser or a test file imports beside its own code: each stays standalone. The main entry
 * (`startMock`) is the mock itself, in Node, and `./msw` the in-process engine: they are not.
 */
const STANDALONE = ['./control', './fixtures', './types'];
/** Files an export may reach beside the exported ones: each imports nothing but what is listed here. */
const SUPPORT = ['mocks/control/usage-report.ts', 'mocks/control/poll.ts', 'spec/lib/escape.ts'].map((file) =>
  join(ROOT, file),
);

/** Every module a file imports, followed through relative imports: the files reached and the packages named. */
function importClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (fileName.startsWith('.')) visit(`${resolve(dirname(file), fileName)}.ts`);
      else packages.add(fileName);
    }
  };
  visit(entry);
  return { files, packages };
}

// The control client declares the settings' types itself (so it stays standalone); they must be the mock's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const settingsAgree: [
  Same<client.MockSettings, RuntimeSettings>,
  Same<client.SettingsChange, SettingsPatch>,
  Same<client.Outcome, Outcome>,
  Same<client.Fault, Fault>,
] = [true, true, true, true];

describe('the package exports', () => {
  it('should list the main entry, ./types, ./control and ./fixtures, each compiled from a source file', () => {
    expect(sources.map((s) => s.name).filter((name) => name !== './msw')).toEqual([
      '.',
      './types',
      './control',
      './fixtures',
    ]);
    expect([manifest.main, manifest.types]).toEqual(
      ['default', 'types'].map((field) => ((exportsMap['.'] as Record<string, string>)[field] ?? '').slice(2)),
    );
    expect(settingsAgree).toEqual([true, true, true, true]);
  });

  it('should give the same declarations to TypeScript projects that do not read `exports` (typesVersions)', () => {
    const declared = Object.fromEntries(
      Object.entries(exportsMap)
        .filter(([name, target]) => name !== '.' && typeof (target as { types?: string }).types === 'string')
        .map(([name, target]) => [name.slice(2), [(target as { types: string }).types.slice(2)]]),
    );
    expect(manifest.typesVersions).toEqual({ '*': declared });
  });

  it.each(sources.filter((s) => STANDALONE.includes(s.name)).map((s) => [s.name, s.file] as const))(
    'should keep %s standalone: no package imported, only the other exported files',
    (_name, file) => {
      const { files, packages } = importClosure(file);
      expect([...packages]).toEqual([]);
      expect([...files].filter((f) => !sources.some((s) => s.file === f) && !SUPPORT.includes(f))).toEqual([]);
    },
  );

  it.each(SUPPORT.map((file) => [relative(ROOT, file), file]))(
    'should let %s import no package, only exported and support files',
    (_name, file) => {
      const { files, packages } = importClosure(file);
      expect([...packages]).toEqual([]);
      expect([...files].filter((f) => !SUPPORT.includes(f) && !sources.some((s) => s.file === f))).toEqual([]);
    },
  );
});

describe('fixture types (./fixtures) and what the mock accepts', () => {
  const contract = loadContract();
  const fixtureTypes = join(ROOT, 'mocks', 'control', 'fixture-types.ts');
  const program = ts.createProgram([fixtureTypes], { strict: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(fixtureTypes)!;
  const alias = source.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'WorkspaceFixtures',
  )!;
  const fixturesType = checker.getTypeAtLocation(alias.name);

  /** Collection → the fields its item type requires, read from the compiled type. */
  const requiredByType = new Map(
    checker.getPropertiesOfType(fixturesType).map((collection) => {
      let item = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(collection, alias));
      if (checker.isArrayType(item)) item = checker.getTypeArguments(item as ts.TypeReference)[0];
      const required = checker
        .getPropertiesOfType(item)
        .filter((p) => !(p.flags & ts.SymbolFlags.Optional))
        .map((p) => p.name);
      return [collection.name, required.sort()] as const;
    }),
  );
  const schemaOf: Record<string, string> = {
    workspace: 'Workspace',
    suppressions: 'Suppression',
    mcpServers: 'McpServer',
    workflows: 'Workflow',
    models: 'Model',
    domains: 'Domain',
    allocations: 'Allocation',
    envVars: 'EnvironmentVariable',
    recipes: 'Recipe',
    runs: 'Run',
    batches: 'Batch',
  };
  const load = (collection: string, item: Record<string, unknown>) =>
    readFixtures(
      { workspaces: { 'mock-token-a': { [collection]: collection === 'workspace' ? item : [item] } } },
      {
        schemaAt: (pointer) => contract.schemas({ allErrors: true }).at(pointer),
        resolveWorkspace: (ref) => (ref === 'mock-token-a' ? WORKSPACE_A : undefined),
        now: () => Date.parse('2026-03-01T00:00:00Z'),
      },
    ).problems;

  it('should type every collection the mock loads', () => {
    expect([...requiredByType.keys()].sort()).toEqual(Object.keys(schemaOf).sort());
  });

  it.each(Object.entries(schemaOf))(
    'should require exactly the %s fields the mock cannot do without',
    (collection, schema) => {
      const required = requiredByType.get(collection) ?? [];
      const valid = canonicalValue(asSchema(contract.resolve(`#/components/schemas/${schema}`))) as Record<
        string,
        unknown
      >;
      const item = Object.fromEntries(required.map((field) => [field, valid[field]]));
      // Everything the type requires, nothing else: the mock loads it (it fills in what the type leaves out) …
      expect(load(collection, item)).toEqual([]);
      // … and refuses it when any one of those fields is missing.
      for (const field of required) {
        const { [field]: _left, ...without } = item;
        expect({ field, problems: load(collection, without) }).toEqual({
          field,
          problems: expect.arrayContaining([expect.stringContaining(field)]),
        });
      }
    },
  );
});

function asSchema(node: unknown): Record<string, unknown> {
  return node as Record<string, unknown>;
}
