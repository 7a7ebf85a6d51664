/**
 * `npm run bench:catch-up`: what keeping a workspace's SQL database current costs the SQL worker per created run
 * (its CPU time, read from /proc), at several workspace sizes side by side in one run: the soak's writes (a run
 * alone, 20-run batches, each run's log and span rows derived from it, runs ending after 500 ms) with a query
 * every few writes (a dashboard's), so each query brings the database up to date with what was written since.
 * The largest size is the store's bound: every created run then also drops the oldest, from the store and from the
 * database.
 * Environment: BENCH_SIZES (default 1000,30000,100000), BENCH_WRITES (default 300 batches per size).
 */
import { nextTimeOrderedUuid } from '../mocks/handlers/resources';
import { createQueryEngine } from '../mocks/query';
import { createStore } from '../mocks/store';
import { createMemoryPort } from '../mocks/store/adapters/memory';
import { createRunRecord } from '../mocks/store/runs';
import type { BatchRecord, RunRecord } from '../mocks/store/types';
import { threadCpuMs } from './lib/bench/processes';

const SIZES = (process.env.BENCH_SIZES ?? '1000,30000,100000').split(',').map(Number);
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const QUERY_EVERY = 5;

/** The mock's own uuids for runs and batches (time-ordered, as `POST /orchestration/runs` makes them). */
const uuid = () => nextTimeOrderedUuid(Date.now());
let serial = 0;

/** CPU time so far of the SQL workers (threads named by mocks/query/sql-worker.ts) and of this main thread. */
function cpu(): { sql: number; main: number } {
  const threads = threadCpuMs(process.pid);
  const sql = [...threads.values()].filter((t) => t.name === 'sql-worker').reduce((n, t) => n + t.ms, 0);
  return { sql, main: threads.get(process.pid)?.ms ?? 0 };
}

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const size of SIZES) {
    const store = createStore({ port: createMemoryPort(), seed: 1, now: Date.now });
    const engine = createQueryEngine({ source: store.querySource(), workers: 1 });
    const workspace = '5d1c0b7a-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
    const add = async (count: number, batched: boolean) => {
      const now = Date.now();
      const batch: BatchRecord | undefined = batched
        ? {
            uuid: uuid(),
            workspaceUuid: workspace,
            workflowUuid: null,
            createdAtMs: now,
            durationMs: 500,
            outcome: 'success',
            runUuids: [],
          }
        : undefined;
      const runs: RunRecord[] = Array.from({ length: count }, (_, i) =>
        createRunRecord({
          uuid: uuid(),
          workspaceUuid: workspace,
          createdAtMs: now,
          durationMs: 500,
          recordId: `record-${++serial}-${i}`,
          batchUuid: batch?.uuid ?? null,
        }),
      );
      if (batch) batch.runUuids = runs.map((run) => run.uuid);
      await store.addRuns(workspace, { runs, batch });
    };
    for (let done = 0; done < size; done += 1000) {
      await add(Math.min(1000, size - done), false);
      await engine.query(workspace, 'SELECT 1');
    }
    await new Promise((resolve) => setTimeout(resolve, 600));
    await engine.query(workspace, 'SELECT 1');
    let created = 0;
    const before = cpu();
    const started = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const batched = i % 2 === 0;
      await add(batched ? 20 : 1, batched);
      created += batched ? 20 : 1;
      if (i % QUERY_EVERY === QUERY_EVERY - 1)
        await engine.query(workspace, 'SELECT uuid, status FROM runs ORDER BY createdAt DESC LIMIT 20');
    }
    const after = cpu();
    const perRun = (ms: number) => ((ms * 1000) / created).toFixed(0);
    rows.push(
      `| ${size.toLocaleString('en')} | ${created} | ${perRun(after.sql - before.sql)} | ${perRun(after.main - before.main)} | ${((performance.now() - started) / created).toFixed(3)} |`,
    );
    await engine.close();
  }
  process.stdout.write(
    `| runs in the workspace | runs created | SQL worker CPU per created run (µs) | main thread CPU per created run (µs) | wall per created run (ms) |\n|---:|---:|---:|---:|---:|\n${rows.join('\n')}\n`,
  );
}

void main();
