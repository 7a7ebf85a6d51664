/**
 * `npm run bench:query`: the mock's SQL engine (POST /orchestration/query) over a workspace holding many runs,
 * with its databases kept and updated on write, side by side with the baseline of this same run: tables rebuilt
 * from the store for every query (what the engine did before). Then fairness: a small workspace's query latency
 * alone, and while another workspace floods the engine with runaway queries (the flood's queries end at their
 * budget by design: counted, by where the budget ran out; any failed query is counted too, never ends the run).
 * Prints markdown.
 * Environment: BENCH_RUNS (default 100000), BENCH_QUERIES (default 200), BENCH_BASELINE_QUERIES (default 10).
 */
import { ApiError } from '../mocks/errors';
import { createQueryEngine } from '../mocks/query';
import { createStore } from '../mocks/store';
import { createMemoryPort } from '../mocks/store/adapters/memory';
import { createRunRecord } from '../mocks/store/runs';

const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const BASELINE_QUERIES = Number(process.env.BENCH_BASELINE_QUERIES ?? 10);
const BIG = '5d1c0b7a-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
const SMALL = '6e2d1c8b-4f3a-4b2c-9d0e-1f2a3b4c5d6e';
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const QUERY_MIX = [
  "SELECT count(*) AS n FROM runs WHERE status = 'success'",
  'SELECT status, count(*) AS n FROM runs GROUP BY status',
  'SELECT uuid, status, updatedAt FROM runs ORDER BY createdAt DESC LIMIT 20',
  "SELECT r.uuid, l.message FROM runs r JOIN logs l ON l.runUuid = r.uuid WHERE r.recordId = 'record-42' LIMIT 5",
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
};
const fmt = (n: number) => n.toFixed(1);

let serial = 0;
const uuid = () => `00000000-0000-4000-8000-${(++serial).toString(16).padStart(12, '0')}`;

async function fill(store: ReturnType<typeof createStore>, workspaceUuid: string, runs: number, now: number) {
  for (let done = 0; done < runs; done += 1000) {
    const chunk = Array.from({ length: Math.min(1000, runs - done) }, (_, i) =>
      createRunRecord({
        uuid: uuid(),
        workspaceUuid,
        createdAtMs: now - (runs - done - i) * 1000,
        durationMs: 5000 + ((done + i) % 7) * 1000,
        recordId: `record-${done + i}`,
        outcome: (done + i) % 10 === 0 ? 'error' : 'success',
      }),
    );
    await store.addRuns(workspaceUuid, { runs: chunk });
  }
}

/** Counts one outcome: an ApiError by its reason (a query timeout split by where it ran out), else as given. */
function count1(outcomes: Map<string, number>, outcome: unknown) {
  let key = String(outcome);
  if (outcome instanceof ApiError)
    key =
      outcome.reason === 'query_timeout'
        ? `query_timeout: ${/waited/.test(outcome.message) ? 'queued' : 'ran'}`
        : outcome.reason;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function main() {
  const store = createStore({ port: createMemoryPort(), seed: 1, now: Date.now });
  const filling = performance.now();
  await fill(store, BIG, RUNS, Date.now());
  console.error(`filled ${RUNS} runs in ${((performance.now() - filling) / 1000).toFixed(1)} s`);

  const kept = createQueryEngine({
    source: store.querySource(),
    timeoutMs: 60_000,
  });
  const rebuilt = createQueryEngine({ readTables: (ws) => store.readQueryTables(ws), timeoutMs: 60_000 });

  const firstLoad = await timed(() => kept.query(BIG, 'SELECT 1'));
  const measure = async (engine: typeof kept, count: number, write: boolean) => {
    const ms: number[] = [];
    for (let i = 0; i < count; i++) {
      // A write between queries, as in real use: the kept database follows it without a reload.
      if (write) await fill(store, BIG, 1, Date.now());
      ms.push(await timed(() => engine.query(BIG, QUERY_MIX[i % QUERY_MIX.length])));
      if (i % 50 === 49) console.error(`  ${i + 1}/${count} queries`);
    }
    return summary(ms);
  };
  console.error('kept databases…');
  const keptFigures = await measure(kept, QUERIES, true);
  console.error('baseline: rebuilt per query…');
  const rebuiltFigures = await measure(rebuilt, BASELINE_QUERIES, true);

  // Fairness: a small workspace alone, then while the big one floods runaway queries.
  const fairEngine = createQueryEngine({
    source: store.querySource(),
    timeoutMs: 2000,
  });
  await fairEngine.query(SMALL, 'SELECT 1');
  // A query that fails is counted by reason (its time still counts): the run goes on and the table shows it.
  const smallErrors = { alone: new Map<string, number>(), during: new Map<string, number>() };
  const small = async (count: number, errors: Map<string, number>) => {
    const ms: number[] = [];
    for (let i = 0; i < count; i++)
      ms.push(await timed(() => fairEngine.query(SMALL, QUERY_MIX[i % 2]).catch((error) => count1(errors, error))));
    return ms;
  };
  const alone = summary(await small(100, smallErrors.alone));
  // The flood's queries are meant to run over their budget (or wait past it behind each other): counted by reason.
  const floodOutcomes = new Map<string, number>();
  let flooding = true;
  const flood = Array.from({ length: 10 }, async () => {
    while (flooding)
      await fairEngine.query(BIG, RUNAWAY).then(
        () => count1(floodOutcomes, 'answered'),
        (error: unknown) => count1(floodOutcomes, error),
      );
  });
  const during: number[] = [];
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    during.push(...(await small(10, smallErrors.during)));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  flooding = false;
  await Promise.all(flood);
  const contended = summary(during);

  console.log(`### SQL engine over a workspace of ${RUNS.toLocaleString('en')} runs\n`);
  console.log('| engine | queries | p50 ms | p99 ms | max ms |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| kept per workspace, updated on write | ${QUERIES} | ${fmt(keptFigures.p50)} | ${fmt(keptFigures.p99)} | ${fmt(keptFigures.max)} |`,
  );
  console.log(
    `| baseline: rebuilt for every query | ${BASELINE_QUERIES} | ${fmt(rebuiltFigures.p50)} | ${fmt(rebuiltFigures.p99)} | ${fmt(rebuiltFigures.max)} |`,
  );
  console.log(
    `\nFirst query of the workspace (database loaded once): ${fmt(firstLoad)} ms. p99 ratio baseline/kept: ${(rebuiltFigures.p99 / keptFigures.p99).toFixed(0)}x.\n`,
  );
  console.log('### Another workspace while this one floods runaway queries (10 at a time, 2 s budget)\n');
  const errorsOf = (errors: Map<string, number>) => [...errors.values()].reduce((a, b) => a + b, 0);
  const floodSent = errorsOf(floodOutcomes);
  console.log(
    '| small workspace | queries | failed | p50 ms | p99 ms | max ms | flood queries | flood stopped at budget | flood timed out in queue |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| alone | 100 | ${errorsOf(smallErrors.alone)} | ${fmt(alone.p50)} | ${fmt(alone.p99)} | ${fmt(alone.max)} | – | – | – |`,
  );
  console.log(
    `| during the flood | ${during.length} | ${errorsOf(smallErrors.during)} | ${fmt(contended.p50)} | ${fmt(contended.p99)} | ${fmt(contended.max)} | ${floodSent} | ${floodOutcomes.get('query_timeout: ran') ?? 0} | ${floodOutcomes.get('query_timeout: queued') ?? 0} |`,
  );
  const unexpected = [
    ...[...smallErrors.alone, ...smallErrors.during].map(([reason, n]) => `small workspace ${reason}: ${n}`),
    ...[...floodOutcomes]
      .filter(([reason]) => !reason.startsWith('query_timeout'))
      .map(([reason, n]) => `flood ${reason}: ${n}`),
  ];
  if (unexpected.length > 0) console.log(`\nOther outcomes: ${unexpected.join('; ')}.`);
  console.log(`\nAdded p99 latency: ${fmt(contended.p99 - alone.p99)} ms.`);
  await Promise.all([kept.close(), rebuilt.close(), fairEngine.close()]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
