import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderChecksTable, tableOf } from '../../generators/registries';
import { BROKEN } from '../fixtures';
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

describe("the README's table of checks", () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

  it('should be the table npm run generate writes from the checks and their broken fixtures', () => {
    // Stale when a check or a fixture changed without `npm run generate` (generate --check says which file).
    expect({
      table: 'run npm run generate',
      current: tableOf(readme) === renderChecksTable(allChecks(), BROKEN),
    }).toEqual({ table: 'run npm run generate', current: true });
  });

  it('should have one row per check, naming its rule and its broken server, and no row for a check that is gone', () => {
    const rows = new Map(
      [
        ...(tableOf(readme) ?? '').matchAll(
          /^\| ([a-z0-9-]+)(?: \([^)|]*\))? \| ([^|\n]*) \| [^|\n]* \| ([^|\n]*) \|$/gm,
        ),
      ].map((m) => [m[1], m] as const),
    );
    for (const check of allChecks()) {
      const row = rows.get(check.id);
      expect({ check: check.id, row: row !== undefined }).toEqual({ check: check.id, row: true });
      expect({ check: check.id, rule: row?.[2].startsWith(check.ruleId) }).toEqual({ check: check.id, rule: true });
      expect({ check: check.id, fixture: row?.[3].startsWith(check.fixture) }).toEqual({
        check: check.id,
        fixture: true,
      });
    }
    const ids = new Set(allChecks().map((c) => c.id));
    expect([...rows.keys()].filter((id) => id !== 'check' && !ids.has(id))).toEqual([]);
  });
});
