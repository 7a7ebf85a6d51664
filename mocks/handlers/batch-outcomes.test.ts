/**
 * A forced outcome ends every kind of job in it (x-rules async-poll-terminal): a run, a run waited for, a batch
 * with runs (the batch and each run), a batch without runs; through `Prefer: outcome` and the control plane; as
 * the API shows it and as the SQL tables do. The outcomes are the contract's terminal statuses, read from it.
 */
import fc from 'fast-check';
import { loadContract } from '../../spec/lib';
import { createMockControl } from '../control/client';
import { SPEC_PATH, startCheckedMock } from '../testing/client';
import {
  BATCH_OUTCOME_PRECEDENCE,
  batchStatusAt,
  createRunRecord,
  isTerminal,
  requestRunCancel,
  runStatusAt,
  tallyCancel,
  tallyOf,
} from '../store/runs';
import type { BatchRecord, RunRecord } from '../store/types';

const contract = loadContract(SPEC_PATH);
const schemas = (contract.document as { components: { schemas: Record<string, { enum?: string[] }> } }).components
  .schemas;
const OUTCOMES = schemas.TerminalRunStatus.enum as RunRecord['outcome'][];

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

/** The kinds of job a client creates, each with how to create it and what its answer holds. */
const JOB_KINDS = [
  { kind: 'run', path: '/orchestration/runs', body: {}, field: 'run', runs: 0 },
  { kind: 'run waited for', path: '/orchestration/runs', body: { waitUntilFinished: true }, field: 'run', runs: 0 },
  {
    kind: 'batch with runs',
    path: '/orchestration/batches',
    body: { recordIds: ['r1', 'r2'] },
    field: 'batch',
    runs: 2,
  },
  { kind: 'batch without runs', path: '/orchestration/batches', body: {}, field: 'batch', runs: 0 },
] as const;
const CHANNELS = ['Prefer: outcome', 'control plane'] as const;

describe('forced outcomes, for every kind of job', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 0);
  let m: Checked;
  const control = () => createMockControl({ url: m.mock.origin, token: 'mock-token-a' });
  beforeAll(async () => {
    m = await startCheckedMock({
      now: () => clock,
      sleep: async (ms) => void (clock += ms),
      runDurationMs: 1000,
      rateLimit: 100_000,
    });
  });
  afterEach(() => control().reset());
  afterAll(() => m.close());

  const status = async (kind: 'runs' | 'batches', uuid: string) => {
    const res = await m.call('GET', `/orchestration/${kind}/${uuid}`);
    return res.body[kind === 'runs' ? 'run' : 'batch'].status as string;
  };
  const sqlStatus = async (table: 'runs' | 'batches', uuid: string) => {
    const res = await m.call('POST', '/orchestration/query', {
      body: { query: `SELECT status FROM ${table} WHERE uuid = '${uuid}'` },
    });
    return res.body.rows[0]?.status as string;
  };

  it('should take its outcomes from the contract, each once in the batch precedence', () => {
    expect(OUTCOMES.length).toBeGreaterThan(1);
    expect([...BATCH_OUTCOME_PRECEDENCE].sort()).toEqual([...OUTCOMES].sort());
  });

  const cases = JOB_KINDS.flatMap((job) =>
    OUTCOMES.flatMap((outcome) => CHANNELS.map((channel) => [job.kind, outcome, channel, job] as const)),
  );
  it.each(cases)('should end a %s forced to %s (%s) in it, in the API and in SQL', async (_, outcome, channel, job) => {
    if (channel === 'control plane') await control().forceOutcome(outcome);
    const headers: Record<string, string> = channel === 'Prefer: outcome' ? { prefer: `outcome=${outcome}` } : {};
    const created = await m.call('POST', job.path, { body: job.body, headers });
    const uuid = created.body[job.field].uuid as string;
    const table = job.field === 'run' ? 'runs' : 'batches';
    if ('waitUntilFinished' in job.body) expect([created.status, created.body.run.status]).toEqual([200, outcome]);
    else expect([created.status, isTerminal(created.body[job.field].status)]).toEqual([202, false]);
    clock += 1000;
    expect(await status(table, uuid)).toBe(outcome);
    expect(await sqlStatus(table, uuid)).toBe(outcome);
    if (job.runs > 0) {
      const members = await m.call('POST', '/orchestration/query', {
        body: { query: `SELECT status FROM runs WHERE batchUuid = '${uuid}'` },
      });
      expect(members.body.rows).toEqual(Array.from({ length: job.runs }, () => ({ status: outcome })));
    }
  });

  it.each(OUTCOMES.filter((outcome) => outcome !== 'cancelled'))(
    'should end a batch forced to %s whose runs were all cancelled meanwhile as cancelled',
    async (outcome) => {
      const created = await m.call('POST', '/orchestration/batches', {
        body: { recordIds: ['r1', 'r2'] },
        headers: { prefer: `outcome=${outcome}` },
      });
      const batch = created.body.batch.uuid as string;
      const runs = await m.call('POST', '/orchestration/query', {
        body: { query: `SELECT uuid FROM runs WHERE batchUuid = '${batch}'` },
      });
      for (const { uuid } of runs.body.rows as { uuid: string }[])
        expect((await m.call('POST', `/orchestration/runs/${uuid}/cancel`, { body: {} })).status).toBe(202);
      clock += 1000;
      expect(await status('batches', batch)).toBe('cancelled');
      expect(await sqlStatus('batches', batch)).toBe('cancelled');
    },
  );
});

describe('a batch status from its tally, with forced outcomes and cancels, as a property', () => {
  /** The rule walked over the runs: the first status of the precedence one of them ended in. */
  const walked = (runs: RunRecord[], now: number) => {
    const statuses = runs.map((run) => runStatusAt(run, now));
    if (!statuses.every(isTerminal)) return statuses.every((s) => s === 'pending') ? 'pending' : 'running';
    return BATCH_OUTCOME_PRECEDENCE.find((outcome) => statuses.includes(outcome));
  };
  it('should equal the status walked over its runs, whatever their outcomes, the cancels and the clock', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...OUTCOMES), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(5), fc.nat(1500)), { maxLength: 8 }),
        fc.nat(3000),
        (outcomes, cancels, probe) => {
          const runs = outcomes.map((outcome, i) =>
            createRunRecord({ uuid: `r${i}`, workspaceUuid: 'ws', createdAtMs: 0, durationMs: 1000, outcome }),
          );
          const tally = tallyOf(runs);
          const batch: BatchRecord = {
            uuid: 'b',
            workspaceUuid: 'ws',
            workflowUuid: null,
            createdAtMs: 0,
            durationMs: 1000,
            runUuids: runs.map((run) => run.uuid),
            tally,
          };
          for (const [index, at] of [...cancels].sort((a, b) => a[1] - b[1])) {
            const target = runs[index % runs.length];
            if (requestRunCancel(target, at)) tallyCancel(tally, target);
          }
          for (const now of [0, 249, 250, probe, 999, 1000, 1250, 1750, 5000]) {
            expect(batchStatusAt(batch, now)).toBe(walked(runs, now));
            // A batch stored without its tally (fixtures, older stores) follows its runs alike.
            expect(batchStatusAt({ ...batch, tally: undefined }, now, runs)).toBe(walked(runs, now));
          }
        },
      ),
    );
  });
});
