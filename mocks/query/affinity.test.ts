import { createQueryEngine, sourceOfTables, type QuerySource } from './index';
import { tablesOf } from './test-tables';

/**
 * More large workspaces than workers: each worker loads one while the others' queries wait. A workspace whose
 * worker is busy loading another one of about its size waits for it rather than moves, since loading it on the
 * other worker takes as long, and that worker's own workspaces would then wait and move in turn. Moving after one
 * budget of waiting, the engine loaded every workspace again and again (three workspaces of 100 000 runs on two
 * workers: under 70 requests a second, most of the server's time in loads).
 */
describe('large workspaces on fewer workers', () => {
  const workspaces = [
    '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
  ];
  // 20 000 rows each (runs, logs, records, spans): a load takes several times the budget below.
  const RUNS = 5000;
  let loads = 0;
  const shown = sourceOfTables(async (workspaceUuid) => tablesOf(workspaceUuid, `w${workspaceUuid[0]}`, RUNS));
  const source: QuerySource = {
    versions: async () => ['v1'],
    snapshot: async (workspaceUuid) => {
      loads++;
      return { ...(await shown.snapshot(workspaceUuid)), version: 'v1' };
    },
  };
  const engine = createQueryEngine({ source, timeoutMs: 200, workers: 2 });
  afterAll(() => engine.close());

  it('should load each workspace once and answer every query, rather than move them between workers', async () => {
    // Each workspace's queries one after another, the three side by side (a dashboard per tenant).
    await Promise.all(
      workspaces.map(async (workspace) => {
        for (let i = 0; i < 8; i++)
          expect(await engine.query(workspace, 'SELECT count(*) AS n FROM runs')).toEqual({ rows: [{ n: RUNS }] });
      }),
    );
    expect(loads).toBe(workspaces.length);
  }, 60_000);
});
