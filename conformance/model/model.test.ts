/**
 * The model's reading of the contract and its oracles, without a server: the roles derived from the operations'
 * shapes, SQL conditions printed with the precedence they are evaluated with, and the leak oracle's echo rule. The
 * phase against servers is proved by conformance.test.ts (the mock, correct variants, the broken fixtures).
 */
import { loadContract } from '../../spec/lib';
import { conditionSql, conditionStatement, childTableOf, SQL_FORMS, type Condition } from '../lib/query';
import { deriveRoles } from './derive';
import { leakIn, type Real } from './real';

const contract = loadContract();
const roles = deriveRoles(contract);

describe('deriveRoles', () => {
  it.each([
    ['createMcpServer', { envelope: 'mcpServer', job: false, reader: undefined, cancel: undefined }],
    ['createRun', { envelope: 'run', job: true, reader: 'getRun', cancel: 'cancelRun' }],
    ['createBatch', { envelope: 'batch', job: true, reader: 'getBatch', cancel: undefined, children: 'recordIds' }],
  ])('should read %s as a create of its shape', (operationId, want) => {
    const role = roles.creates.find((c) => c.op.operationId === operationId);
    expect(role).toBeDefined();
    expect({
      envelope: role!.envelope,
      job: role!.job,
      reader: role!.reader?.operationId,
      cancel: role!.cancel?.operationId,
      ...('children' in want ? { children: role!.children } : {}),
    }).toEqual(want);
  });

  it('should find the lists, their paging (stated for suppressions only) and their enumerated filters', () => {
    const byId = Object.fromEntries(roles.lists.map((l) => [l.op.operationId, l]));
    expect(byId.listSuppressions.paging?.stated).toBe(true);
    expect(byId.listRecipes.paging?.stated).toBe(false);
    expect(byId.listSuppressions.enumFilters.map((f) => [f.parameter.name, f.values.length, f.stated])).toEqual([
      ['reasons', 4, true],
    ]);
    expect(byId.listRecipes.enumFilters.map((f) => f.parameter.name)).toEqual(['uiTypes', 'tab', 'categories']);
    expect(roles.query?.operationId).toBe('executeQuery');
    expect(roles.exports?.operationId).toBe('downloadRuns');
  });

  it("should find a batch's runs beneath it from the query tables' columns", () => {
    expect(childTableOf(contract, 'batch')).toEqual({ table: 'runs', column: 'batchUuid' });
    expect(childTableOf(contract, 'mcpServer')).toBeUndefined();
  });
});

describe('SQL conditions', () => {
  const t: Condition = { kind: 'const', value: true };
  const f: Condition = { kind: 'const', value: false };
  it.each<[string, Condition, string]>([
    ['a constant', t, '1 = 1'],
    ['OR at the top level, bare', { kind: 'or', left: t, right: f }, '1 = 1 OR 0 = 1'],
    [
      'AND under OR keeps its parentheses',
      { kind: 'or', left: f, right: { kind: 'and', left: t, right: f } },
      '0 = 1 OR (1 = 1 AND 0 = 1)',
    ],
    [
      'NOT of a column test',
      { kind: 'not', inner: { kind: 'null', column: 'uuid', isNull: true } },
      'NOT uuid IS NULL',
    ],
  ])('should print %s', (_name, condition, want) => {
    expect(conditionSql(condition, true)).toBe(want);
  });

  it('should put the condition in a statement over the table', () => {
    expect(conditionStatement('runs', { kind: 'or', left: t, right: f })).toBe(
      'SELECT * FROM runs WHERE 1 = 1 OR 0 = 1 LIMIT 1000',
    );
  });

  it('should name boolean structure among the forms every table is queried in', () => {
    expect(Object.keys(SQL_FORMS)).toEqual(expect.arrayContaining(['OR', 'NOT', 'nested', 'precedence']));
    for (const form of ['OR', 'NOT', 'nested', 'precedence']) expect(SQL_FORMS[form]('runs')).toMatch(/ WHERE /);
  });
});

describe('leakIn', () => {
  const theirs = '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f';
  const real = {
    facts: {
      a: { needles: new Set<string>(), idsByField: new Map() },
      b: { needles: new Set([theirs]), idsByField: new Map() },
      notes: [],
    },
  } as unknown as Real;

  it.each<[string, string, string[], string | undefined]>([
    ["an answer naming the other workspace's record", `{"workspaceUuid":"${theirs}"}`, [], theirs],
    ['the same uuid in upper case', `{"x":"${theirs.toUpperCase()}"}`, [], theirs.toUpperCase()],
    ['an echo of what the request sent', `{"errorMessage":"no run ${theirs}"}`, [theirs], undefined],
    ['an answer of its own', '{"uuid":"0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b"}', [], undefined],
  ])('should judge %s', (_name, text, sent, want) => {
    expect(leakIn(real, 'a', text, new Set(sent))).toBe(want);
  });
});
