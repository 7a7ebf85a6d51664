/**
 * `npm run conformance:bench`: the conformance suite against the mock with MOCK_LATENCY_MS (default 50) on every
 * request, sequential (--workers 1) and with BENCH_WORKERS (default 4) side by side in one run, same seed; prints
 * wall time, requests and whether every check's verdict is the same. Exits 1 when the verdicts differ.
 * Environment: MOCK_LATENCY_MS (default 50), BENCH_WORKERS (default 4), BENCH_SEED (default 1).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const LATENCY = process.env.MOCK_LATENCY_MS ?? '50';
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const SEED = process.env.BENCH_SEED ?? '1';
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

type Row = {
  label: string;
  command: string;
  seconds: number;
  requests: number;
  verdicts: Map<string, string>;
  exitCode: number;
};

/** Starts `npm start` on an ephemeral port and resolves with its base URL from the start banner. */
function startMock(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'mocks/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', MOCK_LATENCY_MS: LATENCY },
    stdio: ['ignore', 'pipe', 'inherit'] as const,
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`mock exited with ${code}`)));
  });
}

function runSuite(url: string, workers: number): Promise<Row> {
  const args = [
    'conformance/cli.ts',
    '--target',
    url,
    '--token',
    'mock-token-a',
    '--token-b',
    'mock-token-b',
    '--seed',
    SEED,
    '--workers',
    String(workers),
  ];
  const command = `npm run conformance -- --target <mock>/v1 --token mock-token-a --token-b mock-token-b --seed ${SEED} --workers ${workers}`;
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(TSX, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      const seconds = (Date.now() - started) / 1000;
      const verdicts = new Map<string, string>();
      for (const match of stdout.matchAll(/^ {2}(PASS|FAIL|WARN|SKIP) (\S+) \[/gm)) verdicts.set(match[2], match[1]);
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
      resolve({
        label: `--workers ${workers}`,
        command,
        seconds,
        requests,
        verdicts,
        exitCode: error ? Number((error as { code?: number }).code ?? 1) : 0,
      });
    });
  });
}

async function main(): Promise<void> {
  const { child, url } = await startMock();
  try {
    const rows: Row[] = [];
    for (const workers of [1, WORKERS]) rows.push(await runSuite(url, workers));
    const [base, fast] = rows;
    const same =
      base.verdicts.size > 0 &&
      [...base.verdicts].every(([id, verdict]) => fast.verdicts.get(id) === verdict) &&
      base.verdicts.size === fast.verdicts.size;
    process.stdout.write(
      `Conformance suite against the mock with MOCK_LATENCY_MS=${LATENCY}, seed ${SEED} (wall time of the whole command, default settings)\n\n`,
    );
    process.stdout.write(
      '| run | wall time | requests | exit | checks passed/warned/failed/skipped |\n|---|---|---|---|---|\n',
    );
    for (const row of rows) {
      const count = (v: string) => [...row.verdicts.values()].filter((x) => x === v).length;
      process.stdout.write(
        `| \`${row.label}\` | ${row.seconds.toFixed(1)} s | ${row.requests} | ${row.exitCode} | ${count('PASS')}/${count('WARN')}/${count('FAIL')}/${count('SKIP')} |\n`,
      );
    }
    process.stdout.write(
      `\nspeed-up ${(base.seconds / fast.seconds).toFixed(1)}x; verdicts of every check ${same ? 'identical' : 'DIFFERENT'}\n`,
    );
    for (const row of rows) process.stdout.write(`  ${row.command}\n`);
    if (!same) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
