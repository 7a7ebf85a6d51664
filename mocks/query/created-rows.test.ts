import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import initSqlJs from 'sql.js';
import { describeSchemaError, loadContract } from '../../spec/lib';
import { createMemoryPort } from '../store/adapters/memory';
import { createRedisPort } from '../store/adapters/redis';
import type { StoragePort } from '../store/port';
import { createStore } from '../store';
import { startRedisServer, type RedisServer } from '../testing/redis-server';
import { createRunRecord, createdLogUuid, createdSpanUuid } from '../store/runs';
import { createdRowTables, queryTableSchema } from './tables';
import { engineCountingLoads, queryDocumentedTable } from './test-tables';
import { createWorkspaceIndexes, createWorkspaceTables } from './worker/database';
import { defined } from '../testing/defined';

/**
 * A created run's log and span rows are kept nowhere: the store derives them from the run where it shows them
 * (readQueryTables, snapshots), and the SQL engine generates them, narrow, from the run's row. Both must show the
 * same rows, of the documented types, in the same order, found by the same indexes as rows kept whole.
 */
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 600_000);
afterAll(async () => {
  await redis?.stop();
});

describe.each([
  ['memory', async (): Promise<StoragePort> => createMemoryPort()],
  [
    'redis',
    async (): Promise<StoragePort> => createRedisPort({ url: redis.url, prefix: `test:created-rows:${randomUUID()}:` }),
  ],
])("a created run's log and span rows, derived from the run (%s)", (_name, makePort) => {
  let port: StoragePort;
  let store: ReturnType<typeof createStore>;
  let engine: ReturnType<typeof engineCountingLoads>['engine'];
  let loads: () => number;
  // A correctness proof: a generous budget, so a loaded machine never makes it a timing test.
  beforeAll(async () => {
    port = await makePort();
    store = createStore({ port, seed: 5, now: Date.now });
    ({ engine, loads } = engineCountingLoads(store, { maxRows: 10_000, timeoutMs: 30_000 }));
  });
  afterAll(async () => {
    await engine.close();
    await port.close();
  });

  /**
   * Every documented column with its SQLite type and its comparison with a number (which a column's type decides:
   * a TEXT column compares `'128' = 128` as texts), in the order the table keeps its rows (no ORDER BY).
   */
  const everyColumn = (table: (typeof createdRowTables)[number]) =>
    `SELECT ${queryTableSchema[table].map(([c]) => `"${c}", typeof("${c}") AS "${c}Type", "${c}" = 128 AS "${c}Is128"`).join(', ')} FROM ${table}`;

  // Instants from before 1970 to past 9999 (kept as text where SQLite would not write the same), whole or not; a
  // run ends 1 s after it starts, within the last instant a date can hold.
  const instant = fc.oneof(
    fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_999 }),
    fc.integer({ min: 253_402_300_800_000, max: 8_639_999_999_990_000 }),
    fc.double({ min: 0, max: 2e12, noNaN: true }),
  );
  // Random uuids as the API creates them, and any other text a run could be kept under.
  const runUuid = fc.oneof(fc.uuid(), fc.stringMatching(/^[0-9a-fA-F-]{0,40}$/));

  it('should show the rows the store derives, as a table of the documented types holds them, loaded or followed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ uuid: runUuid, createdAtMs: instant }), {
          selector: (run) => run.uuid,
          maxLength: 8,
        }),
        fc.nat(8),
        async (fields, loadedFirst) => {
          const workspaceUuid = randomUUID();
          const runs = fields.map((run) => createRunRecord({ ...run, workspaceUuid, durationMs: 1000 }));
          // Some runs are in the database's first load, the others follow it as changes.
          await store.addRuns(workspaceUuid, { runs: runs.slice(0, loadedFirst) });
          await engine.query(workspaceUuid, 'SELECT 1');
          await store.addRuns(workspaceUuid, { runs: runs.slice(loadedFirst) });
          const shown = await store.readQueryTables(workspaceUuid);
          for (const table of createdRowTables) {
            const sql = everyColumn(table);
            expect((await engine.query(workspaceUuid, sql)).rows).toEqual(
              await queryDocumentedTable(table, shown[table], sql),
            );
          }
        },
      ),
      // A run kept under '12' shows a log row '128' (see createdLogUuid).
      { numRuns: 20, examples: [[[{ uuid: '12', createdAtMs: 0 }], 0]] },
    );
  });

  it('should go with their run when it leaves the list of created runs (an undo), without reloading', async () => {
    const workspaceUuid = randomUUID();
    const runs = [0, 1, 2].map((i) =>
      createRunRecord({ uuid: randomUUID(), workspaceUuid, createdAtMs: i, durationMs: 1 }),
    );
    await store.addRuns(workspaceUuid, { runs });
    const count = async () =>
      Promise.all(
        createdRowTables.map(
          async (table) =>
            (
              (
                await engine.query(
                  workspaceUuid,
                  `SELECT count(*) AS n FROM ${table} WHERE runUuid = '${runs[1].uuid}'`,
                )
              ).rows[0] as { n: number }
            ).n,
        ),
      );
    expect(await count()).toEqual([1, 1]);
    const before = loads();
    await store.removeCreatedRuns(workspaceUuid, { runs: [runs[1]] });
    expect(await count()).toEqual([0, 0]);
    expect(loads()).toBe(before);
    const shown = await store.readQueryTables(workspaceUuid);
    expect(shown.logs.map((row) => (row as { runUuid: string }).runUuid).slice(-2)).toEqual([
      runs[0].uuid,
      runs[2].uuid,
    ]);
  });

  it('should show them in the order the runs were created in a workspace of many runs, loaded afresh', async () => {
    // Past 128 fields Redis keeps a hash in an order of its own: the rows still follow the list of created runs.
    const workspaceUuid = randomUUID();
    const runs = Array.from({ length: 300 }, (_, i) =>
      createRunRecord({ uuid: randomUUID(), workspaceUuid, createdAtMs: 1_000 - i, durationMs: 1 }),
    );
    await store.addRuns(workspaceUuid, { runs });
    const shown = await store.readQueryTables(workspaceUuid);
    for (const table of createdRowTables) {
      const sql = everyColumn(table);
      expect((await engine.query(workspaceUuid, sql)).rows).toEqual(
        await queryDocumentedTable(table, shown[table], sql),
      );
    }
    const listed = shown.spans.map((row) => (row as { runUuid: string }).runUuid).slice(-300);
    expect(listed).toEqual(runs.map((run) => run.uuid));
  });
});

describe("the uuids and plans of a created run's rows", () => {
  it('should give rows of runs the API creates uuids of the contract, unique, and never a run’s', () => {
    const compiler = loadContract().schemas();
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (let i = 0; i < 200; i++) {
      const run = randomUUID();
      const [log, span] = [createdLogUuid(run), createdSpanUuid(run)];
      expect([log, span]).toEqual([expect.stringMatching(uuid), expect.stringMatching(uuid)]);
      expect(new Set([run, log, span]).size).toBe(3);
      const validate = compiler.at('#/components/schemas/QueryLogRow');
      const row = { uuid: log, workspaceUuid: run, runUuid: run, level: 'info', message: 'm', createdAt: 'now' };
      if (!validate(row)) throw new Error(describeSchemaError(defined(validate.errors, 'validate.errors')[0], ''));
    }
  });

  it('should find a run’s rows, and join runs with them, through the index on runUuid', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    createWorkspaceTables(db, randomUUID());
    createWorkspaceIndexes(db);
    const plan = (sql: string) => JSON.stringify(db.exec(`EXPLAIN QUERY PLAN ${sql}`)[0].values);
    for (const table of createdRowTables) {
      const index = `mock_${table}_runUuid`;
      expect(plan(`SELECT * FROM ${table} WHERE runUuid = 'x'`)).toContain(index);
      expect(
        plan(`SELECT r.uuid, t.uuid FROM runs r JOIN ${table} t ON t.runUuid = r.uuid WHERE r.recordId = 'x'`),
      ).toContain(index);
      expect(plan(`SELECT * FROM ${table} WHERE runUuid = 'x'`)).not.toMatch(/SCAN|AUTOMATIC/);
    }
    db.close();
  });
});
