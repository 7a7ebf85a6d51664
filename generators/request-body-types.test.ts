import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { loadContract } from '../spec/lib';
import { wrapRequestBody } from './request-body-types';

const printed = (node: ts.TypeNode | undefined) =>
  node && ts.createPrinter().printNode(ts.EmitHint.Unspecified, node, ts.createSourceFile('x.ts', '', 99));

describe('request body types', () => {
  const type = ts.factory.createTypeReferenceNode('X');

  it.each([
    ['#/paths/~1orchestration~1runs/post/requestBody/content/application~1json', 'RequestBody<X>'],
    ['#/paths/~1a/put/requestBody/content/application~1merge-patch+json', 'RequestBody<X>'],
    ['#/paths/~1orchestration~1runs/post/responses/200/content/application~1json', undefined],
    ['#/components/schemas/CreateRunRequest', undefined],
    ['#/components/responses/BadRequest/content/application~1json', undefined],
    [undefined, undefined],
  ])('should wrap %s as %s', (path, want) => {
    expect(printed(wrapRequestBody(type, path))).toBe(want);
  });

  it('should wrap the body of every operation that takes one, and nothing else', () => {
    const generated = readFileSync(join(__dirname, 'generated', 'openapi.ts'), 'utf8');
    const wrapped = generated.split('\n').filter((line) => line.includes('RequestBody<'));
    const withBody = loadContract().operations.filter((op) => op.requestBody);
    expect(wrapped.filter((line) => !/^\s+"[^"]+": RequestBody<components\["schemas"\]/.test(line))).toEqual([
      'export type RequestBody<T> = T extends readonly (infer E)[] ? RequestBody<E>[] : T extends object ? {',
      '    [K in keyof T]: RequestBody<T[K]>;',
    ]);
    expect(wrapped.length - 2).toBe(withBody.length);
  });
});
