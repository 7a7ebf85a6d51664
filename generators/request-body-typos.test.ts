import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { loadContract } from '../spec/lib';
import { listBodyTypos, miscase, misspell, renderBodyTypos } from './request-body-typos';

const contract = loadContract();
const generatedDir = join(__dirname, 'generated');

/** Type-checks `text` as if it were a file of generators/generated/, reading everything else from disk. */
function diagnosticsOf(text: string): { line: number; message: string }[] {
  const fileName = join(generatedDir, 'request-body-typos.unchecked.ts');
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === fileName ? text : readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    name === fileName ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
    line: diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
}

describe('request body typos (generators/generated/request-body-typos.ts)', () => {
  const rendered = renderBodyTypos(contract);

  it('should be the committed file, so `npm run typecheck` compiles what the contract implies', () => {
    expect(readFileSync(join(generatedDir, 'request-body-typos.ts'), 'utf8')).toBe(rendered);
  });

  it('should misspell a field of every operation that takes a JSON body', () => {
    const withBody = contract.operations.filter((op) =>
      Object.keys(op.requestBody?.content ?? {}).some((type) => type.includes('json')),
    );
    const covered = new Set(listBodyTypos(contract).map((typo) => typo.operationId));
    expect(withBody.length).toBeGreaterThan(0);
    expect([...covered].sort()).toEqual(withBody.map((op) => op.operationId).sort());
  });

  it('should fail to compile each misspelled call for its misspelled field, and only those', () => {
    // Without the directives, every misspelled call must be an error naming its field, and nothing else may be.
    const lines = rendered.split('\n');
    const expected = new Map<number, string>();
    lines.forEach((line, index) => {
      if (line.trim() === '// @ts-expect-error') {
        expected.set(index + 2, /\{ body: \{ ([^:]+):/.exec(lines[index + 1])?.[1] ?? '');
      }
    });
    const unchecked = lines.map((line) => (line.trim() === '// @ts-expect-error' ? '' : line)).join('\n');
    const diagnostics = diagnosticsOf(unchecked);
    expect(diagnostics.filter((d) => !expected.has(d.line))).toEqual([]);
    for (const [line, field] of expected) {
      const messages = diagnostics.filter((d) => d.line === line).map((d) => d.message);
      expect({ line, field, messages }).toEqual({
        line,
        field,
        messages: [expect.stringMatching(new RegExp(`Object literal may only specify known properties.*'${field}'`))],
      });
    }
    expect(expected.size).toBe(listBodyTypos(contract).length);
  }, 60000);

  it.each([
    ['name', [], 'nmae'],
    ['query', [], 'qeury'],
    ['uuids', [], 'uiuds'],
    ['aab', [], 'aba'],
    ['ab', [], 'abb'],
    ['name', ['nmae'], 'naem'],
  ])('should misspell %s (taken %j) as %s', (field, taken, want) => {
    expect(misspell(field, new Set(taken))).toBe(want);
  });

  it.each([
    ['workflowUuid', [], 'workflowUUID'],
    ['parentBatchUuid', [], 'parentBatchUUID'],
    ['uuids', [], 'Uuids'],
    ['recordId', [], 'recordID'],
    ['name', [], 'Name'],
    ['name', ['Name'], 'name_'],
  ])('should miscase %s (taken %j) as %s', (field, taken, want) => {
    expect(miscase(field, new Set(taken))).toBe(want);
  });
});
