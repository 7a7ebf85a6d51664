/** The settings of one conformance run, from flags and CONFORMANCE_* variables. */
import { TOKEN_VARIABLES, type Credentials } from './lib/failure';
import { DEFAULT_MAX_RESPONSE_BYTES } from './lib/http-client';
import { DEFAULT_SPEC_PATH } from '../spec/lib';

export type RunConfig = {
  target: string;
  tokenA: string;
  tokenB?: string;
  /** How reproductions write the tokens: as given (a flag's literal, or the variable the environment set). */
  credentials: Credentials;
  maxRequests: number;
  runs: number;
  seed: number;
  /** `<property>:<fast-check path>`, replays one counterexample. */
  path?: string;
  only?: string[];
  skip?: string[];
  allowWrites: boolean;
  junit?: string;
  /** Reports: NDJSON event stream, HAR of every exchange, one self-contained HTML page. */
  ndjson?: string;
  har?: string;
  html?: string;
  /** CTRF JSON report (Common Test Report Format). */
  ctrf?: string;
  /** --coverage: print the coverage matrix and exit. */
  coverageOnly?: boolean;
  /** --min-coverage: the share of stated cells (percent) a run must judge. */
  minCoverage?: number;
  specPath: string;
  timeoutMs: number;
  /** Bound of all polling of one async job. */
  pollTimeoutMs: number;
  /** The async create operation and the body it is sent (defaults: the spec's provisional createRun). */
  createRunPath: string;
  createRunBody: unknown;
  /** Bound of a single pacing or Retry-After wait. */
  maxWaitMs: number;
  /** The whole run's bound (--max-time, seconds): then it stops, writes every report and says what it did not judge. */
  maxTimeSeconds: number;
  /** When --max-time is counted from (epoch ms): the command's start; a run started in-process counts from its own. */
  startedAt?: number;
  /** Bytes of one answer read (--max-response-bytes); past it the answer is judged as truncated. */
  maxResponseBytes: number;
  /** Operation ids and tags to restrict the run to (`--operations`, `--tags`), tags to leave out (`--skip-tags`). */
  operations?: string[];
  tags?: string[];
  skipTags?: string[];
  /** Checks and properties run at once, sharing the budget and the rate-limit pacing. */
  workers: number;
  /** Passive mode: a forwarding proxy to `upstream` on `port`, judging live traffic. */
  proxy?: { upstream: string; port?: number; reportEverySeconds?: number };
  /** Opt-in bound of every response's time (`--max-response-time`). */
  maxResponseTimeMs?: number;
  /** This run's part of a split run: shard `index` (1-based) of `count`. */
  shard?: { index: number; count: number };
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULTS = {
  maxRequests: 2000,
  runs: 25,
  timeoutMs: 15000,
  pollTimeoutMs: 30000,
  createRunPath: '/orchestration/runs',
  maxWaitMs: 65000,
  /** 15 minutes: the default run takes well under a minute on a quick server; a CI job's limit is commonly 30 to 60. */
  maxTimeSeconds: 900,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  workers: 1,
};

export const USAGE = `Usage: npm run conformance -- --target <base URL ending in /v1> --token <token> [options]

Options (environment variable in brackets):
  --target <url>          base URL of the API, ending in /v1            [CONFORMANCE_TARGET]
  --token <token>         bearer token of workspace A                   [CONFORMANCE_TOKEN]
  --token-b <token>       bearer token of a second workspace B           [CONFORMANCE_TOKEN_B]
  --max-requests <n>      request budget of the whole run (default ${DEFAULTS.maxRequests})
  --runs <n>              generated cases per property (default ${DEFAULTS.runs})
  --seed <n>              fast-check seed; replays a run (default: random, printed)
  --path <property:path>  replays one counterexample (printed with it as a whole command line)
  --only <ids>            comma-separated check ids to run
  --skip <ids>            comma-separated check ids to leave out
  --operations <ids>      comma-separated operation ids to restrict the run to; checks that
                          need another operation are skipped
  --tags <tags>           only operations with one of these tags
  --skip-tags <tags>      leave out operations with one of these tags (e.g. provisional)
  --workers <n>           checks and properties run at once (default ${DEFAULTS.workers}); they share
                          the request budget and the rate-limit pacing
  --shard <i>/<n>         run the i-th of n deterministic parts (CI jobs)
  --max-response-time <ms>  fail responses slower than this (opt-in; the contract states no latency)
  --proxy --upstream <url> [--port <p>]
                          passive mode: forward traffic to <url> (ending in /v1) unchanged and judge
                          every exchange with the per-response checks, each 202's Location and its
                          polls, and terminal statuses staying terminal; Ctrl-C or SIGTERM writes the
                          reports, and they are written every --report-every <s> (default 60) meanwhile
  --allow-writes          also run checks that change existing state (workspace update,
                          domain cancel, environment variable removal) on real ids
  --junit <file>          write a JUnit XML report
  --ndjson <file>         write every event as it happens, one JSON object a line
  --har <file>            write every exchange as HAR 1.2
  --html <file>           write one self-contained HTML report (verdict, reproductions, coverage)
  --ctrf <file>           write a CTRF JSON report (Common Test Report Format)
  --coverage              print the coverage matrix derived from the contract (every stated rule on
                          every cell it applies to, and the check that judges it) and exit; no target
                          needed; --operations, --tags, --skip-tags, --only, --skip mark what they leave out
  --min-coverage <pct>    exit 1 when fewer than <pct> % of the stated cells were judged by the run
  --spec <file>           contract to read (default spec/openapi.yaml)
  --timeout <ms>          per-request timeout (default ${DEFAULTS.timeoutMs})
  --poll-timeout <ms>     bound of polling one async job (default ${DEFAULTS.pollTimeoutMs})
  --create-run-path <p>   async create operation, below the base URL (default ${DEFAULTS.createRunPath})
  --create-run-body <j>   JSON body for it (default {"recordTitle":"conformance-run-<time>"})
  --max-wait <ms>         bound of a single rate-limit or Retry-After wait (default ${DEFAULTS.maxWaitMs});
                          never past the run's --max-time
  --max-time <s>          bound of the whole run (default ${DEFAULTS.maxTimeSeconds}); then it stops, writes every
                          report and names what it did not judge (exit 1 with a failure, else 2)
  --max-response-bytes <n>  bytes of one answer read (default ${DEFAULTS.maxResponseBytes}); the rest is not read
                          and the answer is judged as truncated
  The suite sends requests, and its tokens, only to the target's origin (scheme, host, port): a Location or
  URL elsewhere is judged but never followed; redirects are not followed. --timeout covers the whole answer.

Exit codes: 0 every check passed, 1 a check failed, 2 bad configuration or a run stopped by --max-time
before judging everything (with no failure).`;

function positiveInteger(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name}: expected an integer >= ${min}, got "${text}"`);
  return value;
}

function percent(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 100)
    throw new ConfigError(`--min-coverage: expected a percentage from 0 to 100, got "${text}"`);
  return value;
}

const BOOLEAN_FLAGS = new Set(['allow-writes', 'help', 'proxy', 'coverage']);

const VALUE_FLAGS = new Set([
  'target',
  'token',
  'token-b',
  'max-requests',
  'runs',
  'seed',
  'path',
  'only',
  'skip',
  'junit',
  'spec',
  'timeout',
  'poll-timeout',
  'create-run-path',
  'create-run-body',
  'max-wait',
  'max-time',
  'max-response-bytes',
  'operations',
  'tags',
  'skip-tags',
  'workers',
  'shard',
  'ndjson',
  'har',
  'html',
  'ctrf',
  'min-coverage',
  'max-response-time',
  'upstream',
  'port',
  'report-every',
]);

/** `--name value`, `--name=value` and boolean `--name`, by name; an unknown name or a stray argument is refused. */
function readFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (BOOLEAN_FLAGS.has(name)) {
      flags.set(name, 'true');
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ConfigError(`--${name} needs a value`);
    flags.set(name, value);
  }
  if (flags.has('help')) throw new ConfigError(USAGE);
  for (const name of flags.keys())
    if (!BOOLEAN_FLAGS.has(name) && !VALUE_FLAGS.has(name))
      throw new ConfigError(`unknown option --${name}\n\n${USAGE}`);
  return flags;
}

/** The base URL checked (`--target`) or forwarded to (`--upstream`), without a trailing slash. */
function targetOf(flags: Map<string, string>, env: NodeJS.ProcessEnv, proxy: boolean): string {
  const target = (
    flags.get(proxy ? 'upstream' : 'target') ??
    (proxy ? flags.get('target') : undefined) ??
    env.CONFORMANCE_TARGET ??
    ''
  ).replace(/\/+$/, '');
  if (!target)
    throw new ConfigError(`missing ${proxy ? '--upstream' : '--target'} (or CONFORMANCE_TARGET)\n\n${USAGE}`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new ConfigError(`--target is not a URL: "${target}"`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new ConfigError(`--target must be http(s): "${target}"`);
  return target;
}

function createRunBodyOf(text: string | undefined): unknown {
  // Runs have no name: the record title makes the suite's runs recognisable on a shared server.
  if (text === undefined) return { recordTitle: `conformance-run-${Date.now().toString(36)}` };
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError('--create-run-body is not JSON');
  }
}

function shardOf(text: string | undefined): RunConfig['shard'] {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || count < 1 || index < 1 || index > count)
    throw new ConfigError(`--shard: expected <i>/<n> with 1 <= i <= n, got "${text}"`);
  return { index, count };
}

const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** An optional integer flag: undefined when not given. */
function optionalInteger(flags: Map<string, string>, name: string, min: number): number | undefined {
  const text = flags.get(name);
  return text === undefined ? undefined : positiveInteger(`--${name}`, text, 0, min);
}

/** Parses argv (after the script name) and the environment; throws ConfigError on bad configuration. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): RunConfig {
  const flags = readFlags(argv);
  const proxy = flags.has('proxy');
  // The matrix alone is read from the contract: nothing is sent, so no target or token is needed.
  const coverageOnly = flags.has('coverage');
  if (coverageOnly && !flags.has('target')) flags.set('target', 'http://127.0.0.1/v1');
  if (coverageOnly && !flags.has('token')) flags.set('token', '-');
  if (!proxy && (flags.has('upstream') || flags.has('port') || flags.has('report-every')))
    throw new ConfigError('--upstream, --port and --report-every belong to passive mode (--proxy)');
  const tokenA = flags.get('token') ?? env.CONFORMANCE_TOKEN ?? '';
  const tokenB = flags.get('token-b') ?? env.CONFORMANCE_TOKEN_B ?? undefined;
  const target = targetOf(flags, env, proxy);
  // Passive mode sends nothing of its own: the traffic brings its credentials.
  if (!tokenA && !proxy) throw new ConfigError(`missing --token (or CONFORMANCE_TOKEN)\n\n${USAGE}`);
  if (tokenB !== undefined && tokenB === tokenA)
    throw new ConfigError('--token-b must be the token of another workspace than --token');
  const createRunBody = createRunBodyOf(flags.get('create-run-body'));
  const shard = shardOf(flags.get('shard'));
  // A token given on the command line is written as given; one from the environment as the variable that holds it.
  const credentials = {
    a: flags.has('token') ? tokenA : TOKEN_VARIABLES.a,
    b: flags.has('token-b') ? (tokenB ?? '') : TOKEN_VARIABLES.b,
  };
  const minCoverage = flags.get('min-coverage');
  return {
    target,
    tokenA,
    tokenB: tokenB || undefined,
    credentials,
    maxRequests: positiveInteger('--max-requests', flags.get('max-requests'), DEFAULTS.maxRequests),
    runs: positiveInteger('--runs', flags.get('runs'), DEFAULTS.runs),
    seed: positiveInteger('--seed', flags.get('seed'), Math.floor(Math.random() * 2 ** 31), 0),
    path: flags.get('path'),
    only: list(flags.get('only')),
    skip: list(flags.get('skip')),
    allowWrites: flags.get('allow-writes') === 'true',
    junit: flags.get('junit'),
    ndjson: flags.get('ndjson'),
    har: flags.get('har'),
    html: flags.get('html'),
    ctrf: flags.get('ctrf'),
    coverageOnly,
    minCoverage: minCoverage === undefined ? undefined : percent(minCoverage),
    specPath: flags.get('spec') ?? DEFAULT_SPEC_PATH,
    timeoutMs: positiveInteger('--timeout', flags.get('timeout'), DEFAULTS.timeoutMs),
    pollTimeoutMs: positiveInteger('--poll-timeout', flags.get('poll-timeout'), DEFAULTS.pollTimeoutMs),
    createRunPath: flags.get('create-run-path') ?? DEFAULTS.createRunPath,
    createRunBody,
    maxWaitMs: positiveInteger('--max-wait', flags.get('max-wait'), DEFAULTS.maxWaitMs),
    maxTimeSeconds: positiveInteger('--max-time', flags.get('max-time'), DEFAULTS.maxTimeSeconds),
    maxResponseBytes: positiveInteger(
      '--max-response-bytes',
      flags.get('max-response-bytes'),
      DEFAULTS.maxResponseBytes,
      1024,
    ),
    operations: list(flags.get('operations')),
    tags: list(flags.get('tags')),
    skipTags: list(flags.get('skip-tags')),
    workers: positiveInteger('--workers', flags.get('workers'), DEFAULTS.workers),
    shard,
    proxy: proxy
      ? {
          upstream: target,
          port: optionalInteger(flags, 'port', 0),
          reportEverySeconds: optionalInteger(flags, 'report-every', 1),
        }
      : undefined,
    maxResponseTimeMs: optionalInteger(flags, 'max-response-time', 1),
  };
}
