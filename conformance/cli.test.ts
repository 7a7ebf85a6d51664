/** The command line's contract: exit 0 pass, 1 fail, 2 bad configuration. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { startMock } from '../mocks/app';
import { fixture as limit1001Accepted } from './fixtures/broken/limit-1001-accepted';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['conformance/cli.ts', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('conformance cli', () => {
  it('should exit 2 without a token', async () => {
    const result = await runCli(['--target', 'http://127.0.0.1:4010/v1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing --token/);
  });

  it('should exit 2 when the target is unreachable', async () => {
    const result = await runCli([], {
      CONFORMANCE_TARGET: `http://127.0.0.1:${await closedPort()}/v1`,
      CONFORMANCE_TOKEN: 'mock-token-a',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unreachable/);
  });

  it("should exit 2 naming the corrected URL when the target does not end in the contract's base path", async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['--target', origin, '--token', 'mock-token-a']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`did you mean --target ${origin}/v1 ?`);
    expect(result.stdout).toBe('');
  });

  it('should exit 2 when --path names a property no selected check runs', async () => {
    const healthy = await startMock({ port: 0 });
    try {
      const result = await runCli([
        '--target',
        healthy.url,
        '--token',
        'mock-token-a',
        '--only',
        'overlong-idempotency-key-gets-400',
        '--path',
        'nothing:0',
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--path names the property "nothing"/);
    } finally {
      await healthy.close();
    }
  });

  it('should exit 1 with a reproduction when a check fails, and 0 when it passes', async () => {
    const broken = await startMock({ ...limit1001Accepted.options(), port: 0 });
    const healthy = await startMock({ port: 0 });
    try {
      const args = ['--token', 'mock-token-a', '--only', 'invalid-requests-are-rejected-with-400', '--runs', '3'];
      const failed = await runCli(['--target', broken.url, ...args]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(
        /FAILURE \[request-validation\] invalid-requests-are-rejected-with-400: listSuppressions accepted \(200\) limit/,
      );
      expect(failed.stdout).toMatch(/Reproduce with:\n\s+curl -i -X GET '.*limit=1001/);
      expect(failed.stdout).toMatch(/requests in \d+\.\d s/);
      const passed = await runCli(['--target', healthy.url, ...args]);
      expect(passed.code).toBe(0);
    } finally {
      await broken.close();
      await healthy.close();
    }
  });

  it('should print the coverage matrix without a target, marking what a filter leaves out', async () => {
    const result = await runCli(['--coverage', '--operations', 'listSuppressions']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✓ credentials\s+query \?access_token= — requests-without-valid-credential-get-401/);
    expect(result.stdout).toMatch(/auth-required-401: getRun|getRun — filtered out: getRun is not selected/);
    expect(result.stdout).toMatch(/stated cells judged: \d+ of \d+/);
  });

  it('should exit 1 below --min-coverage and write a CTRF report beside the verdict', async () => {
    const healthy = await startMock({ port: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-ctrf-'));
    try {
      const args = ['--target', healthy.url, '--token', 'mock-token-a', '--only', 'overlong-idempotency-key-gets-400'];
      const below = await runCli([...args, '--runs', '2', '--min-coverage', '50', '--ctrf', path.join(dir, 'r.json')]);
      expect(below.code).toBe(1);
      expect(below.stdout).toMatch(/coverage: \d+ of \d+ stated cells judged \(\d+\.\d %\), --min-coverage 50 %/);
      const ctrf = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8'));
      expect(ctrf.results.summary).toMatchObject({ passed: 1, failed: 0 });
      expect(ctrf.results.tests[0]).toMatchObject({ name: 'overlong-idempotency-key-gets-400', status: 'passed' });
      expect((await runCli([...args, '--runs', '2', '--min-coverage', '1'])).code).toBe(0);
    } finally {
      await healthy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
