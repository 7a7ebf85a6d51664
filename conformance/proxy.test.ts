/** Passive mode: traffic passes through unchanged and is judged by the per-response checks, live and at the end. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMock } from '../mocks/app';
import { allChecks } from './checks';
import { parseConfig } from './config';
import { fixture as errorWithoutErrorMessage } from './fixtures/broken/error-without-error-message';
import { startPassiveProxy } from './proxy';
import type { RunEvent } from './runner';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..');
const A = { authorization: 'Bearer mock-token-a' };

async function call(
  base: string,
  method: string,
  pathname: string,
  headers: Record<string, string> = A,
  body?: string,
) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    body,
  });
  return { status: res.status, body: await res.text(), remaining: res.headers.get('ratelimit-remaining') };
}

async function throughProxy(options: Parameters<typeof startMock>[0]) {
  const mock = await startMock({ ...options, port: 0 });
  const events: RunEvent[] = [];
  const config = parseConfig(['--proxy', '--upstream', mock.url], {});
  const proxy = await startPassiveProxy(
    { ...config, ...config.proxy! },
    { checks: allChecks(), reporters: [{ onEvent: (event) => void events.push(event) }] },
  );
  return { mock, proxy, events };
}

describe('passive proxy', () => {
  it('should forward traffic unchanged and pass the mock', async () => {
    const { mock, proxy, events } = await throughProxy({});
    try {
      const direct = await call(mock.url, 'GET', '/mailboxManagement/suppressions?limit=2');
      const proxied = await call(proxy.url, 'GET', '/mailboxManagement/suppressions?limit=2');
      expect({ status: proxied.status, body: proxied.body }).toEqual({ status: direct.status, body: direct.body });
      expect(Number(proxied.remaining)).toBe(Number(direct.remaining) - 1);
      expect((await call(proxy.url, 'GET', '/mailboxManagement/suppressions', {})).status).toBe(401);
      expect((await call(proxy.url, 'POST', '/ai/mcpServers', A, '{"name":')).status).toBe(400);
      expect((await call(proxy.url, 'GET', '/orchestration/runs/6f1c1a52-8d3e-4c1b-9a47-2b0d5e7f9c31')).status).toBe(
        404,
      );
    } finally {
      await mock.close();
    }
    const summary = await proxy.close();
    expect(summary.requests).toBe(4);
    expect(summary.results.flatMap((r) => r.failures)).toEqual([]);
    expect(summary.exitCode).toBe(0);
    expect(summary.results.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'responses-match-the-contract',
        'every-response-carries-rate-limit-headers',
        'error-responses-use-the-error-shape',
        'no-request-gets-a-server-error',
      ]),
    );
    expect(events.filter((e) => e.type === 'exchange')).toHaveLength(4);
    expect(events[events.length - 1].type).toBe('run-end');
  });

  it('should report a broken server as the traffic shows it, before the proxy closes', async () => {
    const { mock, proxy, events } = await throughProxy(errorWithoutErrorMessage.options());
    try {
      expect((await call(proxy.url, 'GET', '/mailboxManagement/suppressions', {})).status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events.some((e) => e.type === 'finding' && e.failure.ruleId === 'error-shape')).toBe(true);
    } finally {
      await mock.close();
    }
    const summary = await proxy.close();
    expect(summary.results.find((r) => r.id === 'error-responses-use-the-error-shape')?.status).toBe('failed');
    expect(summary.exitCode).toBe(1);
  });

  it('should run from the command line until interrupted, then write its reports', async () => {
    const mock = await startMock({ ...errorWithoutErrorMessage.options(), port: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-proxy-'));
    let child: ReturnType<typeof spawn> | undefined;
    try {
      child = spawn(
        path.join(ROOT, 'node_modules', '.bin', 'tsx'),
        [
          'conformance/cli.ts',
          '--proxy',
          '--upstream',
          mock.url,
          '--port',
          '0',
          '--html',
          path.join(dir, 'report.html'),
        ],
        { cwd: ROOT, env: { PATH: process.env.PATH } },
      );
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const url = await new Promise<string>((resolve) => {
        const timer = setInterval(() => {
          const match = /proxy on (\S+)/.exec(stdout);
          if (match) {
            clearInterval(timer);
            resolve(match[1]);
          }
        }, 50);
      });
      expect((await call(url, 'GET', '/mailboxManagement/suppressions', {})).status).toBe(401);
      for (let waited = 0; waited < 10_000 && !/FAILURE \[error-shape\]/.test(stdout); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stdout).toMatch(/FAILURE \[error-shape\] error-responses-use-the-error-shape/);
      const code = await new Promise<number | null>((resolve) => {
        child!.once('exit', (exitCode) => resolve(exitCode));
        child!.kill('SIGINT');
      });
      expect(code).toBe(1);
      expect(existsSync(path.join(dir, 'report.html'))).toBe(true);
      expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('FAILED');
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
