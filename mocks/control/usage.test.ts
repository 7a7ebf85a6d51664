/**
 * The usage report: what the API answered (operation × status × outcome), and what the contract states that no
 * answer met, read through the control client, scoped like every control request, bounded, escaped, and written
 * as files when the mock stops (MOCK_USAGE_REPORT).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../../spec/lib';
import { startMock } from '../app';
import { SPEC_PATH, startCheckedMock } from '../testing/client';
import { createMockControl, formatUsageMarkdown, MockControlError, type UsageReport } from './client';
import { createUsageCounter } from './usage';
import { markdownPathOf } from './usage-file';
import { defined } from '../testing/defined';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;
const ADMIN = 'admin-secret';
const contract = loadContract(SPEC_PATH);

const rowsOf = (report: UsageReport, operation: string) =>
  report.rows
    .filter((row) => row.operation === operation)
    .map(({ status, outcome, count }) => [status, outcome, count]);
const gapOf = (report: UsageReport, operation: string) =>
  defined(
    report.operations.find((gap) => gap.operation === operation),
    'report.operations.find((gap) => gap.operation === operation)',
  );

describe('the usage report over the control plane', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 0);
  let m: Checked;
  const tenant = (token: string) => createMockControl({ url: m.mock.origin, token });
  const admin = () => createMockControl({ url: m.mock.origin, adminToken: ADMIN });
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, rateLimit: 100_000, adminToken: ADMIN });
  });
  beforeEach(async () => {
    await admin().resetAll();
    await admin().resetUsage();
  });
  afterAll(() => m.close());

  it('should count each answer by operation, status and outcome, and list what was never met', async () => {
    await m.call('GET', '/mailboxManagement/suppressions');
    await m.call('GET', '/mailboxManagement/suppressions');
    await m.call('GET', '/mailboxManagement/suppressions', { token: null });
    await m.call('GET', '/mailboxManagement/suppressions', { query: 'limit=0' });
    const run = await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer: 'outcome=error' } });
    await m.call('GET', `/orchestration/runs/${run.body.run.uuid}`);
    clock += 1000;
    await m.call('GET', `/orchestration/runs/${run.body.run.uuid}`);
    await expect(
      fetch(`${m.mock.url}/orchestration/runs/${run.body.run.uuid}`, {
        headers: { authorization: 'Bearer mock-token-a', prefer: 'fault=reset' },
      }),
    ).rejects.toThrow();

    const report = await tenant('mock-token-a').usage();
    expect(report.scope).toBe('0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b');
    expect(rowsOf(report, 'listSuppressions')).toEqual([
      [200, '-', 2],
      [400, 'reason:invalid_request', 1],
      [401, 'reason:unauthorized', 1],
    ]);
    expect(rowsOf(report, 'createRun')).toEqual([[202, 'job:pending', 1]]);
    expect(rowsOf(report, 'getRun')).toEqual([
      [200, 'fault:reset', 1],
      [200, 'job:error', 1],
      [200, 'job:pending', 1],
    ]);
    expect(report.requests).toBe(8);
    expect(report.rows.every((row) => row.stated)).toBe(true);
    // What no answer met: the statuses the contract states, and the terminal statuses no poll showed.
    const stated = (operationId: string) =>
      Object.keys(
        defined(
          contract.operations.find((op) => op.operationId === operationId),
          `the operation ${operationId}`,
        ).responses,
      );
    expect(gapOf(report, 'listSuppressions').unexercisedStatuses).toEqual(
      stated('listSuppressions').filter((key) => !['200', '400', '401'].includes(key)),
    );
    expect(gapOf(report, 'getRun').unexercisedOutcomes).toEqual(['success', 'cancelled', 'skipped']);
    expect(gapOf(report, 'getBatch')).toEqual({
      operation: 'getBatch',
      requests: 0,
      unexercisedStatuses: stated('getBatch'),
      unexercisedOutcomes: contract.constants.terminalStatuses,
    });
    expect(gapOf(report, 'createRun').unexercisedOutcomes).toEqual([]);
    expect(report.operations.map((gap) => gap.operation)).toEqual(contract.operations.map((op) => op.operationId));
  });

  it("should show a tenant its own workspace's answers only, and the admin every workspace's", async () => {
    await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-a' });
    await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-b' });
    await m.call('GET', '/mailboxManagement/suppressions', { token: 'mock-token-b' });
    expect(rowsOf(await tenant('mock-token-a').usage(), 'listSuppressions')).toEqual([[200, '-', 1]]);
    expect(rowsOf(await tenant('mock-token-b').usage(), 'listSuppressions')).toEqual([[200, '-', 2]]);
    expect(rowsOf(await admin().usage(), 'listSuppressions')).toEqual([[200, '-', 3]]);
    expect(rowsOf(await admin().usage('mock-token-b'), 'listSuppressions')).toEqual([[200, '-', 2]]);
    const refused = await tenant('mock-token-a')
      .usage('mock-token-b')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockControlError);
    expect((refused as MockControlError).status).toBe(403);
    // A tenant's reset of its counts leaves the other workspace's.
    await tenant('mock-token-b').resetUsage();
    expect((await tenant('mock-token-b').usage()).requests).toBe(0);
    expect(rowsOf(await admin().usage(), 'listSuppressions')).toEqual([[200, '-', 1]]);
  });

  it('should not count the control plane, nor the paths outside the API', async () => {
    await tenant('mock-token-a').settings();
    await fetch(`${m.mock.origin}/elsewhere`);
    // Outside the base path, a path that reads like an operation's is not an answer of that operation.
    await fetch(`${m.mock.origin}/mailboxManagement/suppressions`, {
      headers: { authorization: 'Bearer mock-token-a' },
    });
    await m.call('GET', '/no/such/path');
    expect((await admin().usage()).requests).toBe(0);
  });

  it('should keep counting across resets of the state (a suite resets before each test)', async () => {
    await m.call('GET', '/mailboxManagement/suppressions');
    await tenant('mock-token-a').reset();
    await m.call('GET', '/mailboxManagement/suppressions');
    expect(rowsOf(await tenant('mock-token-a').usage(), 'listSuppressions')).toEqual([[200, '-', 2]]);
  });
});

describe('the usage count table', () => {
  const counter = (maxCells?: number) =>
    createUsageCounter({
      operations: contract.operations,
      terminalStatuses: contract.constants.terminalStatuses,
      now: () => 0,
      maxCells,
    });

  it('should keep at most maxCells cells, counting what it could not keep as dropped', () => {
    const usage = counter(3);
    for (let i = 0; i < 1000; i++) usage.record('ws', 'listSuppressions', 200, `reason:r${i % 10}`);
    const report = usage.report();
    expect(report.rows.map((row) => row.count)).toEqual([100, 100, 100]);
    expect(report.dropped).toBe(700);
    expect(report.maxCells).toBe(3);
    usage.reset('ws');
    usage.record('ws', 'listSuppressions', 200, 'x');
    expect(usage.report().rows).toHaveLength(1);
  });

  it('should keep an outcome with spaces whole', () => {
    const usage = counter();
    usage.record('ws', 'getModel', 400, 'reason:two words here');
    expect(usage.report().rows.map((row) => row.outcome)).toEqual(['reason:two words here']);
  });

  it('should mark a status the operation does not state', () => {
    const usage = counter();
    usage.record('ws', 'getModel', 418, '-');
    expect(usage.report().rows).toEqual([
      { operation: 'getModel', status: 418, outcome: '-', count: 1, stated: false },
    ]);
  });

  it('should write markdown that no outcome can break out of (code spans, one table row each)', () => {
    const usage = counter();
    const hostile = 'reason:`|<script>\n| x | y |\r\u001b[31m';
    usage.record('ws', 'getModel', 400, hostile);
    const markdown = formatUsageMarkdown(usage.report());
    const row = markdown.split('\n').filter((line) => line.startsWith('| `getModel`'));
    expect(row).toHaveLength(2);
    expect(markdown).not.toContain('\u001b');
    expect(markdown).not.toContain('\r');
    // Four columns: five pipes that are not escaped, whatever the outcome held.
    expect(row.map((line) => (line.match(/(?<!\\)\|/g) ?? []).length)).toEqual([5, 5]);
  });
});

/** The mock's command (`npm start`; `workspace-api-mock` runs the same) with `env`; its origin once it listens. */
function startCommand(env: Record<string, string>) {
  const bin = join(__dirname, '..', 'server.ts');
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', bin], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/[^\s/]+)\/v1/.exec(output);
      if (found) resolve(found[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`exited (${code}): ${output}`)));
  });
  return { child, origin, exited };
}

describe('MOCK_USAGE_REPORT', () => {
  it('should be written by the command when it stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-command-'));
    try {
      const path = join(dir, 'usage.json');
      const command = startCommand({ MOCK_USAGE_REPORT: path });
      const origin = await command.origin;
      await fetch(`${origin}/v1/mailboxManagement/suppressions`);
      command.child.kill('SIGTERM');
      expect(await command.exited).toBe(0);
      const report = JSON.parse(readFileSync(path, 'utf8')) as UsageReport;
      expect(report.rows).toEqual([
        { operation: 'listSuppressions', status: 401, outcome: 'reason:unauthorized', count: 1, stated: true },
      ]);
      expect(readFileSync(join(dir, 'usage.md'), 'utf8')).toContain('| `listSuppressions` | 401 |');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('should write the report as JSON and markdown when the mock stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-report-'));
    try {
      const path = join(dir, 'reports', 'mock-usage.json');
      const mock = await startMock({ port: 0, usageReportPath: path });
      await fetch(`${mock.url}/mailboxManagement/suppressions`, { headers: { authorization: 'Bearer mock-token-a' } });
      expect(existsSync(path)).toBe(false);
      await mock.close();
      const report = JSON.parse(readFileSync(path, 'utf8')) as UsageReport;
      expect(report.scope).toBe('all');
      expect(report.rows).toEqual([
        { operation: 'listSuppressions', status: 200, outcome: '-', count: 1, stated: true },
      ]);
      const markdown = readFileSync(markdownPathOf(path), 'utf8');
      expect(markdown).toBe(formatUsageMarkdown(report));
      expect(markdown).toContain('| `listSuppressions` | 200 | - | 1 |');
      expect(markdownPathOf('usage')).toBe('usage.md');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
