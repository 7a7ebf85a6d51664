/**
 * Against the real contract: for every operation, generated requests satisfy the operation's parameter and body
 * schemas, and every invalid request breaks them.
 */
import fc from 'fast-check';
import { loadContract } from '../../spec/lib';
import { invalidRequests, validRequest, canonicalRequest, validValue, invalidCases } from './index';
import { ajvValid, requestProblems } from './test-support';

type Operation = { operationId: string; parameters?: object[] };
type Entry = { id: string; operation: Operation; pathItemParams: object[] };

describe('the contract spec/openapi.yaml', () => {
  let operations: Entry[] = [];
  let schemas: Record<string, Record<string, unknown>> = {};

  beforeAll(() => {
    // Dereferenced with recursive references kept as `$ref` (the generators follow them with a resolver).
    const contract = loadContract();
    schemas =
      (contract.dereferenced.components as { schemas?: Record<string, Record<string, unknown>> } | undefined)
        ?.schemas ?? {};
    operations = contract.operations.map((op) => ({
      id: op.operationId,
      operation: { ...op.node, parameters: op.parameters.map((p) => p.node) } as Operation,
      pathItemParams: [],
    }));
  });

  it('should find the operations of the contract', () => {
    expect(operations.map((o) => o.id)).toEqual(
      expect.arrayContaining(['listSuppressions', 'createMcpServer', 'executeQuery', 'updateCurrentWorkspace']),
    );
  });

  it('should generate valid requests for every operation', () => {
    for (const { id, operation, pathItemParams } of operations) {
      expect({
        id,
        problems: requestProblems(operation, pathItemParams, canonicalRequest(operation, pathItemParams)),
      }).toEqual({ id, problems: [] });
      fc.assert(
        fc.property(validRequest(operation, pathItemParams), (request) => {
          const problems = requestProblems(operation, pathItemParams, request);
          if (problems.length > 0) throw new Error(`${id}: ${problems.join('\n')}`);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('should produce invalid requests that break the schemas for every operation with input constraints', () => {
    const counts: Record<string, number> = {};
    for (const { id, operation, pathItemParams } of operations) {
      const cases = invalidRequests(operation, pathItemParams);
      counts[id] = cases.length;
      for (const c of cases) {
        if (requestProblems(operation, pathItemParams, c.request).length === 0)
          throw new Error(`${id}: ajv accepts ${c.location} ${c.description}`);
      }
    }
    for (const id of ['listSuppressions', 'createMcpServer', 'executeQuery', 'updateCurrentWorkspace', 'getWorkflow']) {
      expect({ id, some: (counts[id] ?? 0) > 0 }).toEqual({ id, some: true });
    }
  });

  it('should include the contract limits among the invalid requests', () => {
    const find = (id: string) => operations.find((o) => o.id === id)!;
    const summary = (id: string) => {
      const { operation, pathItemParams } = find(id);
      return invalidRequests(operation, pathItemParams).map((c) => `${c.location}:${c.path}:${c.breaks}`);
    };
    expect(summary('listSuppressions')).toEqual(
      expect.arrayContaining([
        'query:limit:minimum',
        'query:limit:maximum',
        'query:limit:type',
        'query:offset:maximum',
        'query:reasons[0]:enum',
      ]),
    );
    expect(summary('executeQuery')).toEqual(
      expect.arrayContaining(['body:query:maxLength', 'header:Idempotency-Key:maxLength']),
    );
    expect(summary('updateCurrentWorkspace')).toEqual(
      expect.arrayContaining(['body:name:pattern', 'body:name:maxLength']),
    );
    expect(summary('getWorkflow')).toEqual(expect.arrayContaining(['path:uuid:pattern']));
  });

  it('should generate valid values and invalid cases for every component schema', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      fc.assert(
        fc.property(validValue(schema), (value) => {
          if (!ajvValid(schema, value)) throw new Error(`${name}: ${JSON.stringify(value).slice(0, 300)}`);
        }),
        { numRuns: 30 },
      );
      for (const c of invalidCases(schema)) {
        if (ajvValid(schema, c.value)) throw new Error(`${name}: ajv accepts ${c.description}`);
      }
    }
  });
});
