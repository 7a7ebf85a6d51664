/**
 * The run lifecycle the runner and the proxy share: the one check filter, the order of events, what hooks raise,
 * snapshots on copies, and the summary's exit code and field order.
 */
import { loadContract } from '../../spec/lib';
import { allChecks } from '../checks';
import type { Check } from '../checks/registry';
import { ConfigError, parseConfig } from '../config';
import { CheckFailure } from '../lib/failure';
import { HttpClient, type Exchange } from '../lib/http-client';
import { startPassiveProxy } from '../proxy';
import { emitter, exitCodeOf, RunLifecycle, selectChecks } from './lifecycle';
import { WorkerPool } from './scheduler';
import { Selection } from './selection';
import { newResult, type RunEvent } from './types';

const contract = loadContract();
const config = parseConfig(['--target', 'http://127.0.0.1:1/v1', '--token', 't', '--seed', '7']);
// A registered check as the template keeps every field a check must declare; each test gives it its own parts.
const template = allChecks()[0];
const checkNamed = (id: string, parts: Partial<Check> = {}): Check => ({
  ...template,
  id,
  run: undefined,
  onExchange: undefined,
  traffic: undefined,
  finish: undefined,
  ...parts,
});

function lifecycle(checks: Check[], events: RunEvent[] = [], traffic = false): RunLifecycle {
  const client = new HttpClient({ baseUrl: config.target, tokenA: config.tokenA, maxRequests: 1 });
  return new RunLifecycle({
    config,
    contract,
    client,
    selection: new Selection(contract, config),
    pool: new WorkerPool(1),
    checks,
    reporters: [{ onEvent: (event) => void events.push(event) }],
    startedAt: Date.now(),
    traffic,
  });
}

function exchange(): Exchange {
  return {
    id: 1,
    checkId: 'passive',
    tokenLabel: 'a',
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/x', path: '/x', headers: {} },
    response: { status: 200, headers: {}, text: '' },
    sentAt: 0,
    receivedAt: 1,
    sentTick: 1,
    receivedTick: 2,
  };
}

describe('selectChecks', () => {
  const checks = ['a', 'b', 'c'].map((id) => checkNamed(id));

  it.each([
    ['nothing given', {}, ['a', 'b', 'c']],
    ['--only', { only: ['c', 'a'] }, ['a', 'c']],
    ['--skip', { skip: ['b'] }, ['a', 'c']],
    ['both', { only: ['a', 'b'], skip: ['b'] }, ['a']],
  ])('should keep the checks %s selects, in the registry order', (_name, flags, want) => {
    expect(selectChecks(checks, flags).map((check) => check.id)).toEqual(want);
  });

  it.each([
    ['--only', { only: ['a', 'nope'] }],
    ['--skip', { skip: ['nope'] }],
  ])('should refuse an unknown id in %s, naming the flag', (flag, flags) => {
    expect(() => selectChecks(checks, flags)).toThrow(new ConfigError(`unknown check id(s) in ${flag}: nope`));
  });

  it('should refuse an unknown check id in passive mode too, before listening', async () => {
    const passive = parseConfig(['--proxy', '--upstream', 'http://127.0.0.1:1/v1', '--only', 'nope']);
    await expect(
      startPassiveProxy({ ...passive, upstream: passive.target }, { checks: allChecks(), contract }),
    ).rejects.toThrow(ConfigError);
  });
});

describe('emitter', () => {
  it('should deliver events in order past a slow reporter, and none after the run ends', async () => {
    const seen: string[] = [];
    const slow = {
      onEvent: (event: RunEvent) => new Promise<void>((r) => setTimeout(r, event.type === 'run-start' ? 20 : 0)),
    };
    const emit = emitter([slow, { onEvent: (event) => void seen.push(event.type) }]);
    const summary = lifecycle([]).summary({ target: config.target, requests: 0 }, {});
    void emit({ type: 'run-start', target: config.target, seed: 1, checks: [], specPath: config.specPath });
    void emit({ type: 'check-start', check: checkNamed('a') });
    void emit({ type: 'run-end', summary });
    await emit({ type: 'check-start', check: checkNamed('late') });
    expect(seen).toEqual(['run-start', 'check-start', 'run-end']);
  });
});

describe('RunLifecycle', () => {
  it('should count an exchange for every observing check and make what a hook raises its finding', () => {
    const fails = checkNamed('fails', {
      onExchange: () => {
        throw new CheckFailure({ title: 'A rule broke', expected: 'x', received: 'y' });
      },
    });
    const crashes = checkNamed('crashes', {
      onExchange: () => {
        throw new Error('boom');
      },
    });
    const run = lifecycle([fails, crashes]);
    run.observe(exchange(), [fails, crashes], 'report');
    expect(run.result(fails)).toMatchObject({ requests: 1, failures: [{ title: 'A rule broke' }] });
    expect(run.result(crashes)).toMatchObject({
      requests: 1,
      failures: [{ title: 'Check raised an error', received: 'boom' }],
    });
    expect(() => run.observe(exchange(), [crashes], 'throw')).toThrow('boom');
  });

  it('should hand exchanges to traffic judges in a passive run only, and end them before finish', async () => {
    const calls: string[] = [];
    const judged = checkNamed('judged', {
      traffic: {
        judge: () => ({ see: () => void calls.push('see'), end: () => void calls.push('end') }),
        covers: () => true,
      },
      finish: () => void calls.push('finish'),
    });
    const active = lifecycle([judged]);
    active.observe(exchange(), [judged], 'report');
    await active.finish();
    expect(calls).toEqual(['finish']);
    calls.length = 0;
    const passive = lifecycle([judged], [], true);
    passive.observe(exchange(), [judged], 'report');
    await passive.finish();
    expect(calls).toEqual(['see', 'end', 'finish']);
  });

  it('should settle copies for a snapshot and leave the live results collecting', async () => {
    const events: RunEvent[] = [];
    const idle = checkNamed('idle');
    const run = lifecycle([idle], events);
    const [copy] = run.settledCopies();
    expect(copy.status).toBe('skipped');
    expect(run.result(idle).skippedReason).toBeUndefined();
    await run.snapshot(run.summary({ target: config.target, requests: 0 }, {}, [copy]));
    expect(events.map((event) => event.type)).toEqual(['snapshot']);
  });

  it('should give the summary its exit code and the mode fields after the common ones', () => {
    const run = lifecycle([checkNamed('a')]);
    const summary = run.summary({ target: config.target, requests: 3 }, { workers: 1, undescribed: [] });
    expect(Object.keys(summary)).toEqual([
      'target',
      'seed',
      'results',
      'requests',
      'durationMs',
      'exitCode',
      'workers',
      'undescribed',
    ]);
    expect(summary).toMatchObject({ seed: 7, requests: 3, exitCode: 0 });
  });

  it.each([
    ['a failure', ['failed', 'passed'], undefined, 1],
    ['a failure in a stopped run', ['failed'], 'time spent', 1],
    ['a stopped run without failure', ['passed', 'skipped'], 'time spent', 2],
    ['passes, warnings and skips', ['passed', 'warned', 'skipped'], undefined, 0],
  ] as const)('should exit as %s says', (_name, statuses, stopped, want) => {
    const results = statuses.map((status) => ({ ...newResult(checkNamed('x')), status }));
    expect(exitCodeOf(results, stopped)).toBe(want);
  });

  it('should refuse a check that is not part of the run', () => {
    expect(() => lifecycle([]).result(checkNamed('stranger'))).toThrow('check "stranger" is not part of this run');
  });
});
