/** Passive mode: traffic passes through unchanged and is judged by the per-response checks and the async judges, live and at the end. */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMock } from '../mocks/app';
import { loadContract } from '../spec/lib';
import { allChecks } from './checks';
import { parseConfig } from './config';
import { fixture as acceptedWithoutLocation } from './fixtures/broken/accepted-without-location';
import { fixture as errorWithoutErrorMessage } from './fixtures/broken/error-without-error-message';
import { fixture as locationPointsAtAnotherRun } from './fixtures/broken/location-points-at-another-run';
import { fixture as runLeavesTerminalStatus } from './fixtures/broken/run-leaves-terminal-status';
import { FAST, getHeader, setHeader } from './fixtures/fixture';
import { fixture as relativeLocation } from './fixtures/correct/relative-location';
import { TERMINAL_STATUSES } from './lib/operations';
import { ruleStated } from './lib/stated';
import { startIndependentServer } from './independent/server';
import { startPassiveProxy } from './proxy';
import { buildCoverage } from './reporters/coverage';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Polled = {
  key: string;
  accepted: number;
  location: string | null;
  uuid?: string;
  statuses: string[];
  polls: number[];
};

/**
 * A client of async work through the proxy: sends the request, resolves the 202's Location against the request URL
 * (RFC 3986) and polls it until a terminal status, then once more. An absolute Location names the upstream's
 * origin, so the client keeps its path and query on the address it talks to, as a client behind a gateway does.
 */
async function acceptAndPoll(base: string, pathname: string, body = '{}', headers = A): Promise<Polled> {
  const requestUrl = `${base}${pathname}`;
  const key = randomUUID();
  const res = await fetch(requestUrl, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });
  const answer = (await res.json()) as Record<string, { uuid?: string; status?: string }>;
  const job = answer.run ?? answer.batch;
  const polled: Polled = {
    key,
    accepted: res.status,
    location: res.headers.get('location'),
    uuid: job?.uuid,
    statuses: job?.status ? [job.status] : [],
    polls: [],
  };
  if (res.status !== 202 || !polled.location) return polled;
  const resolved = new URL(polled.location, requestUrl);
  const pollUrl = new URL(resolved.pathname + resolved.search, requestUrl).href;
  for (let extra = 0, waited = 0; extra < 2 && waited < 10_000; waited += 100) {
    const poll = await fetch(pollUrl, { headers });
    polled.polls.push(poll.status);
    const seen = (await poll.json()) as Record<string, { status?: string }>;
    const status = (seen.run ?? seen.batch)?.status;
    if (poll.status !== 200 || !status) break;
    polled.statuses.push(status);
    if (extra > 0 || TERMINAL_STATUSES.includes(status)) extra++;
    await sleep(100);
  }
  return polled;
}

const findingsOf = (summary: Awaited<ReturnType<Awaited<ReturnType<typeof startPassiveProxy>>['close']>>) =>
  summary.results.flatMap((r) => [...r.failures, ...r.warnings]).map((f) => `${f.checkId} [${f.ruleId}] ${f.title}`);

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

  it('should list the endpoints the traffic reaches that the contract does not describe', async () => {
    const { mock, proxy } = await throughProxy({});
    try {
      await call(proxy.url, 'GET', '/mailboxManagement/suppressions');
      await call(proxy.url, 'GET', '/internal/health');
      await call(proxy.url, 'GET', '/users/6f1c1a52-8d3e-4c1b-9a47-2b0d5e7f9c31');
      await call(proxy.url, 'GET', '/users/0d1c1a52-8d3e-4c1b-9a47-2b0d5e7f9c31');
    } finally {
      await mock.close();
    }
    const summary = await proxy.close();
    expect(summary.undescribed).toEqual([
      { endpoint: 'GET /internal/health', seen: 1 },
      { endpoint: 'GET /users/{id}', seen: 2 },
    ]);
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

describe('passive proxy on async work', () => {
  it('should find nothing in correct traffic that polls runs and batches to their end', async () => {
    // Runs long enough to be cancelled before they finish.
    const { mock, proxy, events } = await throughProxy({ runDurationMs: 1000 });
    let run: Polled, batch: Polled, cancelled: Polled;
    try {
      run = await acceptAndPoll(proxy.url, '/orchestration/runs');
      batch = await acceptAndPoll(proxy.url, '/orchestration/batches');
      const started = JSON.parse((await call(proxy.url, 'POST', '/orchestration/runs', A, '{}')).body).run.uuid;
      cancelled = await acceptAndPoll(proxy.url, `/orchestration/runs/${started}/cancel`);
      // A retry with the same key answers the original 202 (pending): an earlier state, not the run leaving its end.
      const replay = await call(proxy.url, 'POST', '/orchestration/runs', { ...A, 'idempotency-key': run.key }, '{}');
      expect([replay.status, JSON.parse(replay.body).run.status]).toEqual([202, run.statuses[0]]);
      // The finished run is returned unchanged; a second workspace polling it is refused, not judged.
      expect((await call(proxy.url, 'POST', `/orchestration/runs/${run.uuid}/cancel`)).status).toBe(200);
      const other = { authorization: 'Bearer mock-token-b' };
      expect((await call(proxy.url, 'GET', `/orchestration/runs/${run.uuid}`, other)).status).toBe(404);
    } finally {
      await mock.close();
    }
    const summary = await proxy.close();
    expect(findingsOf(summary)).toEqual([]);
    for (const polled of [run, batch, cancelled]) {
      expect(polled.accepted).toBe(202);
      expect(TERMINAL_STATUSES).toContain(polled.statuses[polled.statuses.length - 1]);
    }
    expect(cancelled.statuses[cancelled.statuses.length - 1]).toBe('cancelled');
    for (const id of ['async-create-answers-202-with-location', 'polled-job-ends-terminal-and-stays-terminal']) {
      const result = summary.results.find((r) => r.id === id);
      expect({ id, status: result?.status, judged: (result?.requests ?? 0) > 0 }).toEqual({
        id,
        status: 'passed',
        judged: true,
      });
    }
    expect(events.some((e) => e.type === 'finding')).toBe(false);
    // What was judged is told: creates, cancels and a replay answered 202; polls reached their Locations.
    const notes = summary.results.flatMap((r) => r.notes).join('\n');
    expect(notes).toMatch(/^5 accepted \(202\) answers judged, [1-9]\d* polls of their Locations \(3 Locations/m);
    expect(notes).toMatch(
      /^[3-9] runs and batches seen, [3-9] in a terminal status, [1-9]\d* later answers judged against it$/m,
    );
    // The report's coverage shows the async rules judged on the operations the traffic reached.
    const exchanges = events.flatMap((e) => (e.type === 'exchange' ? [e.exchange] : []));
    const coverage = buildCoverage(loadContract(), summary.target, undefined, allChecks(), summary.results, exchanges);
    const rules = Object.fromEntries(coverage.rows.map((row) => [row.operationId, row.rules]));
    for (const op of ['createRun', 'getRun', 'cancelRun', 'createBatch', 'getBatch'])
      expect({ op, location: rules[op]['async-202-location'], terminal: rules[op]['async-poll-terminal'] }).toEqual({
        op,
        location: 'passed',
        terminal: 'passed',
      });
    expect(rules.listSuppressions['async-202-location']).toBe('not reached');
  });

  it('should find no failure in correct traffic to a server that is not the mock (the independent Express one)', async () => {
    const server = await startIndependentServer({ runDurationMs: 600 });
    const config = parseConfig(['--proxy', '--upstream', server.url], {});
    const proxy = await startPassiveProxy({ ...config, ...config.proxy! }, { checks: allChecks(), reporters: [] });
    const headers = { authorization: `Bearer ${server.tokenA}` };
    let run: Polled, batch: Polled;
    try {
      run = await acceptAndPoll(proxy.url, '/orchestration/runs', '{}', headers);
      batch = await acceptAndPoll(proxy.url, '/orchestration/batches', '{"recordIds":["r-1","r-2"]}', headers);
    } finally {
      await server.close();
    }
    const summary = await proxy.close();
    // Its other readings at open points may warn; nothing fails.
    expect(summary.results.flatMap((r) => r.failures).map((f) => `${f.checkId}: ${f.title}`)).toEqual([]);
    for (const polled of [run, batch]) {
      expect(polled.accepted).toBe(202);
      expect(TERMINAL_STATUSES).toContain(polled.statuses[polled.statuses.length - 1]);
    }
    for (const id of ['async-create-answers-202-with-location', 'polled-job-ends-terminal-and-stays-terminal'])
      expect((summary.results.find((r) => r.id === id)?.requests ?? 0) > 0).toBe(true);
  });

  it('should follow a relative Location as RFC 3986 resolves it against the request URL', async () => {
    const { mock, proxy } = await throughProxy(relativeLocation.options());
    let run: Polled;
    try {
      run = await acceptAndPoll(proxy.url, '/orchestration/runs');
    } finally {
      await mock.close();
    }
    const summary = await proxy.close();
    expect(run.location).toMatch(/^runs\//);
    expect(TERMINAL_STATUSES).toContain(run.statuses[run.statuses.length - 1]);
    expect(findingsOf(summary)).toEqual([]);
  });

  /** Locations of every 202 point at a run that exists nowhere. */
  const locationOfNothing = () => ({
    ...FAST,
    hooks: {
      beforeSend(_req: unknown, res: Parameters<typeof getHeader>[0]) {
        const location = getHeader(res, 'Location');
        if (res.status === 202 && location) setHeader(res, 'Location', location.replace(/[^/]+$/, randomUUID()));
      },
    },
  });

  const ON_LOCATION = 'async-create-answers-202-with-location';
  const ON_TERMINAL = 'polled-job-ends-terminal-and-stays-terminal';
  it.each([
    // `runs`: runs the client creates and polls; `exchanges`: curl lines that reproduce the defect.
    [
      'a 202 without Location',
      { given: acceptedWithoutLocation.options, runs: 1 },
      { check: ON_LOCATION, title: /^The 202 for a run has no Location$/, exchanges: 1 },
    ],
    [
      'a Location that polls 404',
      { given: locationOfNothing, runs: 1 },
      { check: ON_LOCATION, title: /^The Location of the run does not resolve$/, exchanges: 2 },
    ],
    [
      'a Location of another run',
      { given: locationPointsAtAnotherRun.options, runs: 2 },
      { check: ON_LOCATION, title: /^The Location of the run points at another run$/, exchanges: 2 },
    ],
    [
      'a run that goes from terminal back to running',
      { given: runLeavesTerminalStatus.options, runs: 1 },
      { check: ON_TERMINAL, title: /^The run left its terminal status$/, exchanges: 2 },
    ],
  ] as const)('should report %s from the traffic alone', async (_name, { given, runs }, want) => {
    const { mock, proxy, events } = await throughProxy(given());
    try {
      for (let i = 0; i < runs; i++) await acceptAndPoll(proxy.url, '/orchestration/runs');
      await sleep(50);
      // Printed as it happens, before the proxy closes.
      expect(events.some((e) => e.type === 'finding' && e.failure.checkId === want.check)).toBe(true);
    } finally {
      await mock.close();
    }
    const summary = await proxy.close();
    const result = summary.results.find((r) => r.id === want.check)!;
    expect(result.status).toBe('failed');
    const failure = result.failures.find((f) => want.title.test(f.title));
    expect({ failures: result.failures.map((f) => f.title), found: failure !== undefined }).toMatchObject({
      found: true,
    });
    // Quotes the description's words and reproduces the exchanges it needs.
    expect(failure!.stated).toBe(ruleStated(loadContract(), result.ruleId));
    expect(failure!.stated).toContain(result.ruleId === 'async-202-location' ? 'Location' : 'success');
    expect(failure!.reproduce).toMatch(/^curl -i -X [A-Z]+ '/);
    expect(failure!.reproduce!.split('\n')).toHaveLength(want.exchanges);
    expect(summary.exitCode).toBe(1);
  });
});
