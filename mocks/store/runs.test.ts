import fc from 'fast-check';
import {
  batchStatusAt,
  createRunRecord,
  isTerminal,
  requestRunCancel,
  runStatusAt,
  tallyCancel,
  tallyOf,
  viewBatch,
  viewRun,
} from './runs';
import type { BatchRecord, RunRecord } from './types';

const run = (): RunRecord => createRunRecord({ uuid: 'r', workspaceUuid: 'ws', createdAtMs: 0, durationMs: 1000 });

describe('run lifecycle (x-rules async-poll-terminal)', () => {
  it.each([
    [0, 'pending'],
    [249, 'pending'],
    [250, 'running'],
    [999, 'running'],
    [1000, 'success'],
    [10_000_000, 'success'],
  ])('should be, at %i ms, %s', (at, status) => {
    expect(runStatusAt(run(), at)).toBe(status);
  });

  it('should go through cancelling to cancelled, then stay there', () => {
    const r = run();
    expect(requestRunCancel(r, 500)).toBe(true);
    expect(runStatusAt(r, 500)).toBe('cancelling');
    expect(runStatusAt(r, 750)).toBe('cancelled');
    expect(runStatusAt(r, 10_000)).toBe('cancelled');
    expect(viewRun(r, 10_000).finishedAt).toBe(new Date(750).toISOString());
  });

  it('should not cancel a finished run', () => {
    const r = run();
    expect(requestRunCancel(r, 1000)).toBe(false);
    expect(runStatusAt(r, 2000)).toBe('success');
  });

  it('should know the terminal statuses', () => {
    expect(['success', 'error', 'cancelled', 'skipped'].every(isTerminal)).toBe(true);
    expect(['idle', 'pending', 'running', 'cancelling'].some(isTerminal)).toBe(false);
  });
});

describe('run lifecycle as a property (x-rules async-poll-terminal)', () => {
  const ORDER: Record<string, number> = {
    pending: 0,
    running: 1,
    cancelling: 2,
    success: 3,
    error: 3,
    cancelled: 3,
    skipped: 3,
  };

  it('should only move forward, and never leave a terminal status, whatever the polls and cancels', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.record({ advance: fc.integer({ min: 0, max: 700 }) }), fc.record({ cancel: fc.constant(true) })),
          { maxLength: 30 },
        ),
        (steps) => {
          const r = run();
          let now = 0;
          let last = runStatusAt(r, now);
          for (const step of steps) {
            if ('cancel' in step) requestRunCancel(r, now);
            else now += step.advance;
            const status = runStatusAt(r, now);
            if (isTerminal(last)) expect(status).toBe(last);
            expect(ORDER[status]).toBeGreaterThanOrEqual(ORDER[last]);
            if (last === 'cancelling') expect(['cancelling', 'cancelled']).toContain(status);
            last = status;
          }
          now += 10_000;
          expect(isTerminal(runStatusAt(r, now))).toBe(true);
        },
      ),
    );
  });
});

describe('batch status', () => {
  const batch = (runUuids: string[]): BatchRecord => ({
    uuid: 'b',
    workspaceUuid: 'ws',
    workflowUuid: null,
    createdAtMs: 0,
    durationMs: 1000,
    runUuids,
  });
  const member = (uuid: string) => createRunRecord({ uuid, workspaceUuid: 'ws', createdAtMs: 0, durationMs: 1000 });

  it('should follow the clock when the batch has no runs', () => {
    expect([batchStatusAt(batch([]), 0), batchStatusAt(batch([]), 500), batchStatusAt(batch([]), 1000)]).toEqual([
      'pending',
      'running',
      'success',
    ]);
  });

  it('should end cancelled when every run was cancelled, and only once every run is terminal', () => {
    const runs = [member('r1'), member('r2')];
    requestRunCancel(runs[0], 400);
    expect(batchStatusAt(batch(['r1', 'r2']), 900, runs)).toBe('running');
    requestRunCancel(runs[1], 900);
    expect(batchStatusAt(batch(['r1', 'r2']), 2000, runs)).toBe('cancelled');
    expect(viewBatch(batch(['r1', 'r2']), 2000, runs).finishedAt).toBe(new Date(900 + 250).toISOString());
  });

  it('should end in error when one run failed', () => {
    const runs = [member('r1'), { ...member('r2'), outcome: 'error' as const }];
    expect(batchStatusAt(batch(['r1', 'r2']), 1000, runs)).toBe('error');
  });
});

describe('batch status from its tally (constant time) as a property', () => {
  /** The status by walking every run, as the batch's rule states it. */
  const walked = (runs: RunRecord[], now: number) => {
    const statuses = runs.map((r) => runStatusAt(r, now));
    if (statuses.every(isTerminal))
      return statuses.every((s) => s === 'cancelled') ? 'cancelled' : statuses.includes('error') ? 'error' : 'success';
    return statuses.every((s) => s === 'pending') ? 'pending' : 'running';
  };
  it('should equal the status walked over the runs, whatever the cancels and the clock', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.nat(5), fc.nat(1500)), { maxLength: 8 }),
        fc.nat(3000),
        (size, cancels, probe) => {
          const runs = Array.from({ length: size }, (_, i) =>
            createRunRecord({ uuid: `r${i}`, workspaceUuid: 'ws', createdAtMs: 0, durationMs: 1000 }),
          );
          const tally = tallyOf(runs);
          const batch: BatchRecord = {
            uuid: 'b',
            workspaceUuid: 'ws',
            workflowUuid: null,
            createdAtMs: 0,
            durationMs: 1000,
            runUuids: [],
            tally,
          };
          for (const [index, at] of [...cancels].sort((a, b) => a[1] - b[1])) {
            const target = runs[index % size];
            if (requestRunCancel(target, at)) tallyCancel(tally, target);
          }
          for (const now of [0, 249, 250, probe, 999, 1000, 1250, 1750, 5000])
            expect(batchStatusAt(batch, now)).toBe(walked(runs, now));
        },
      ),
    );
  });
});
