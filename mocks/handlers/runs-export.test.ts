import fc from 'fast-check';
import { createQueryEngine } from '../query';
import { createMemoryPort } from '../store/adapters/memory';
import { createStore } from '../store';
import { createRunRecord, requestRunCancel, viewRun } from '../store/runs';
import { TERMINAL_STATUSES, type JsonRecord } from '../store/types';
import { exportJsonQueryOf, exportQueryOf, matchesFilters } from './runs';

const WORKSPACE = '4a3b2c1d-0e9f-4a8b-9c7d-6e5f4a3b2c1d';

/** Run exports select on the SQL engine; the selection must be exactly the filters' as `matchesFilters` reads them. */
describe('run export filters on the SQL engine', () => {
  let clock = Date.parse('2026-05-01T12:00:00Z');
  const store = createStore({ port: createMemoryPort({ now: () => clock }), seed: 3, now: () => clock });
  const engine = createQueryEngine({
    source: store.querySource(),
    now: () => clock,
  });
  afterAll(() => engine.close());

  const values = {
    workflowUuid: ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'],
    recordId: ['r-1', 'r-2', 'r-3'],
    recordTitle: ['Acme', 'Globex'],
  };

  beforeAll(async () => {
    const runs = Array.from({ length: 40 }, (_, i) =>
      createRunRecord({
        uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        workspaceUuid: WORKSPACE,
        createdAtMs: clock - i * 997,
        durationMs: (i % 5) * 4000,
        workflowUuid: i % 3 === 0 ? null : values.workflowUuid[i % 2],
        recordId: values.recordId[i % 3],
        recordTitle: i % 4 === 0 ? null : values.recordTitle[i % 2],
        isGroupParent: i % 7 === 0,
        outcome: i % 6 === 0 ? 'error' : 'success',
      }),
    );
    await store.addRuns(WORKSPACE, { runs });
    for (const run of runs.filter((_, i) => i % 8 === 1))
      await store.update(WORKSPACE, 'runs', run.uuid, (current) =>
        requestRunCancel(current, clock) ? current : undefined,
      );
    clock += 5000;
  });

  const iso = (offsetMs: number) => new Date(Date.parse('2026-05-01T12:00:00Z') + offsetMs).toISOString();
  // Often exactly a run's own timestamp, so the bounds' strictness is exercised.
  const instant = (min: number, max: number) =>
    fc.oneof(
      fc.integer({ min, max }),
      fc.nat(39).map((i) => -i * 997),
    );
  const arbitraries = {
    workflowUuid: fc.constantFrom(...values.workflowUuid),
    recordId: fc.constantFrom(...values.recordId),
    recordTitle: fc.constantFrom(...values.recordTitle),
    recordTitleOrId: fc.constantFrom('r-2', 'Acme', 'nobody'),
    isGroupParent: fc.boolean(),
    isFinished: fc.boolean(),
    statuses: fc.subarray([...TERMINAL_STATUSES, 'pending', 'running', 'cancelling']),
    uuids: fc.subarray(Array.from({ length: 40 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)),
    createdAfter: instant(-40_000, 1000).map(iso),
    createdBefore: instant(-40_000, 1000).map((ms) => iso(ms).replace('Z', '+00:00')),
    updatedAfter: instant(-40_000, 20_000).map(iso),
    updatedBefore: instant(-40_000, 20_000).map(iso),
  };
  const combined = fc.record(arbitraries, { requiredKeys: [] });
  // One filter alone too, so each one's edges (equal timestamps, null fields) decide the selection.
  const single = fc.oneof(
    ...Object.entries(arbitraries).map(([key, arbitrary]) =>
      (arbitrary as fc.Arbitrary<unknown>).map((value) => ({ [key]: value })),
    ),
  );
  const filters = fc.oneof(single, combined);

  it('should select exactly the runs matchesFilters selects, in creation order', async () => {
    await fc.assert(
      fc.asyncProperty(filters, async (given) => {
        const expected = (await store.runs(WORKSPACE))
          .map((run) => viewRun(run, clock))
          .filter(matchesFilters(given as JsonRecord));
        const { sql, params } = exportQueryOf(given as JsonRecord);
        const { rows } = await engine.select(WORKSPACE, sql, params, { maxRows: 1e6, maxResultBytes: 1 << 24 });
        const selected = (rows as { isGroupParent: number }[]).map((row) => ({
          ...row,
          isGroupParent: row.isGroupParent === 1,
        }));
        expect(selected).toEqual(expected);
        // The same runs as the download keeps them: one JSON text, serialised in the SQL worker.
        const json = exportJsonQueryOf(given as JsonRecord);
        const limits = { maxRows: 1e6, maxResultBytes: 1 << 24, jsonArray: true };
        const [{ json: text }] = (await engine.select(WORKSPACE, json.sql, json.params, limits)).rows as [
          { json: string },
        ];
        expect(JSON.parse(text)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
