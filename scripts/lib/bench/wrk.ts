/**
 * `wrk` as the benchmark's load generator: C, one thread, a few µs of its own per request, where autocannon (Node,
 * on the same two cores) saturates before a lean server does. Each run gets a Lua script of its own in a temporary
 * file: the request's method, headers and body, for a keyed create a fresh `Idempotency-Key` per request (a
 * counter after a per-run random prefix, spliced into the request wrk formats once), and a `done` hook that prints
 * the run's figures as one JSON line.
 * @see https://github.com/wg/wrk/blob/master/SCRIPTING
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One request shape sent over and over; `keyHeader`: a header whose value is new on every request. */
export type LoadRequest = {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Sent as `<keyPrefix><counter>`, the counter from 0, one per request. */
  fresh?: { header: string; prefix: string };
};

/** What one wrk run reports: completed requests over the run's own duration, latency quantiles, failures. */
export type WrkResult = {
  requests: number;
  seconds: number;
  /** Milliseconds, with wrk's µs resolution. */
  p50: number;
  p99: number;
  /** Socket errors: connect, read, write, timeout. */
  errors: number;
  /** Answers with a status above 399 (what wrk counts; the benchmark's answers are 2xx). */
  status4xx5xx: number;
  /** wrk's own CPU time over the run (its Lua `os.clock()`, every thread), in ms: the generator's share. */
  generatorCpuMs: number;
};

export type WrkLookup = { bin: string; reason?: undefined } | { bin?: undefined; reason: string };

/** Find wrk via scripts/ensure-wrk.sh (which installs Debian's package where it may), or say why not. */
export function findWrk(root: string): WrkLookup {
  try {
    const bin = execFileSync(join(root, 'scripts', 'ensure-wrk.sh'), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    }).trim();
    return bin ? { bin } : { reason: 'ensure-wrk.sh printed no path' };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr;
    return { reason: String(stderr || (error as Error).message).trim() };
  }
}

/**
 * A Lua string literal of any text: printable ASCII as itself (but `"` and `\`), every other byte of its UTF-8 as
 * a decimal escape, so no value (a header, a body) can end the literal or the line.
 */
export function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c) out += String.fromCharCode(byte);
    else out += `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** The line the `done` hook prints before its JSON. */
const RESULT = 'wrk-result ';

/** The Lua script of one run (`wrk -s`). */
export function wrkScript(request: LoadRequest): string {
  const lines = [
    '-- Written by scripts/lib/bench/wrk.ts for one run of the benchmark.',
    `wrk.method = ${luaString(request.method)}`,
    ...Object.entries(request.headers).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
  ];
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  if (request.fresh) {
    // wrk formats the request once (Host, Content-Length and all) with a placeholder for the key's value; each
    // request is then two concatenations, not a wrk.format, which would cost the generator more than the servers.
    lines.push(
      `local prefix = ${luaString(request.fresh.prefix)}`,
      'local placeholder = "\\001fresh\\001"',
      'local head, tail',
      'local counter = -1',
      'function init(args)',
      `  wrk.headers[${luaString(request.fresh.header)}] = placeholder`,
      '  local whole = wrk.format()',
      '  local at = whole:find(placeholder, 1, true)',
      '  head = whole:sub(1, at - 1) .. prefix',
      '  tail = whole:sub(at + #placeholder)',
      'end',
      'function request()',
      '  counter = counter + 1',
      '  return head .. counter .. tail',
      'end',
    );
  }
  lines.push(
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format("\\n${RESULT}{\\"requests\\":%d,\\"durationUs\\":%d,\\"connect\\":%d,\\"read\\":%d,\\"write\\":%d,\\"timeout\\":%d,\\"status\\":%d,\\"p50Us\\":%d,\\"p99Us\\":%d,\\"cpuUs\\":%d}\\n",`,
    '    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status,',
    '    latency:percentile(50), latency:percentile(99), os.clock() * 1e6))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/** The `done` hook's line in wrk's output, read into figures; a clear error where it is missing or malformed. */
export function parseWrkOutput(stdout: string): WrkResult {
  const line = stdout.split('\n').find((text) => text.startsWith(RESULT));
  if (line === undefined) throw new Error(`wrk printed no result line: ${stdout.slice(-500)}`);
  const raw = JSON.parse(line.slice(RESULT.length)) as Record<string, unknown>;
  const fields = ['requests', 'durationUs', 'connect', 'read', 'write', 'timeout', 'status', 'p50Us', 'p99Us', 'cpuUs'];
  const value = (name: string): number => {
    const figure = raw[name];
    if (typeof figure !== 'number' || !Number.isFinite(figure) || figure < 0)
      throw new Error(`wrk's result line has no count ${name}: ${line}`);
    return figure;
  };
  const [requests, durationUs, connect, read, write, timeout, status, p50Us, p99Us, cpuUs] = fields.map(value);
  if (durationUs === 0) throw new Error(`wrk's result line has a run of no duration: ${line}`);
  return {
    requests,
    seconds: durationUs / 1e6,
    p50: p50Us / 1000,
    p99: p99Us / 1000,
    errors: connect + read + write + timeout,
    status4xx5xx: status,
    generatorCpuMs: cpuUs / 1000,
  };
}

/** One wrk run of whole seconds, one thread and `connections` connections, against `url`. */
export async function runWrk(
  bin: string,
  url: string,
  request: LoadRequest,
  options: { connections: number; seconds: number },
): Promise<WrkResult> {
  if (!Number.isInteger(options.seconds) || options.seconds < 1)
    throw new Error(`wrk runs whole seconds: ${options.seconds} is not one or more`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(dir, 'request.lua');
    writeFileSync(script, wrkScript(request));
    const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '-s', script, url];
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(bin, args, { encoding: 'utf8', timeout: (options.seconds + 30) * 1000 }, (error, out, err) =>
        error ? reject(new Error(`wrk ${args.join(' ')} failed: ${error.message}\n${err}${out}`)) : resolve(out),
      ),
    );
    return parseWrkOutput(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
