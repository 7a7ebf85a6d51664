/**
 * The package as another team gets it: `npm pack` (which builds dist/ through `prepack`), the tarball installed
 * into a fresh project outside this repository, then its three commands run and its exports compiled and run
 * there, with nothing of this checkout on the path. npm serves the dependencies from its cache (`--prefer-offline`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

type Ran = { code: number; stdout: string; stderr: string };

function run(command: string, args: string[], cwd: string, timeout = 120_000): Promise<Ran> {
  return new Promise((resolvePromise) => {
    execFile(command, args, { cwd, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolvePromise({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Starts the installed `workspace-api-mock` on a free port; resolves with its origin once it says where it listens. */
function startInstalledMock(project: string): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(join(project, 'node_modules', '.bin', 'workspace-api-mock'), [], {
    cwd: project,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the mock did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s/]+)\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ origin: match[1], child });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before listening:\n${output}`)));
  });
}

/** A frontend's first file: typed calls, the control client, fixture types, and two mistakes that must not compile. */
const APP = `import createClient from 'openapi-fetch';
import type { paths } from '${pkg.name}/types';
import { createMockControl, pollRun, readRunLocation, type Fixtures } from '${pkg.name}/control';
import { startMock } from '${pkg.name}';
import type { WorkspaceFixtures } from '${pkg.name}/fixtures';

const origin = process.argv[2];
const api = createClient<paths>({ baseUrl: origin + '/v1', headers: { Authorization: 'Bearer mock-token-a' } });
const mock = createMockControl({ url: origin, token: 'mock-token-a' });

await mock.reset();
const at = '2026-01-01T00:00:00.000Z';
const fixtures: Fixtures = {
  workspaces: {
    'mock-token-a': {
      suppressions: [
        { email: 'ada@example.com', reason: 'manual', mailboxUuid: null, messageUuid: null, createdAt: at, updatedAt: at },
      ],
    },
  },
};
await mock.loadFixtures(fixtures);
const list = await api.GET('/mailboxManagement/suppressions', { params: { query: { limit: 5 } } });
const email: string | undefined = list.data?.suppressions[0]?.email;
// The SQL engine's worker thread and Prism, both loaded from the installed package.
const query = await api.POST('/orchestration/query', { body: { query: 'SELECT count(*) AS n FROM runs' } });
const example = await api.GET('/mailboxManagement/suppressions', { headers: { Prefer: 'example=empty' } });
// A 202's Location polled, typed, both ways; then what the mock counted; then a second mock in this process.
const created = await api.POST('/orchestration/runs', { body: {}, headers: { Prefer: 'outcome=error, duration=0' } });
const location = readRunLocation(created.response.headers.get('location'));
const polled = await pollRun(location.url, { token: 'mock-token-a' });
const read = await api.GET(location.path, { params: location.params });
const usage = await mock.usage();
const inProcess = await startMock({ PORT: '0' });
await inProcess.close();
// @ts-expect-error a misspelled body field does not compile
export const typo = () => api.PUT('/workspaceManagement/workspaces/current', { body: { nmae: 'x' } });
// @ts-expect-error a suppression without its required fields is refused by the mock, and so by the type
export const incomplete: WorkspaceFixtures = { suppressions: [{ email: 'bo@example.com' }] };
console.log(
  JSON.stringify({
    email,
    count: list.data?.count,
    rows: query.data?.rows,
    example: example.data,
    polled: [polled.status, read.data?.run.status],
    counted: usage.rows.some((row) => row.operation === 'createRun' && row.status === 202),
    inProcess: inProcess.origin.startsWith('http://127.0.0.1:'),
  }),
);
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
    types: ['node'],
  },
  include: ['src'],
};

describe('the packed package, installed in a fresh project outside the repository', () => {
  const work = mkdtempSync(join(tmpdir(), 'workspace-api-package-'));
  const project = join(work, 'app');
  let tarball: string;
  let mock: { origin: string; child: ChildProcess } | undefined;

  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT, 180_000);
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
    const jsonStart = packed.stdout.indexOf('[');
    tarball = join(work, (JSON.parse(packed.stdout.slice(jsonStart)) as { filename: string }[])[0].filename);
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const dev = pkg.devDependencies;
    const installed = await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        tarball,
        `openapi-fetch@${dev['openapi-fetch']}`,
        `typescript@${pkg.dependencies.typescript}`,
        `@types/node@${dev['@types/node']}`,
      ],
      project,
      180_000,
    );
    if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
    mock = await startInstalledMock(project);
  }, 300_000);

  afterAll(() => {
    mock?.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  });

  it('should ship compiled JavaScript only: no TypeScript sources, tests or test tooling', async () => {
    const listed = await run('tar', ['-tzf', tarball], work);
    const files = listed.stdout.split('\n').filter(Boolean);
    expect(files.filter((f) => /\.test\.|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    for (const bin of Object.values(pkg.bin)) expect(files).toContain(`package/${bin}`);
    for (const tool of ['tsx', 'ts-node', 'jest', 'eslint', 'prettier', '@redocly/cli', '@stoplight/spectral-cli'])
      expect(Object.keys(pkg.dependencies)).not.toContain(tool);
    const installed = readdirSync(join(project, 'node_modules'));
    expect(installed).not.toContain('tsx');
    expect(installed).not.toContain('jest');
  });

  it('should answer arguments to workspace-api-mock with its usage rather than ignore them', async () => {
    const bin = join(project, 'node_modules', '.bin', 'workspace-api-mock');
    const wrong = await run(bin, ['--port', '4200'], project);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/takes no arguments[\s\S]*PORT=0 takes a free port/);
    const help = await run(bin, ['--help'], project);
    expect({ code: help.code, usage: help.stdout.startsWith('Usage:') }).toEqual({ code: 0, usage: true });
  });

  it('should serve the OAuth server, which the mock loads by name, from the installed package', async () => {
    const metadata = await fetch(`${mock!.origin}/auth/.well-known/oauth-authorization-server`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ issuer: `${mock!.origin}/auth` });
  });

  it('should run workspace-api-conformance against workspace-api-mock and pass', async () => {
    const checks = [
      'error-responses-use-the-error-shape',
      'every-response-carries-rate-limit-headers',
      'requests-without-valid-credential-get-401',
      'workspaces-do-not-see-each-other',
    ];
    const args = ['--target', `${mock!.origin}/v1`, '--token', 'mock-token-a', '--token-b', 'mock-token-b'];
    const suite = await run(
      join(project, 'node_modules', '.bin', 'workspace-api-conformance'),
      [...args, '--only', checks.join(','), '--max-requests', '400', '--runs', '3', '--seed', '1'],
      project,
    );
    expect({ code: suite.code, stderr: suite.stderr }).toEqual({ code: 0, stderr: '' });
    expect(suite.stdout).toMatch(/[1-9]\d* passed, 0 failed/);
  }, 120_000);

  it('should compile typed calls and control-client calls with tsc, refuse the mistakes, and run them', async () => {
    writeFileSync(join(project, 'src', 'app.ts'), APP);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = await run(
      process.execPath,
      [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      project,
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    // Projects still on the older `node10` resolution (no `exports`) find the same types through `typesVersions`.
    const node10 = ['-p', '.', '--noEmit', '--module', 'esnext', '--moduleResolution', 'node10'];
    const older = await run(
      process.execPath,
      [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), ...node10],
      project,
    );
    expect(older.stdout + older.stderr).toBe('');
    const app = await run(process.execPath, [join(project, 'out', 'app.js'), mock!.origin], project);
    expect(app.stderr).toBe('');
    expect(JSON.parse(app.stdout)).toEqual({
      email: 'ada@example.com',
      count: 1,
      rows: [{ n: expect.any(Number) }],
      example: { count: 0, suppressions: [] },
      polled: ['error', 'error'],
      counted: true,
      inProcess: true,
    });
    // Two compiles and a run that starts a second mock: minutes on a loaded 2-core machine.
  }, 300_000);

  it('should report a breaking change between two spec files with workspace-api-spec-diff', async () => {
    const spec = readFileSync(join(project, 'node_modules', ...pkg.name.split('/'), 'dist', 'spec', 'openapi.yaml'));
    const base = join(project, 'base.yaml');
    const head = join(project, 'head.yaml');
    writeFileSync(base, spec);
    const tightened = spec.toString().replace('maxLength: 10000', 'maxLength: 5000');
    expect(tightened).not.toBe(spec.toString());
    writeFileSync(head, tightened);
    const bin = join(project, 'node_modules', '.bin', 'workspace-api-spec-diff');
    const same = await run(bin, [relative(project, base), relative(project, base), '--format', 'json'], project);
    expect(same.code).toBe(0);
    const diff = await run(bin, [relative(project, base), relative(project, head), '--format', 'json'], project);
    expect(diff.code).toBe(1);
    const report = JSON.parse(diff.stdout) as { changes: { rule: string; classification: string }[] };
    expect(report.changes).toContainEqual(
      expect.objectContaining({ rule: 'input-constraint-tightened', classification: 'breaking' }),
    );
  }, 120_000);
});
