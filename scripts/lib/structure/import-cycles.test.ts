/**
 * No import cycle in the repository's non-test TypeScript. Type-only imports count (a cycle of types still makes
 * its modules one unit), tests do not (a test imports what it tests, and nothing imports a test). A failure names
 * every file of each cycle, in import order. Cycles in files still being reworked are listed in OWNED_ELSEWHERE,
 * each by its files: the list may only shrink (an entry that no longer matches a cycle fails too).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeCycle, findCycles, importsOf, readImportGraph } from './import-graph';

const ROOT = path.resolve(__dirname, '../../..');

/** Known cycles, each the sorted files of its component; removed as each is broken. */
const OWNED_ELSEWHERE: string[][] = [];

const key = (files: string[]) => files.join(' ');

describe('import cycles', () => {
  const cycles = findCycles(readImportGraph(ROOT));
  const known = new Set(OWNED_ELSEWHERE.map(key));

  it('should find no import cycle in non-test source beyond the known ones', () => {
    const found = cycles.filter((cycle) => !known.has(key(cycle.files))).map(describeCycle);
    if (found.length > 0) throw new Error(`import cycles (${found.length}):\n\n${found.join('\n\n')}`);
  });

  it('should list no known cycle that is gone (the list only shrinks)', () => {
    const present = new Set(cycles.map((cycle) => key(cycle.files)));
    const gone = OWNED_ELSEWHERE.map(key).filter((entry) => !present.has(entry));
    if (gone.length > 0)
      throw new Error(`broken, so remove from OWNED_ELSEWHERE (this file):\n${gone.map((e) => `  ${e}`).join('\n')}`);
  });
});

describe('the import walk', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
    const files: Record<string, string> = {
      'a/context.ts': "import type { Saved } from '../store';\nexport type Ctx = { saved: Saved };\n",
      'store/index.ts': "export { settle } from '../control/settle';\nexport type Saved = number;\n",
      'control/settle.ts': "import { stage } from '../stages/one.js';\nexport const settle = stage;\n",
      'stages/one.ts': "export const stage = (): typeof import('../a/context') | undefined => undefined;\n",
      'stages/one.test.ts': "import { stage } from './one';\nimport '../a/context';\nstage();\n",
      'leaf.ts': "import './store';\nexport const leaf = require('./control/settle');\n",
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('should find a cycle made of type-only, re-export, `.js` and `import()` type edges, and name its files', () => {
    const cycles = findCycles(readImportGraph(root));
    expect(cycles).toEqual([
      {
        files: ['a/context.ts', 'control/settle.ts', 'stages/one.ts', 'store/index.ts'],
        cycle: ['a/context.ts', 'store/index.ts', 'control/settle.ts', 'stages/one.ts', 'a/context.ts'],
      },
    ]);
    expect(describeCycle(cycles[0])).toBe(
      'a/context.ts\n  → store/index.ts\n  → control/settle.ts\n  → stages/one.ts\n  → a/context.ts',
    );
  });

  it('should leave tests out and follow side-effect imports and require', () => {
    const graph = readImportGraph(root);
    expect(graph.has('stages/one.test.ts')).toBe(false);
    expect(graph.get('leaf.ts')).toEqual([
      { to: 'store/index.ts', typeOnly: false },
      { to: 'control/settle.ts', typeOnly: false },
    ]);
  });

  it.each([
    ['a type-only import', "import type { A } from './a';", true],
    ['an import of types only, named', "import { type A, type B } from './a';", true],
    ['a value import beside a type', "import { type A, b } from './a';", false],
    ['a side-effect import', "import './a';", false],
    ['a type-only re-export', "export type { A } from './a';", true],
    ['a package', "import ts from 'typescript';", undefined],
  ])('should read %s', (_name, text, typeOnly) => {
    const found = importsOf('x.ts', text);
    expect(found[0]?.typeOnly).toBe(typeOnly);
  });
});
