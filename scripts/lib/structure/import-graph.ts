/**
 * The repository's own import graph, read with the TypeScript parser: every non-test `.ts` file and the files it
 * imports by a relative specifier (`import`, `import type`, `export … from`, `require`, `import()`, `typeof
 * import()`), and the cycles in it. Type-only imports count: a cycle of types still ties the modules into one unit
 * that cannot be read, tested or moved apart (the mock's context → store → control → stages → context was one).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Folders that hold no source of this repository (installed, built, reported) or are not TypeScript projects. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', 'reports', '.git']);

/** A file that is source, not a test: `*.test.ts` and type declarations of others are left out. */
export const isSource = (file: string) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts');

/** Every source file under `root`, relative to it, with `/` as separator, sorted. */
export function listSourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path.join(dir, entry.name));
      } else if (entry.isFile() && isSource(entry.name)) {
        files.push(path.relative(root, path.join(dir, entry.name)).split(path.sep).join('/'));
      }
    }
  };
  walk(root);
  return files.sort();
}

/** The relative module specifiers one file names, each with whether only types come through it. */
export function importsOf(fileName: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (specifier.startsWith('.')) found.push({ specifier, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnlyImport(node.importClause));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) add(expression.text, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) add(argument.literal.text, true);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if ((isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) && first && ts.isStringLiteralLike(first))
        add(first.text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isTypeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** The source file a relative specifier names (`./x` as `x.ts`, `x/index.ts`, or itself), if it is one. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const base = path.resolve(root, path.dirname(from), specifier);
  const stem = base.replace(/\.(js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile())
      return path.relative(root, candidate).split(path.sep).join('/');
  }
  return undefined;
}

export type ImportGraph = Map<string, { to: string; typeOnly: boolean }[]>;

/** Each source file under `root` with the source files it imports (tests, JSON, YAML and packages left out). */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of listSourceFiles(root)) {
    const edges = new Map<string, boolean>();
    for (const { specifier, typeOnly } of importsOf(file, readFileSync(path.join(root, file), 'utf8'))) {
      const to = resolveSpecifier(root, file, specifier);
      if (to === undefined || !isSource(to)) continue;
      edges.set(to, (edges.get(to) ?? true) && typeOnly);
    }
    graph.set(
      file,
      [...edges].map(([to, typeOnly]) => ({ to, typeOnly })),
    );
  }
  return graph;
}

/**
 * The strongly connected components of more than one file (or a file importing itself), each with one cycle in
 * it to show: the shortest import path from the component's first file back to that file.
 * Tarjan's algorithm, iterative (no recursion depth bound on a long chain of imports).
 */
export function findCycles(graph: ImportGraph): { files: string[]; cycle: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const targets = (file: string) => (graph.get(file) ?? []).map((edge) => edge.to).filter((to) => graph.has(to));
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = targets(frame.file);
      if (frame.next < edges.length) {
        const to = edges[frame.next++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(lowOf(low, frame.file), indexOf(index, to)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(lowOf(low, parent.file), lowOf(low, frame.file)));
      if (lowOf(low, frame.file) !== indexOf(index, frame.file)) continue;
      const component: string[] = [];
      for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
        onStack.delete(file);
        component.push(file);
        if (file === frame.file) break;
      }
      const selfImport = component.length === 1 && targets(frame.file).includes(frame.file);
      if (component.length > 1 || selfImport) components.push(component.sort());
    }
  }
  return components
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map((files) => ({ files, cycle: shortestCycle(files, targets) }));
}

const indexOf = (map: Map<string, number>, file: string) => map.get(file) ?? -1;
const lowOf = indexOf;

/** The shortest import path from the component's first file back to itself, inside the component. */
function shortestCycle(files: string[], targets: (file: string) => string[]): string[] {
  const inside = new Set(files);
  const start = files[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const file = queue[at];
    for (const to of targets(file)) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const cycle: string[] = [];
        for (let back: string | undefined = file; back !== undefined && back !== start; back = cameFrom.get(back))
          cycle.unshift(back);
        return [start, ...cycle, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** One cycle as lines a reader can follow: `a.ts → b.ts → a.ts`, then every file of its component. */
export function describeCycle({ files, cycle }: { files: string[]; cycle: string[] }): string {
  const lines = [`${cycle.join('\n  → ')}`];
  if (files.length > cycle.length - 1) lines.push(`  (${files.length} files tied together: ${files.join(', ')})`);
  return lines.join('\n');
}
