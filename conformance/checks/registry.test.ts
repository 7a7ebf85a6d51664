import { allChecks } from './index';
import { CheckRegistry, type Check } from './registry';

const NO_INPUTS: Check['inputs'] = { operations: 'all', reads: {} };

describe('CheckRegistry', () => {
  it('should refuse a duplicate check id', () => {
    const registry = new CheckRegistry();
    const check = { id: 'some-rule-holds', ruleId: 'r', title: 't', fixture: 'f', inputs: NO_INPUTS };
    registry.register(check);
    expect(() => registry.register({ ...check })).toThrow(/already registered/);
  });

  it('should refuse an id that is not a kebab-case sentence', () => {
    expect(() =>
      new CheckRegistry().register({ id: 'Some Rule', ruleId: 'r', title: 't', fixture: 'f', inputs: NO_INPUTS }),
    ).toThrow(/kebab-case/);
  });

  it('should cite an x-rules id of the contract in every check', async () => {
    const { loadContract } = await import('../../spec/lib');
    const contract = await loadContract();
    const ids = new Set(contract.rules.map((rule) => rule.id));
    for (const check of allChecks())
      expect({ check: check.id, cited: ids.has(check.ruleId) }).toEqual({ check: check.id, cited: true });
  });
});
