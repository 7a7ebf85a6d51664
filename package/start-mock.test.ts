/**
 * `startMock()` for test set-ups: it resolves with the origin and a close, and rejects with the mock's own error.
 * The README's global set-up is run as written: its two files, taken from README.md, in a project of their own
 * under jest, once to a passing test and once with a bad setting, where the run must fail loudly.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockStartError, startMock } from './index';

const ROOT = join(__dirname, '..');
const PACKAGE_NAME = 'workspace-automation-api-contract';

describe('startMock', () => {
  it('should start on a free port with PORT=0, answer, and free the port on close', async () => {
    const mock = await startMock({ PORT: '0' });
    try {
      expect(mock.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(mock.url).toBe(`${mock.origin}/v1`);
      const res = await fetch(`${mock.url}/mailboxManagement/suppressions?limit=1`, {
        headers: { authorization: 'Bearer mock-token-a' },
      });
      expect(res.status).toBe(200);
      expect(mock.usage().requests).toBe(1);
    } finally {
      await mock.close();
    }
    await expect(fetch(`${mock.url}/mailboxManagement/suppressions`)).rejects.toThrow();
  });

  it.each([
    ['MOCK_RATE_LIMIT', { MOCK_RATE_LIMIT: 'lots' }, /MOCK_RATE_LIMIT: expected a number >= 1/],
    ['MOCK_TOKENS', { MOCK_TOKENS: 'no-pair' }, /MOCK_TOKENS: expected token=workspaceUuid/],
    ['MOCK_FIXTURES', { MOCK_FIXTURES: '/nonexistent/fixtures.yaml' }, /ENOENT.*fixtures\.yaml/],
  ])('should reject with the mock own error for a bad %s', async (_, env, message) => {
    const started = startMock({ PORT: '0', ...env });
    await expect(started).rejects.toBeInstanceOf(MockStartError);
    await expect(started).rejects.toThrow(message);
  });

  it('should reject when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      await expect(startMock({ PORT: String(port) })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      taken.close();
    }
  });
});

/** The ```ts block of README.md whose first line is `// <name>`. */
function readmeFile(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
  const found = blocks.filter((block) => block.startsWith(`// ${name}\n`));
  if (found.length !== 1)
    throw new Error(`README.md: expected one ts block starting "// ${name}", found ${found.length}`);
  return found[0];
}

type Ran = { code: number; output: string };

function runJest(project: string, env: Record<string, string>): Promise<Ran> {
  const jest = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [jest, '--rootDir', project, '--config', join(project, 'jest.config.json'), '--ci', '--colors=false'],
      // Nothing of the outer run leaks in (its JEST_WORKER_ID, its MOCK_URL): the variables given and a PATH.
      { cwd: project, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

describe("the README's global set-up, run as written under jest", () => {
  const work = mkdtempSync(join(tmpdir(), 'start-mock-readme-'));
  beforeAll(() => {
    writeFileSync(join(work, 'jest.global-setup.ts'), readmeFile('jest.global-setup.ts'));
    writeFileSync(join(work, 'jest.global-teardown.ts'), readmeFile('jest.global-teardown.ts'));
    // The package by its name, as an installed one resolves: here its source, compiled by ts-jest on the way.
    const installed = join(work, 'node_modules', PACKAGE_NAME);
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: PACKAGE_NAME, main: 'index.js' }));
    writeFileSync(
      join(installed, 'index.js'),
      `module.exports = require(${JSON.stringify(join(ROOT, 'package', 'index.ts'))});\n`,
    );
    writeFileSync(
      join(work, 'jest.config.json'),
      JSON.stringify({
        testEnvironment: 'node',
        globalSetup: './jest.global-setup.ts',
        globalTeardown: './jest.global-teardown.ts',
        testMatch: ['<rootDir>/*.test.ts'],
        transform: {
          '^.+\\.ts$': [
            require.resolve('ts-jest'),
            { isolatedModules: true, tsconfig: { module: 'commonjs', esModuleInterop: true, target: 'ES2022' } },
          ],
        },
      }),
    );
    writeFileSync(
      join(work, 'api.test.ts'),
      `test('should reach the mock the set-up started', async () => {
  const res = await fetch(process.env.MOCK_URL + '/v1/mailboxManagement/suppressions', {
    headers: { authorization: 'Bearer mock-token-a' },
  });
  expect(res.status).toBe(200);
});
`,
    );
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('should start the mock, pass a test against MOCK_URL, and stop it', async () => {
    const ran = await runJest(work, {});
    expect(ran.output).toContain('1 passed');
    expect(ran.code).toBe(0);
  }, 150_000);

  it('should fail the run, printing the mock own error, when the mock cannot start', async () => {
    const ran = await runJest(work, { MOCK_RATE_LIMIT: 'lots' });
    expect(ran.code).toBe(1);
    expect(ran.output).toContain('MOCK_RATE_LIMIT: expected a number >= 1');
    expect(ran.output).not.toContain('1 passed');
  }, 150_000);
});
