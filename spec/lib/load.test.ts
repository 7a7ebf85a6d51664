import { join } from 'node:path';
import { bundleFile, dereferenceDocument } from './load';
import { getAtPointer } from './pointer';
import { loadContract } from './contract';

const SPLIT = join(__dirname, 'fixtures', 'split', 'openapi.yaml');

describe('bundleFile', () => {
  it('should bundle split files into one document whose $refs are all internal', () => {
    const bundled = bundleFile(SPLIT);
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref') refs.push(v as string);
          else walk(v);
        }
      }
    };
    walk(bundled);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.every((ref) => ref.startsWith('#/'))).toBe(true);
    // The split schema lands where components name it, and its self-reference points there.
    expect(getAtPointer(bundled, '#/components/schemas/Node/properties/children/items')).toEqual({
      $ref: '#/components/schemas/Node',
    });
    expect(getAtPointer(bundled, '#/components/schemas/Node/properties/sibling/properties/parent')).toEqual({
      $ref: '#/components/schemas/Node',
    });
  });

  it('should name the file and the reference that point at nothing', () => {
    const missing = join(__dirname, 'fixtures', 'missing-ref.yaml');
    expect(() => bundleFile(missing)).toThrow(/cannot read .*nowhere\.yaml/);
  });
});

describe('dereferenceDocument', () => {
  const document = {
    components: {
      schemas: {
        Tree: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
        },
        Error: { type: 'object' },
        Uses: {
          properties: {
            a: { $ref: '#/components/schemas/Error' },
            b: { $ref: '#/components/schemas/Error', description: 'b' },
          },
        },
      },
    },
  };

  it.each([
    ['object', (tree: any) => expect(tree.properties.children.items).toBe(tree)],
    ['ref', (tree: any) => expect(tree.properties.children.items).toEqual({ $ref: '#/components/schemas/Tree' })],
  ] as const)('should turn a cycle into %s', (cycles, check) => {
    check((dereferenceDocument(document as any, cycles) as any).components.schemas.Tree);
  });

  it('should share one object per target and merge siblings of $ref into a copy', () => {
    const { schemas } = (dereferenceDocument(document as any, 'object') as any).components;
    expect(schemas.Uses.properties.a).toBe(schemas.Error);
    expect(schemas.Uses.properties.b).toEqual({ type: 'object', description: 'b' });
    expect(schemas.Uses.properties.b).not.toBe(schemas.Error);
  });
});

describe('loadContract on split files', () => {
  it('should read the base path from the server URL with its variables and see operations of split path items', () => {
    const contract = loadContract(SPLIT);
    expect(contract.basePath).toBe('/v2');
    expect(contract.operations.map((op) => [op.operationId, op.parameters.map((p) => p.name)])).toEqual([
      ['getNode', ['uuid']],
    ]);
    expect(loadContract(SPLIT)).toBe(contract);
  });

  it('should validate recursive schemas across files', () => {
    const contract = loadContract(SPLIT);
    const observed = (body: unknown, status = 200) => ({
      method: 'GET',
      path: '/nodes/x',
      status,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(
      contract.validateResponse(observed({ name: 'a', children: [{ name: 'b', sibling: { parent: { name: 'c' } } }] })),
    ).toEqual([]);
    expect(
      contract
        .validateResponse(observed({ children: [{ sibling: { parent: { name: 'long' } } }] }))
        .map((v) => v.message),
    ).toEqual(['body.children.0.sibling.parent.name: must NOT have more than 3 characters']);
    expect(contract.validateResponse(observed({ errorMessage: 'gone' }, 404))).toEqual([]);
  });
});
