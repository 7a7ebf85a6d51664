import path from 'node:path';
import ts from 'typescript';

/**
 * Finds element accesses `object[key]` where `key` is any string (not a literal) and `object` is a plain
 * object used as a dictionary (a string index signature). With a request-controlled key such a lookup reaches
 * Object.prototype (`constructor`, `__proto__`, `toString`…), and such a write can replace the prototype.
 * Dictionaries keyed by request data are Maps, or null-prototype objects typed `SafeDict` (mocks/safety/dict).
 */
export type UnsafeLookup = { file: string; line: number; text: string };

const SAFE_BRAND = '__nullPrototype';

export function findUnsafeLookups(rootDir: string, files: string[]): UnsafeLookup[] {
  const configPath = ts.findConfigFile(rootDir, ts.sys.fileExists, 'tsconfig.json');
  const options: ts.CompilerOptions = configPath
    ? ts.parseJsonConfigFileContent(
        ts.readConfigFile(configPath, ts.sys.readFile).config,
        ts.sys,
        path.dirname(configPath),
      ).options
    : { strict: true };
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const found: UnsafeLookup[] = [];
  const wanted = new Set(files.map((f) => path.resolve(f)));

  const isWideString = (type: ts.Type): boolean => {
    if (type.isUnion()) return type.types.some(isWideString);
    return (type.flags & ts.TypeFlags.String) !== 0 || (type.flags & ts.TypeFlags.Any) !== 0;
  };
  const isPlainDictionary = (type: ts.Type): boolean => {
    const apparent = checker.getApparentType(type);
    if (apparent.isUnion()) return apparent.types.some(isPlainDictionary);
    if (apparent.getProperty(SAFE_BRAND)) return false;
    if (checker.isArrayType(apparent) || checker.isTupleType(apparent)) return false;
    return (
      checker.getIndexInfoOfType(apparent, ts.IndexKind.String) !== undefined ||
      (apparent.flags & ts.TypeFlags.Any) !== 0
    );
  };

  /** `// dictionary-lookup: <why>` on the line above exempts a lookup whose keys never come from a request. */
  const isExempt = (source: ts.SourceFile, node: ts.Node): boolean => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    const lines = source.text.split('\n');
    return [line - 1, line].some((at) => /\/\/ dictionary-lookup: \S/.test(lines[at] ?? ''));
  };

  for (const source of program.getSourceFiles()) {
    if (!wanted.has(path.resolve(source.fileName))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isElementAccessExpression(node)) {
        const keyType = checker.getTypeAtLocation(node.argumentExpression);
        const objectType = checker.getTypeAtLocation(node.expression);
        if (isWideString(keyType) && isPlainDictionary(objectType) && !isExempt(source, node)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push({
            file: path.relative(rootDir, source.fileName),
            line: line + 1,
            text: node.getText().slice(0, 80),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
