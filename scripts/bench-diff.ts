/**
 * `npm run bench:diff`: `spec:diff` side by side with `redocly diff` (its recommended diff rules) in the same run, on
 * consecutive versions of this repository's contract (from git history) and on a large real pair: GitHub's REST
 * description for GHES 3.17 as published in @octokit/openapi 22.0.0 and 23.0.2 (dev dependencies; ~970 operations,
 * 11 MB each). Each command is a fresh process, timed wall-clock, with its peak resident memory (the largest process
 * of its tree, from /usr/bin/time). Prints markdown; exits 1 when a command fails (exit code 2 or more).
 * Options: --runs <n> (each contract pair, default 5), --github-runs <n> (default 1), --no-github.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REDOCLY_DIFF_CONFIG, redoclyCli, redoclyDiffArgs } from './lib/diff/redocly-cross-check';
import { BIN, ROOT } from './lib/bench/processes';

const TIME = '/usr/bin/time';
const GITHUB = {
  label: 'GitHub REST, GHES 3.17 (@octokit/openapi 22.0.0 → 23.0.2)',
  base: join(ROOT, 'node_modules', '@octokit', 'openapi-22', 'generated', 'ghes-3.17.json'),
  head: join(ROOT, 'node_modules', '@octokit', 'openapi', 'generated', 'ghes-3.17.json'),
};

type Pair = { label: string; base: string; head: string };
type Sample = { ms: number; cpuMs?: number; rssMb?: number; code: number };
type Command = { name: string; argv: (pair: Pair) => string[] };

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

/** Consecutive versions of the contract that differ (up to `count` pairs), written to a temporary folder. */
function contractPairs(dir: string, count: number): Pair[] {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  let commits: string[];
  try {
    commits = git('log', '--format=%h', '-n', String(count * 3), '--', 'spec/openapi.yaml')
      .split('\n')
      .filter(Boolean);
  } catch {
    commits = [];
  }
  const files = commits.reverse().map((commit) => {
    const file = join(dir, `contract-${commit}.yaml`);
    writeFileSync(file, git('show', `${commit}:spec/openapi.yaml`));
    return { commit, file };
  });
  files.push({ commit: 'working tree', file: join(ROOT, 'spec', 'openapi.yaml') });
  const pairs: Pair[] = [];
  for (let i = files.length - 1; i > 0 && pairs.length < count; i--) {
    if (readFileSync(files[i - 1].file, 'utf8') === readFileSync(files[i].file, 'utf8')) continue;
    pairs.unshift({
      label: `${files[i - 1].commit} → ${files[i].commit}`,
      base: files[i - 1].file,
      head: files[i].file,
    });
  }
  return pairs;
}

function measure(argv: string[], dir: string): Sample {
  const rssFile = join(dir, 'rss');
  const timed = existsSync(TIME) ? [TIME, '-o', rssFile, '-f', '%M %U %S', ...argv] : argv;
  const started = performance.now();
  const run = spawnSync(timed[0], timed.slice(1), {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 1 << 26,
  });
  const ms = performance.now() - started;
  const code = run.status ?? 99;
  if (code >= 2) process.stderr.write(`${argv.join(' ')} exited ${code}\n${run.stderr.toString().slice(-2000)}\n`);
  // `%M %U %S`: peak RSS (KB) of the largest process of the tree, user and system CPU seconds of the whole tree.
  const [kb, user, system] = existsSync(rssFile)
    ? (readFileSync(rssFile, 'utf8').trim().split('\n').at(-1) ?? '').split(' ').map(Number)
    : [];
  const cpu = (user ?? NaN) + (system ?? NaN);
  return {
    ms,
    code,
    rssMb: Number.isFinite(kb) ? kb / 1024 : undefined,
    cpuMs: Number.isFinite(cpu) ? cpu * 1000 : undefined,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const megabytes = (mb: number | undefined) => (mb === undefined ? 'n/a' : `${Math.round(mb)} MB`);

function main(): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-diff-'));
  try {
    const redocly = redoclyCli(ROOT);
    if (!redocly) throw new Error('@redocly/cli is not installed');
    const config = join(dir, 'redocly.yaml');
    writeFileSync(config, REDOCLY_DIFF_CONFIG);
    const specDiff =
      (...flags: string[]) =>
      (p: Pair) => [
        BIN('tsx'),
        join(ROOT, 'scripts', 'spec-diff.ts'),
        p.base,
        p.head,
        '--format',
        'json',
        '--no-waivers',
        ...flags,
      ];
    const commands: Command[] = [
      { name: 'spec:diff (cross-check and impact)', argv: specDiff() },
      { name: 'spec:diff --no-cross-check --no-impact', argv: specDiff('--no-cross-check', '--no-impact') },
      {
        name: 'redocly diff (diff-recommended)',
        argv: (p) => [process.execPath, redocly, ...redoclyDiffArgs(p.base, p.head, config)],
      },
    ];
    const runs = option('--runs', 5);
    const sets: Array<{ title: string; pairs: Pair[]; runs: number }> = [
      { title: "This repository's contract, consecutive versions", pairs: contractPairs(dir, 4), runs },
    ];
    if (!process.argv.includes('--no-github')) {
      if (!existsSync(GITHUB.base) || !existsSync(GITHUB.head))
        throw new Error('the GitHub pair is missing: npm ci installs @octokit/openapi (22.0.0 and 23.0.2)');
      sets.push({ title: GITHUB.label, pairs: [GITHUB], runs: option('--github-runs', 1) });
    }
    let failed = false;
    const out: string[] = ['## spec:diff against redocly diff', ''];
    out.push(
      `Node ${process.version}, ${os()}, load average ${loadAverage()} at the start. Each cell: median wall time ` +
        '(median CPU time of the process tree, children included), peak RSS of its largest process.',
      '',
    );
    for (const set of sets) {
      out.push(`### ${set.title}`, '');
      out.push(
        `| pair | ${commands.map((c) => `${c.name}`).join(' | ')} |`,
        `|---|${commands.map(() => '---').join('|')}|`,
      );
      const all = commands.map(() => [] as Sample[]);
      for (const pair of set.pairs) {
        const samples = commands.map(() => [] as Sample[]);
        // Interleaved, so load on the machine falls on every command alike.
        for (let r = 0; r < set.runs; r++)
          commands.forEach((c, i) => {
            const s = measure(c.argv(pair), dir);
            if (s.code >= 2) failed = true;
            samples[i].push(s);
            all[i].push(s);
          });
        out.push(`| ${pair.label} | ${samples.map(cellOf).join(' | ')} |`);
      }
      if (set.pairs.length > 1) out.push(`| **median of all runs** | ${all.map(cellOf).join(' | ')} |`);
      const ours = median(all[1].map((s) => s.ms));
      const theirs = median(all[2].map((s) => s.ms));
      const cpu = (samples: Sample[]) => median(samples.map((s) => s.cpuMs ?? NaN));
      out.push(
        '',
        `spec:diff without cross-check and impact takes ${(ours / theirs).toFixed(2)}× the time of redocly diff here ` +
          `(${seconds(ours)} against ${seconds(theirs)}, medians of ${all[1].length} run(s); CPU time ` +
          `${(cpu(all[1]) / cpu(all[2])).toFixed(2)}×).`,
        '',
      );
      if (set.pairs.includes(GITHUB))
        out.push(
          `Target for this pair (≤ 10 s and ≤ 0.8× redocly diff in the same run): ${ours <= 10_000 && ours <= 0.8 * theirs ? 'met' : 'not met'}` +
            ` at load average ${loadAverage()}.`,
          '',
        );
    }
    out.push(`Load average ${loadAverage()} at the end.`);
    process.stdout.write(`${out.join('\n')}\n`);
    return failed ? 1 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median wall time, median CPU time of the process tree, largest peak RSS. */
function cellOf(samples: Sample[]): string {
  const ms = median(samples.map((s) => s.ms));
  const cpu = samples.map((s) => s.cpuMs).filter((x): x is number => x !== undefined);
  const rss = samples.map((s) => s.rssMb).filter((x): x is number => x !== undefined);
  return `${seconds(ms)} (cpu ${cpu.length ? seconds(median(cpu)) : 'n/a'}), ${megabytes(rss.length ? Math.max(...rss) : undefined)}`;
}

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

function os(): string {
  try {
    const cpus = readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length;
    return `${cpus ?? '?'} CPU(s)`;
  } catch {
    return 'unknown CPUs';
  }
}

process.exitCode = main();
