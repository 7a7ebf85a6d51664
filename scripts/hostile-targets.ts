/**
 * The slow proof that a hostile target cannot hold the conformance suite (`npm run conformance:hostile`): the whole
 * suite, from its command line with its default bounds, against each hostile target of conformance/fixtures/hostile
 * at full size (answers of hundreds of MB, an endless chunked body, a 1 GiB gzip bomb, a dripping body, a target that
 * never answers, Retry-After 99999999, a Location and redirects to another origin). For each it measures the run's
 * time and the suite's peak resident memory (VmHWM), checks every report parses and that the canary on another
 * origin received nothing. Exit 1 when any run passed --max-time + 15 s, 1 GB of memory, left a report unparsable,
 * or sent the canary anything.
 *
 *   npm run conformance:hostile -- [--max-time <s>] [--only <name,...>]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import {
  crossOriginLocation,
  dripBody,
  endlessStream,
  gzipBomb,
  headerFlood,
  hugeBody,
  neverAnswers,
  redirectElsewhere,
  resetMidBody,
  retryAfterHuge,
  startHostileTarget,
  type Hostility,
} from '../conformance/fixtures/hostile';

const ROOT = path.resolve(__dirname, '..');
const MEMORY_BOUND = 1024 * 1024 * 1024;
const PAST_DEADLINE_MS = 15_000;

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const maxTime = Number(flag('max-time') ?? 30);
if (!Number.isInteger(maxTime) || maxTime < 1) {
  process.stderr.write(`--max-time: expected a whole number of seconds, got "${flag('max-time')}"\n`);
  process.exit(2);
}

const TARGETS: Hostility[] = [
  hugeBody(300 * 1024 * 1024),
  hugeBody(300 * 1024 * 1024, { chunked: true }),
  endlessStream,
  gzipBomb(1024 * 1024 * 1024),
  dripBody(1000),
  neverAnswers,
  retryAfterHuge,
  resetMidBody,
  headerFlood,
  crossOriginLocation,
  redirectElsewhere,
];

/** Peak resident memory of a process so far (VmHWM), in bytes; 0 once it is gone. */
function peakMemory(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Why a report does not parse, or undefined when each does. */
function unparsable(files: Record<string, string>): string | undefined {
  try {
    new SaxesParser().write(readFileSync(files.junit, 'utf8')).close();
    JSON.parse(readFileSync(files.ctrf, 'utf8'));
    JSON.parse(readFileSync(files.har, 'utf8'));
    for (const line of readFileSync(files.ndjson, 'utf8').trim().split('\n')) JSON.parse(line);
    if (!/^<!doctype html>/i.test(readFileSync(files.html, 'utf8'))) return 'the HTML report is no page';
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

type Outcome = {
  name: string;
  seconds: number;
  peakMb: number;
  code: number | null;
  canary: number;
  problems: string[];
};

async function prove(hostility: Hostility): Promise<Outcome> {
  const target = await startHostileTarget(hostility);
  const dir = mkdtempSync(path.join(tmpdir(), 'hostile-proof-'));
  const files = {
    junit: path.join(dir, 'junit.xml'),
    ctrf: path.join(dir, 'ctrf.json'),
    har: path.join(dir, 'run.har'),
    ndjson: path.join(dir, 'run.ndjson'),
    html: path.join(dir, 'report.html'),
  };
  try {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', 'conformance/cli.ts', '--target', target.url, '--token-b', target.tokenB],
        ...['--max-time', String(maxTime), '--junit', files.junit, '--ctrf', files.ctrf, '--har', files.har],
        ...['--ndjson', files.ndjson, '--html', files.html],
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, CONFORMANCE_TOKEN: target.tokenA },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, peakMemory(child.pid ?? 0))), 100);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearInterval(sampler);
    const ms = Date.now() - started;
    const problems: string[] = [];
    if (ms > maxTime * 1000 + PAST_DEADLINE_MS) problems.push(`ran ${ms} ms, past --max-time + 15 s`);
    if (peak > MEMORY_BOUND) problems.push(`peak memory ${Math.round(peak / 1e6)} MB`);
    if (code !== 0 && code !== 1 && code !== 2) problems.push(`exit ${code}: ${stderr.trim().split('\n').pop()}`);
    const missing = Object.values(files).filter((file) => !existsSync(file));
    if (missing.length > 0) problems.push(`no ${missing.map((file) => path.basename(file)).join(', ')}`);
    else {
      const why = unparsable(files);
      if (why) problems.push(`a report does not parse: ${why}`);
    }
    if (target.canaryRequests.length > 0)
      problems.push(
        `the canary received ${target.canaryRequests.length} requests (first: ${target.canaryRequests[0].method} ${target.canaryRequests[0].url}, authorization ${target.canaryRequests[0].headers.authorization ? 'present' : 'absent'})`,
      );
    return {
      name: hostility.name,
      seconds: ms / 1000,
      peakMb: Math.round(peak / 1e6),
      code,
      canary: target.canaryRequests.length,
      problems,
    };
  } finally {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const only = flag('only')?.split(',');
  const selected = TARGETS.filter((target) => !only || only.includes(target.name));
  process.stdout.write(`The suite against ${selected.length} hostile targets, --max-time ${maxTime} s each\n\n`);
  process.stdout.write(`${'target'.padEnd(24)} ${'seconds'.padStart(8)} ${'peak MB'.padStart(8)} exit canary\n`);
  let failed = 0;
  for (const hostility of selected) {
    const outcome = await prove(hostility);
    process.stdout.write(
      `${outcome.name.padEnd(24)} ${outcome.seconds.toFixed(1).padStart(8)} ${String(outcome.peakMb).padStart(8)} ${String(outcome.code).padStart(4)} ${String(outcome.canary).padStart(6)}${outcome.problems.length ? `  ✗ ${outcome.problems.join('; ')}` : ''}\n`,
    );
    if (outcome.problems.length > 0) failed++;
  }
  process.stdout.write(`\n${selected.length - failed} held, ${failed} did not\n`);
  return failed > 0 ? 1 : 0;
}

main().then((code) => process.exit(code));
