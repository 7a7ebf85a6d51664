/**
 * `npm run soak [-- --duration 120 --window 20 --connections 16 --prefill 0 --full-scan]`: a bounded mixed load
 * against `npm start`'s server (a child process), printing per window the throughput, p50/p99, 5xx, the server's
 * resident memory and its CPU time per request (all its threads: robust to other load on the machine). Goal:
 * last-window throughput ≥ 0.95× the first (0.6× with `--full-scan`: a whole-table aggregate costs what the table
 * holds, so its share grows as the workspaces fill), memory levelling off, zero 5xx (exit 1 otherwise). `--prefill <runs>`
 * first creates that many runs in each workspace (in batches of 1000), so the load starts from full workspaces: the
 * steady state without waiting for the load to fill them (its first window includes loading them into SQL).
 *
 * The mix's SQL reads what a live dashboard reads: the latest batch's runs by status, the latest 20 runs. A query
 * over every run costs what it reads (`npm run bench:query` times one over 100 000 runs), so it would measure
 * SQLite's scan speed, not whether the mock's own per-request work grows with its state; `--full-scan` puts the
 * whole-table `GROUP BY status` back in the mix to see that cost under load.
 *
 * Beside the mix, a fourth tenant steers its own workspace through `/__mock` the whole time, with its own token:
 * a rate limit of 3, latency, a `reset` fault on half its requests, runs forced to `error`, then a reset of its
 * workspace, over and over. The mix's tenants must see none of it: no 429 and no broken connection (exit 1
 * otherwise), while the steering tenant must meet its own limit and faults (else the check proves nothing).
 *
 * The CPU per request is printed for the whole process and split by thread: the main thread (the event loop),
 * the SQL workers (named `sql-worker` by mocks/query/sql-worker.ts) and the others (V8's collector and compiler
 * helpers, libuv's pool). `SOAK_NODE_OPTIONS` passes options to the server's
 * Node alone, to see where that time goes, e.g. `SOAK_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/soak-prof
 * --trace-gc'` (a profile per thread, written when the soak stops the server); the server's output is then shown
 * on stderr instead of being dropped.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { cpuMs, rssMb, threadCpuMs } from './lib/bench/processes';

type Args = { duration: number; window: number; connections: number; prefill: number; fullScan: boolean };
const OPTIONS = ['--duration', '--window', '--connections', '--prefill'];

function readArgs(argv: string[]): Args {
  const args: Args = { duration: 120, window: 20, connections: 16, prefill: 0, fullScan: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--full-scan') {
      args.fullScan = true;
      continue;
    }
    const [flag, inline] = argv[i].split('=');
    const value = inline ?? argv[++i];
    const number = Number(value);
    const valid =
      flag === '--prefill' ? Number.isInteger(number) && number >= 0 : Number.isFinite(number) && number > 0;
    if (!OPTIONS.includes(flag) || !valid) {
      throw new Error(
        `soak: unknown or invalid option ${argv[i]}; use --duration <s> --window <s> --connections <n> --prefill <runs> --full-scan`,
      );
    }
    args[flag.slice(2) as 'duration' | 'window' | 'connections' | 'prefill'] = number;
  }
  return args;
}

/** The last window's throughput against the first: the default mix, and with the whole-table aggregate. */
const GOAL = 0.95;
const FULL_SCAN_GOAL = 0.6;
/** An answer that takes longer than this counts as a failed request. */
const REQUEST_TIMEOUT_MS = 30_000;
const WORKSPACES = [
  '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
  '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
  '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
];
/** The tenant that steers its own workspace through `/__mock` while the others load theirs. */
const STEERING = { token: 'soak-steer', workspace: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a' };
const TOKENS = [...WORKSPACES.map((ws, i) => `soak-${i}=${ws}`), `${STEERING.token}=${STEERING.workspace}`].join(',');

async function startServer(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const root = path.join(__dirname, '..');
  const nodeOptions = (process.env.SOAK_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, '--require', 'tsx/cjs', 'mocks/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', MOCK_TOKENS: TOKENS, MOCK_RATE_LIMIT: '1000000000', MOCK_RUN_DURATION_MS: '500' },
    stdio: ['ignore', 'pipe', 'inherit'] as const,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(text);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before listening`)));
  });
  if (nodeOptions.length > 0) child.stdout.pipe(process.stderr);
  else child.stdout.resume();
  return {
    url,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

type Sample = { ms: number; status: number };
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's JSON, read field by field by the soak's steps
): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(text ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - started });
        });
      },
    );
    req.on('error', () => resolve({ status: 0, body: undefined, ms: performance.now() - started }));
    // A request left unanswered is a failure, never a stall of the soak itself.
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timed out')));
    req.end(text);
  });
}

/** The mix's exports ask for the runs of a status created in this many last milliseconds. */
const EXPORT_WINDOW_MS = 5_000;

/** The latest batch each workspace's token created: the mix's SQL follows its progress. */
const lastBatch = new Map<string, string>();

/** One user's step: a weighted mix of reads, writes, polls, queries, exports and bad requests. */
async function step(base: string, n: number, record: (s: Sample) => void, fullScan: boolean): Promise<void> {
  const token = `soak-${n % WORKSPACES.length}`;
  const call = async (
    method: string,
    p: string,
    body?: unknown,
    headers?: Record<string, string>,
    as: string | null = token,
  ) => {
    const answer = await request(base, method, p, as, body, headers);
    record({ ms: answer.ms, status: answer.status });
    return answer;
  };
  const pick = n % 20;
  if (pick < 6) await call('GET', `/mailboxManagement/suppressions?limit=${1 + (n % 50)}`);
  else if (pick < 9) {
    const created = await call(
      'POST',
      '/orchestration/runs',
      { recordId: `soak-${n}` },
      n % 2 ? { 'idempotency-key': `soak-${n % 5000}` } : {},
    );
    const location = created.body?.run?.uuid;
    if (location) {
      await call('GET', `/orchestration/runs/${location}`);
      if (n % 3 === 0) await call('POST', `/orchestration/runs/${location}/cancel`);
    }
  } else if (pick < 11) {
    const batch = await call('POST', '/orchestration/batches', {
      recordIds: Array.from({ length: 20 }, (_, i) => `b${n}-${i}`),
    });
    if (batch.body?.batch?.uuid) {
      lastBatch.set(token, batch.body.batch.uuid);
      await call('GET', `/orchestration/batches/${batch.body.batch.uuid}`);
    }
  } else if (pick < 13)
    await call('POST', '/orchestration/query', {
      query:
        n % 2
          ? fullScan || !lastBatch.has(token)
            ? 'SELECT status, count(*) AS n FROM runs GROUP BY status'
            : `SELECT status, count(*) AS n FROM runs WHERE batchUuid = '${lastBatch.get(token)}' GROUP BY status`
          : 'SELECT uuid, status FROM runs ORDER BY createdAt DESC LIMIT 20',
    });
  else if (pick === 13)
    await call('PUT', '/workspaceManagement/workspaces/current', {
      name: `Soak ${n % 100}`,
      metadata: { mainGoal: ['soak'] },
    });
  else if (pick === 14) {
    const exported = await call('POST', '/orchestration/runs/download', {
      statuses: ['success'],
      createdAfter: new Date(Date.now() - EXPORT_WINDOW_MS).toISOString(),
    });
    if (typeof exported.body?.url === 'string') {
      const answer = await request(exported.body.url, 'GET', '', token);
      record({ ms: answer.ms, status: answer.status });
    }
  } else if (pick === 15)
    await call(
      'POST',
      '/ai/mcpServers',
      { name: `s${n}`, description: 'soak', actions: [] },
      { 'idempotency-key': `mcp-${n}` },
    );
  else if (pick === 16)
    await call('GET', '/mailboxManagement/suppressions', undefined, undefined, n % 2 ? 'constructor' : 'not-a-token');
  else if (pick === 17)
    await call('POST', '/orchestration/runs', '{"recordId": ', { 'content-type': 'application/json' });
  else if (pick === 18) await call('GET', '/expression/recipes/list?limit=5');
  else await call('GET', `/orchestration/workflows/00000000-0000-0000-0000-000000000000`);
}

/** Creates `runs` runs in every workspace, 1000 to a batch, a few batches at once. */
async function prefill(base: string, runs: number): Promise<void> {
  const started = performance.now();
  for (const [n] of WORKSPACES.entries()) {
    const batches = Array.from({ length: Math.ceil(runs / 1000) }, (_, b) =>
      Array.from({ length: Math.min(1000, runs - b * 1000) }, (_, i) => `prefill-${b}-${i}`),
    );
    for (let at = 0; at < batches.length; at += 4) {
      const answers = await Promise.all(
        batches
          .slice(at, at + 4)
          .map((recordIds) => request(base, 'POST', '/orchestration/batches', `soak-${n}`, { recordIds })),
      );
      const refused = answers.find((answer) => answer.status !== 202 && answer.status !== 200 && answer.status !== 201);
      if (refused) throw new Error(`prefill: POST /orchestration/batches answered ${refused.status}`);
    }
  }
  process.stdout.write(
    `prefill: ${runs} runs in each of ${WORKSPACES.length} workspaces in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  // The load starts once the prefill's runs are older than what the mix exports: created 15 000 a second, they
  // would make its first exports hundreds of times larger than the load's own (a query far past its budget).
  await new Promise((resolve) => setTimeout(resolve, EXPORT_WINDOW_MS));
}

/** What the steering tenant met of its own settings (it must meet them: otherwise its steering did nothing). */
type Steered = { rounds: number; limited: number; broken: number; refused: number };

/**
 * The steering tenant: sets its own workspace's rate limit, latency, faults and outcome through `/__mock` with its
 * own token, sends a few requests of its own (not counted in the mix's figures), resets its workspace, and again.
 */
async function steerOwnWorkspace(base: string, stopAt: number): Promise<Steered> {
  const origin = base.replace(/\/v1$/, '');
  const steered: Steered = { rounds: 0, limited: 0, broken: 0, refused: 0 };
  const control = async (method: string, p: string, body: unknown) => {
    const answer = await request(origin, method, `/__mock${p}`, STEERING.token, body);
    if (answer.status !== 200) steered.refused += 1;
  };
  while (Date.now() < stopAt) {
    await control('PATCH', '/settings', {
      rateLimit: 3,
      latencyMs: 20,
      hangMs: 200,
      outcome: 'error',
      faults: [{ fault: 'reset', share: 0.5 }],
    });
    for (let i = 0; i < 6; i++) {
      const answer = await request(base, 'GET', '/mailboxManagement/suppressions?limit=1', STEERING.token);
      if (answer.status === 429) steered.limited += 1;
      if (answer.status === 0) steered.broken += 1;
    }
    await control('POST', '/reset', {});
    steered.rounds += 1;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return steered;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2));
  const server = await startServer();
  const base = server.url;
  process.stdout.write(
    `soak: ${args.duration} s against ${base}, ${args.connections} connections, windows of ${args.window} s; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores\n`,
  );
  if (args.prefill > 0) await prefill(base, args.prefill);
  process.stdout.write(
    'window   req/s    p50 ms   p99 ms   5xx   errors   rss MB   cpu ms/req  (main    sql  other)\n',
  );
  let cpuAt = cpuMs(server.pid);
  let threadsAt = threadCpuMs(server.pid);
  const windows: { rate: number; p99: number; fives: number; rss: number }[] = [];
  let samples: Sample[] = [];
  let counter = 0;
  const started = Date.now();
  let windowStarted = started;
  const stopAt = started + args.duration * 1000;
  const report = () => {
    const now = Date.now();
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    const fives = samples.filter((s) => s.status >= 500).length;
    const failed = samples.filter((s) => s.status === 0).length;
    const rate = samples.length / ((now - windowStarted) / 1000);
    const rss = rssMb(server.pid);
    const cpu = cpuMs(server.pid);
    const threads = threadCpuMs(server.pid);
    const split = { main: 0, sql: 0, other: 0 };
    for (const [id, { name, ms }] of threads) {
      const used = ms - (threadsAt.get(id)?.ms ?? 0);
      split[id === server.pid ? 'main' : name === 'sql-worker' ? 'sql' : 'other'] += used;
    }
    const perRequest = (ms: number) => (samples.length > 0 ? ms / samples.length : 0);
    const cpuPerRequest = perRequest(cpu - cpuAt);
    cpuAt = cpu;
    threadsAt = threads;
    windows.push({ rate, p99: percentile(sorted, 99), fives: fives + failed, rss });
    process.stdout.write(
      `${String(windows.length).padStart(6)} ${rate.toFixed(0).padStart(7)} ${percentile(sorted, 50).toFixed(1).padStart(9)} ${percentile(sorted, 99).toFixed(1).padStart(8)} ${String(fives).padStart(5)} ${String(failed).padStart(8)} ${rss.toFixed(1).padStart(8)} ${cpuPerRequest.toFixed(2).padStart(12)} ${[split.main, split.sql, split.other].map((ms) => perRequest(ms).toFixed(2).padStart(6)).join(' ')}\n`,
    );
    samples = [];
    windowStarted = now;
  };
  const timer = setInterval(report, args.window * 1000);
  // A 429 answered to the mix's tenants (their limit is far above the load) could only come from another's steering.
  let othersLimited = 0;
  const record = (sample: Sample) => {
    if (sample.status === 429) othersLimited += 1;
    samples.push(sample);
  };
  const [steered] = await Promise.all([
    steerOwnWorkspace(base, stopAt),
    ...Array.from({ length: args.connections }, async () => {
      while (Date.now() < stopAt) await step(base, counter++, record, args.fullScan);
    }),
  ]);
  clearInterval(timer);
  if (samples.length > 0 && Date.now() - windowStarted > (args.window * 1000) / 2) report();
  await server.stop();
  agent.destroy();
  const first = windows[0];
  const last = windows[windows.length - 1];
  const fives = windows.reduce((sum, w) => sum + w.fives, 0);
  const ratio = last.rate / first.rate;
  const goal = args.fullScan ? FULL_SCAN_GOAL : GOAL;
  // Memory moves in a sawtooth with garbage collection: the second half's range says whether it levelled off.
  const half = windows.slice(Math.floor(windows.length / 2)).map((w) => w.rss);
  const firstHalfMax = Math.max(...windows.slice(0, Math.floor(windows.length / 2)).map((w) => w.rss), 0);
  process.stdout.write(
    `\nlast/first throughput ${ratio.toFixed(2)}× (goal ≥ ${goal.toFixed(2)}); 5xx and failed ${fives} (goal 0); RSS ${first.rss.toFixed(0)} → ${last.rss.toFixed(0)} MB (second half ${Math.min(...half).toFixed(0)}-${Math.max(...half).toFixed(0)} MB, first half up to ${firstHalfMax.toFixed(0)} MB)\n`,
  );
  const steeringSeen = steered.limited > 0 && steered.broken > 0 && steered.refused === 0;
  process.stdout.write(
    `tenant steering its own workspace through /__mock: ${steered.rounds} rounds, it met its limit ${steered.limited} and its faults ${steered.broken} times, control refusals ${steered.refused} (goal 0); the other tenants' 429s ${othersLimited} and broken connections ${fives} (goal 0)\n`,
  );
  process.exitCode = ratio >= goal && fives === 0 && othersLimited === 0 && steeringSeen ? 0 : 1;
}

main().catch((error) => {
  process.stderr.write(`soak: ${error instanceof Error ? error.message : error}\n`);
  process.exit(2);
});
