/**
 * The modules a file reaches through value imports (`import`, `export … from`, `require`, `import()`), followed
 * inside this repository; type-only imports are left out (they vanish at compile time). Used by the test that
 * keeps the web-standard core free of Node: the builtins each reachable file imports, and the Node globals it uses.
 */
import { builtinModules } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type Reach = {
  /** Repository files reached, each with the modules it imports by value. */
  files: Map<string, string[]>;
  /** `file: module` for every Node builtin imported by a reached file. */
  builtins: string[];
  /** `file:line: name` for every Node-only global a reached file uses as a value. */
  globals: string[];
};

const NODE_GLOBALS = new Set(['Buffer', 'process', '__dirname', '__filename', 'require', 'setImmediate', 'global']);
const BUILTINS = new Set(builtinModules);

export const isBuiltin = (name: string) => name.startsWith('node:') || BUILTINS.has(name.split('/')[0]);

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.json`, path.join(base, 'index.ts')])
    if (existsSync(candidate) && candidate.match(/\.(ts|json)$/)) return candidate;
  return undefined;
}

/** The value imports of one TypeScript file, and the Node globals it uses as values. */
function importsOf(file: string): { specifiers: string[]; globals: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const globals: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if ((isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) && first && ts.isStringLiteralLike(first))
        specifiers.push(first.text);
    } else if (ts.isImportTypeNode(node) || ts.isTypeNode(node)) {
      return; // types (`typeof import(…)`, `NodeJS.Timeout`) vanish at compile time
    }
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text) && isValueUse(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      globals.push(`${line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, globals };
}

/** An identifier read as a free value: not a property name, a declaration's name, nor behind `typeof x !==`. */
function isValueUse(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  if (ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent))
    return false;
  if (
    (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) &&
    parent.name === node
  )
    return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  // `typeof process !== 'undefined'` is how portable code asks whether it runs on Node, then uses it.
  if (ts.isTypeOfExpression(parent)) return false;
  return !guardedByTypeof(node);
}

/** Used only where a `typeof <name>` test around it has found it (`typeof process !== 'undefined' ? process… : …`). */
function guardedByTypeof(node: ts.Identifier): boolean {
  const test = new RegExp(`typeof\\s+${node.text}\\b`);
  for (let at: ts.Node = node; at.parent; at = at.parent) {
    const parent = at.parent;
    if (ts.isConditionalExpression(parent) && parent.whenTrue === at && test.test(parent.condition.getText()))
      return true;
    if (ts.isIfStatement(parent) && parent.thenStatement === at && test.test(parent.expression.getText())) return true;
    if (
      ts.isBinaryExpression(parent) &&
      parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken &&
      parent.right === at &&
      test.test(parent.left.getText())
    )
      return true;
  }
  return false;
}

/** Every repository file `entry` reaches by value imports, with the builtins and Node globals among them. */
export function reachableFrom(entries: string[]): Reach {
  const files = new Map<string, string[]>();
  const builtins: string[] = [];
  const globals: string[] = [];
  const queue = entries.map((entry) => path.resolve(entry));
  const root = process.cwd();
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (files.has(file)) continue;
    if (file.endsWith('.json')) {
      files.set(file, []);
      continue;
    }
    const found = importsOf(file);
    files.set(file, found.specifiers);
    const name = path.relative(root, file);
    for (const at of found.globals) globals.push(`${name}:${at}`);
    for (const specifier of found.specifiers) {
      if (specifier.startsWith('.')) {
        const target = resolveLocal(file, specifier);
        if (!target) throw new Error(`${name}: cannot resolve ${specifier}`);
        queue.push(target);
      } else if (isBuiltin(specifier)) builtins.push(`${name}: ${specifier}`);
    }
  }
  return { files, builtins, globals };
}
