import { startCheckedMock } from './testing/client';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

/** Created runs and batches are kept `MOCK_RUN_TTL_MS` after their creation; then they answer as never created. */
describe('created runs and batches past their age, over HTTP', () => {
  let clock = Date.UTC(2026, 6, 1, 9, 0, 0);
  let m: Checked;
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, runTtlMs: 60_000 });
  });
  afterAll(() => m.close());

  const pathOf = (location: string) => new URL(location).pathname.replace(/^\/v1/, '');
  const count = async (sql: string) =>
    ((await m.call('POST', '/orchestration/query', { body: { query: sql } })).body.rows[0] as { n: number }).n;

  it('should answer 404 as for a run not kept (never created, or dropped by the count bound), and leave no SQL rows', async () => {
    const run = await m.call('POST', '/orchestration/runs', { body: { recordId: 'aging' } });
    const batch = await m.call('POST', '/orchestration/batches', { body: { recordIds: ['a', 'b'] } });
    const runPath = pathOf(run.headers.location);
    const batchPath = pathOf(batch.headers.location);
    const uuid = run.body.run.uuid as string;
    const seededRuns = (await count('SELECT count(*) AS n FROM runs')) - 3;

    clock += 60_000;
    expect((await m.call('GET', runPath)).status).toBe(200);
    expect((await m.call('GET', batchPath)).status).toBe(200);
    expect(await count(`SELECT count(*) AS n FROM logs WHERE runUuid = '${uuid}'`)).toBe(1);

    clock += 1_000;
    const gone = await m.call('GET', runPath);
    const never = await m.call('GET', '/orchestration/runs/00000000-0000-4000-8000-000000000000');
    expect(gone.status).toBe(404);
    expect(gone.body.reason).toBe(never.body.reason);
    expect(gone.body.errorMessage).toBe(never.body.errorMessage.replace('00000000-0000-4000-8000-000000000000', uuid));
    expect((await m.call('GET', batchPath)).status).toBe(404);
    expect((await m.call('POST', `/orchestration/runs/${uuid}/cancel`)).status).toBe(404);
    expect(await count('SELECT count(*) AS n FROM runs')).toBe(seededRuns);
    expect(await count(`SELECT count(*) AS n FROM logs WHERE runUuid = '${uuid}'`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM spans WHERE runUuid = '${uuid}'`)).toBe(0);
  });
});
