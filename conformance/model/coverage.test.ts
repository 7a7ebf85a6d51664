/**
 * The coverage sequence makes the model phase's verdicts independent of the seed: one command of each kind for
 * each role the contract gives it, so every broken server the phase is proved on fails under any seed (a drawn
 * sequence alone once missed the paging defect at random: the page command fell on another list).
 */
import { loadContract } from '../../spec/lib';
import { BROKEN } from '../fixtures';
import { runAgainstFixture } from '../fixtures/run-fixture';
import fc from 'fast-check';
import { commandArbitraries } from './commands';
import { coverageSequence } from './coverage';
import { deriveRoles } from './derive';

jest.setTimeout(180_000);

const MODEL_CHECK = 'stated-rules-hold-across-command-sequences';

describe('the coverage sequence', () => {
  it('should hold one command of each kind for each role (tenant B too when there is one)', () => {
    const contract = loadContract();
    const roles = deriveRoles(contract);
    const one = coverageSequence(contract, roles, false).map(String);
    const two = coverageSequence(contract, roles, true).map(String);
    const kinds = (list: string[]) => [...new Set(list.map((c) => c.replace(/\(.*$/, '')))].sort();
    // Every kind a drawn sequence can hold, read from the arbitraries themselves (a new command joins by itself).
    const drawn = fc.sample(fc.oneof(...commandArbitraries(contract, roles, false)), { numRuns: 2_000, seed: 1 });
    expect(kinds(one)).toEqual(expect.arrayContaining(kinds(drawn.map(String))));
    expect(one.filter((c) => c.startsWith('page(')).length).toBe(roles.lists.filter((l) => l.paging).length);
    expect(one.filter((c) => c.startsWith('replay(')).length).toBe(roles.creates.length);
    expect(two.length).toBeGreaterThan(one.length);
    expect(one.at(-1)).toMatch(/429/);
  });

  const fixtures = BROKEN.filter((f) => f.breaks?.checkId === MODEL_CHECK);
  it.each(fixtures.flatMap((f) => [3, 97].map((seed) => [f.name, seed, f] as const)))(
    'should fail %s under seed %d',
    async (_name, seed, fixture) => {
      const summary = await runAgainstFixture(fixture, { runs: 2, seed });
      expect(summary.results.find((r) => r.id === MODEL_CHECK)?.status).toBe('failed');
    },
  );
});
