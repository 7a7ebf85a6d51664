/**
 * The web-standard core imports nothing from Node: walking the value imports of `mocks/core.ts` and of the
 * in-process entry (`msw/`) reaches no Node builtin and no Node-only global, and only packages that run in a
 * browser. The same walk from the Node adapter finds `node:http`, so the walk is seen to find what it looks for.
 */
import { reachableFrom } from './reachable';

/** The core's entry points: the engine, the MSW adapter, the SQL engine it runs in the calling thread. */
const CORE_ENTRIES = ['mocks/core.ts', 'mocks/msw/index.ts', 'mocks/query/in-thread.ts'];
/** Packages known to run in a browser (each proven by the browser example's build). */
const BROWSER_PACKAGES = new Set(['ajv', 'yaml', 'sql.js', 'msw']);

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

describe('the web-standard core', () => {
  const reach = reachableFrom(CORE_ENTRIES);

  it('should reach no Node builtin through any value import', () => {
    expect(reach.builtins).toEqual([]);
  });

  it('should use no Node-only global (Buffer, process, __dirname, require, …) in any file it reaches', () => {
    expect(reach.globals).toEqual([]);
  });

  it('should reach only packages that run in a browser', () => {
    const packages = new Set(
      [...reach.files.values()]
        .flat()
        .filter((s) => !s.startsWith('.'))
        .map(packageOf),
    );
    expect([...packages].filter((name) => !BROWSER_PACKAGES.has(name))).toEqual([]);
  });

  it('should be a walk that finds Node where it is: the Node adapter reaches node:http and Buffer', () => {
    const node = reachableFrom(['mocks/app.ts']);
    expect(node.builtins).toContainEqual(expect.stringMatching(/node:http$/));
    expect(node.globals).toContainEqual(expect.stringMatching(/: Buffer$/));
    expect(node.files.size).toBeGreaterThan(reach.files.size);
  });
});
