import { randomUUID } from 'node:crypto';
import { assumptionOf, loadContract } from '../../spec/lib';
import { DEFAULTS, type RunConfig } from '../config';
import type { FailureInput } from '../lib/failure';
import { judgeLiveLocations, judgeLiveStatuses, TRACKED_JOBS } from './live-polling';
import type { CheckContext, TrafficJudge } from './registry';

const contract = loadContract();
const UPSTREAM = 'http://upstream.test/v1';
const A = 'Bearer token-a';
const B = 'Bearer token-b';

type Step = {
  method?: string;
  path: string;
  status: number;
  body?: unknown;
  auth?: string;
  key?: string;
  location?: string;
  /** Sent before the previous answer arrived (in flight together). */
  concurrent?: boolean;
};

/** Feeds steps to a judge as the proxy does, in the order the answers arrive; returns what it reported. */
function report(make: (ctx: CheckContext) => TrafficJudge, steps: Step[]): FailureInput[] {
  const reported: FailureInput[] = [];
  // Only what the judges read: the contract, --create-run-path and report.
  const ctx = {
    contract,
    config: DEFAULTS as unknown as RunConfig,
    report: (input: FailureInput) => void reported.push(input),
    note: () => undefined,
  } as unknown as CheckContext;
  const { see } = make(ctx);
  let tick = 0;
  steps.forEach((step, i) => {
    const sentTick = step.concurrent ? tick - 1 : ++tick;
    const headers: Record<string, string> = { authorization: step.auth ?? A };
    if (step.key) headers['idempotency-key'] = step.key;
    see({
      id: i + 1,
      checkId: 'passive',
      tokenLabel: 'a',
      request: { method: step.method ?? 'GET', url: `${UPSTREAM}${step.path}`, path: step.path, headers },
      response: {
        status: step.status,
        headers: step.location === undefined ? {} : { location: step.location },
        body: step.body,
        text: JSON.stringify(step.body ?? ''),
      },
      sentAt: 0,
      receivedAt: 0,
      sentTick,
      receivedTick: ++tick,
    });
  });
  return reported;
}

function judge(make: (ctx: CheckContext) => TrafficJudge, steps: Step[]): string[] {
  return report(make, steps).map((input) => `${input.severity ?? 'failure'}: ${input.title}`);
}

const uuid = randomUUID();
const run = (status: string, id = uuid) => ({ run: { uuid: id, status } });
const get = (status: string, extra: Partial<Step> = {}): Step => ({
  path: `/orchestration/runs/${uuid}`,
  status: 200,
  body: run(status),
  ...extra,
});

describe('judgeLiveStatuses', () => {
  const LEFT = ['failure: The run left its terminal status'];
  it.each([
    [
      'should accept a run polled to its end and after',
      { steps: [get('running'), get('success'), get('success')], want: [] },
    ],
    [
      'should fail a run seen running after success',
      { steps: [get('running'), get('success'), get('running')], want: LEFT },
    ],
    ['should fail a terminal status that turns into another', { steps: [get('success'), get('error')], want: LEFT }],
    [
      'should not judge an answer to a request sent before the terminal one arrived',
      { steps: [get('success'), get('running', { concurrent: true })], want: [] },
    ],
    [
      'should not judge a replayed create (the original response, an earlier state)',
      {
        steps: [
          get('success'),
          { method: 'POST', path: '/orchestration/runs', status: 202, key: 'k1', body: run('pending') },
        ],
        want: [],
      },
    ],
    [
      'should fail a cancel without a key that answers cancelling for a finished run',
      {
        steps: [
          get('cancelled'),
          { method: 'POST', path: `/orchestration/runs/${uuid}/cancel`, status: 202, body: run('cancelling') },
        ],
        want: LEFT,
      },
    ],
    ['should keep workspaces apart', { steps: [get('success'), get('running', { auth: B })], want: [] }],
    [
      'should judge batches alike',
      {
        steps: [
          get('x', { body: { batch: { uuid, status: 'skipped' } } }),
          get('x', { body: { batch: { uuid, status: 'pending' } } }),
        ],
        want: ['failure: The batch left its terminal status'],
      },
    ],
  ])('%s', (_name, { steps, want }) => {
    expect(judge(judgeLiveStatuses, steps)).toEqual(want);
  });

  it('should forget the oldest job once it tracks the most it may', () => {
    const others = Array.from({ length: TRACKED_JOBS }, () => get('success', { body: run('success', randomUUID()) }));
    expect(judge(judgeLiveStatuses, [get('success'), ...others, get('running')])).toEqual([]);
    expect(judge(judgeLiveStatuses, [get('success'), ...others.slice(1), get('running')])).toHaveLength(1);
  });
});

describe('judgeLiveLocations', () => {
  const create = (location?: string, extra: Partial<Step> = {}): Step => ({
    method: 'POST',
    path: '/orchestration/runs',
    status: 202,
    body: run('pending'),
    location,
    ...extra,
  });
  const poll = (status: number, extra: Partial<Step> = {}): Step =>
    get('running', { status, body: status === 200 ? run('running') : { errorMessage: 'x' }, ...extra });
  it.each([
    [
      'should accept an absolute Location polled to its end',
      { steps: [create(`${UPSTREAM}/orchestration/runs/${uuid}`), poll(200), get('success'), poll(404)], want: [] },
    ],
    [
      'should resolve a relative Location against the request URL',
      { steps: [create(`runs/${uuid}`), poll(200)], want: [] },
    ],
    ['should fail a 202 without Location', { steps: [create()], want: ['failure: The 202 for a run has no Location'] }],
    [
      'should fail a Location that is no URI reference',
      { steps: [create('http://[::1')], want: ['failure: The Location of the run is not a URI reference'] },
    ],
    [
      'should fail a Location that polls 404',
      { steps: [create(`runs/${uuid}`), poll(404)], want: ['failure: The Location of the run does not resolve'] },
    ],
    [
      'should fail a Location that polls 503',
      { steps: [create(`runs/${uuid}`), poll(503)], want: ['failure: The Location of the run does not resolve'] },
    ],
    [
      'should fail a Location of another run',
      {
        steps: [create(`runs/${uuid}`), { ...poll(200), body: run('running', randomUUID()) }],
        want: ['failure: The Location of the run points at another run'],
      },
    ],
    [
      'should warn about a Location without the uuid',
      { steps: [create('runs/latest')], want: ['warning: The Location of the run does not name its uuid'] },
    ],
    ['should not judge a 401 or a 429 of a poll', { steps: [create(`runs/${uuid}`), poll(401), poll(429)], want: [] }],
    [
      'should not judge another workspace polling it',
      { steps: [create(`runs/${uuid}`), poll(404, { auth: B })], want: [] },
    ],
    [
      'should not judge a 202 the contract does not declare with Location',
      { steps: [create(undefined, { path: '/ai/mcpServers' })], want: [] },
    ],
    [
      'should judge a cancel accepted',
      {
        steps: [create(undefined, { path: `/orchestration/runs/${uuid}/cancel` })],
        want: ['failure: The 202 for a cancelled run has no Location'],
      },
    ],
  ])('%s', (_name, { steps, want }) => {
    expect(judge(judgeLiveLocations, steps)).toEqual(want);
  });

  it('should quote the assumption of the operation on its warning, and reproduce a poll after its create', () => {
    const [warning] = report(judgeLiveLocations, [create('runs/latest')]);
    expect(warning.assumption).toBe(assumptionOf(contract.operation('createRun')!.node));
    const [failure] = report(judgeLiveLocations, [create(`runs/${uuid}`), poll(404)]);
    expect(failure.sequence?.map((exchange) => exchange.request.method)).toEqual(['POST']);
    expect(failure.exchange?.request.method).toBe('GET');
  });
});
