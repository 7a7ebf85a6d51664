/**
 * One exchange, one verdict; one defect, one failure: what a check that judged nothing shows, how a refused request's
 * undeclared 4xx is judged, what the reports quote and count, what a run lists as not judged, and the replay line.
 */
import { loadContract } from '../../spec/lib';
import type { CheckContext } from '../checks/registry';
import { inspectResponse } from '../checks/responses-match-the-contract';
import { parseConfig } from '../config';
import type { FailureInput } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import { refusalReason } from '../lib/refused-request';
import { formatFailure, formatUnjudged } from '../reporters/console';
import { toHtml } from '../reporters/html';
import { replayCommand, suiteCommand } from './replay';
import { newResult, NOTHING_JUDGED, settle, unjudgedOf, type CheckResult, type RunSummary } from './types';

const contract = loadContract();

function exchange(
  method: string,
  path: string,
  status: number,
  request: { headers?: Record<string, string>; rawBody?: string; tokenLabel?: Exchange['tokenLabel'] } = {},
): Exchange {
  return {
    id: 1,
    checkId: 'c',
    tokenLabel: request.tokenLabel ?? 'a',
    request: {
      method,
      url: `http://127.0.0.1:1/v1${path}`,
      path,
      headers: { Authorization: 'Bearer t', ...request.headers },
      rawBody: request.rawBody,
    },
    response: {
      status,
      headers: { 'content-type': 'application/json' },
      body: { statusCode: status, error: 'Unsupported Media Type', message: 'x' },
      text: '{}',
    },
    sentAt: 0,
    receivedAt: 0,
    sentTick: 1,
    receivedTick: 2,
  };
}

const check = { id: 'c', ruleId: 'r', title: 'A rule holds.', fixture: 'f' };

describe('settle', () => {
  it('should skip a check that sent no request and judged nothing, saying so', () => {
    const idle = newResult(check);
    idle.notes.push('no operation with a body is selected');
    settle(idle);
    expect(idle.status).toBe('skipped');
    expect(idle.skippedReason).toBe(`${NOTHING_JUDGED} (no operation with a body is selected)`);
  });

  it.each([
    ['sent requests', (r: CheckResult) => (r.requests = 3), 'passed'],
    ['judged a scenario another check sent', (r: CheckResult) => (r.usedShared = true), 'passed'],
    ['warned', (r: CheckResult) => r.warnings.push({} as never), 'warned'],
  ])('should not skip a check that %s', (_name, change, status) => {
    const result = newResult(check);
    change(result);
    settle(result);
    expect(result.status).toBe(status);
  });
});

describe('refusalReason', () => {
  const op = (id: string) => contract.operation(id)!;
  it.each([
    [
      'a form body',
      'createMcpServer',
      'POST',
      '/ai/mcpServers',
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, rawBody: 'name=x' },
      /not JSON/,
    ],
    [
      'malformed JSON',
      'createMcpServer',
      'POST',
      '/ai/mcpServers',
      { headers: { 'Content-Type': 'application/json' }, rawBody: '{"name":' },
      /malformed JSON/,
    ],
    [
      'a name past its bound',
      'createMcpServer',
      'POST',
      '/ai/mcpServers',
      { headers: { 'Content-Type': 'application/json' }, rawBody: JSON.stringify({ name: 'x'.repeat(256) }) },
      /name/,
    ],
    ['limit=1001', 'listSuppressions', 'GET', '/mailboxManagement/suppressions?limit=1001', {}, /limit/],
    [
      'an overlong Idempotency-Key',
      'createMcpServer',
      'POST',
      '/ai/mcpServers',
      { headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k'.repeat(256) }, rawBody: '{}' },
      /Idempotency-Key/,
    ],
    ['a malformed uuid in the path', 'getWorkflow', 'GET', '/orchestration/workflows/not-a-uuid', {}, /uuid/],
    [
      'no credential',
      'listSuppressions',
      'GET',
      '/mailboxManagement/suppressions',
      { tokenLabel: 'none' as const },
      /credential/,
    ],
  ])('should say why the contract refuses %s', (_name, id, method, path, request, why) => {
    expect(refusalReason(contract, op(id), exchange(method, path, 415, request))).toMatch(why);
  });

  it.each([
    [
      'a valid create',
      'createMcpServer',
      'POST',
      '/ai/mcpServers',
      { headers: { 'Content-Type': 'application/json' }, rawBody: JSON.stringify({ name: 'ok' }) },
    ],
    [
      'a valid list',
      'listSuppressions',
      'GET',
      '/mailboxManagement/suppressions?limit=10&reasons=bounced&reasons=manual',
      {},
    ],
  ])('should take %s as one the contract accepts', (_name, id, method, path, request) => {
    expect(refusalReason(contract, op(id), exchange(method, path, 415, request))).toBeUndefined();
  });
});

describe('an undeclared status (responses-match-the-contract)', () => {
  function judge(ex: Exchange): FailureInput[] {
    const reports: FailureInput[] = [];
    const ctx = { contract, report: (input: FailureInput) => reports.push(input) } as unknown as CheckContext;
    inspectResponse(ex, ctx);
    return reports;
  }

  it("should warn, quoting that failure statuses are not shown, on a framework's 415 for a form body", () => {
    const [report, ...rest] = judge(
      exchange('POST', '/ai/mcpServers', 415, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        rawBody: 'name=x',
      }),
    );
    expect(rest).toEqual([]);
    expect(report).toMatchObject({ severity: 'warning', assumption: expect.stringMatching(/not shown/) });
    expect(report.expected).toMatch(/its body is not JSON/);
  });

  it('should fail a 415 for a request the contract accepts, quoting the rule rather than the suppressions body', () => {
    const [report] = judge(
      exchange('POST', '/ai/mcpServers', 415, {
        headers: { 'Content-Type': 'application/json' },
        rawBody: JSON.stringify({ name: 'ok' }),
      }),
    );
    expect(report).toMatchObject({ title: 'Undeclared status (createMcpServer 415)', stated: false });
    expect(report.severity).toBeUndefined();
  });

  it("should fail an unnamed 4xx on the suppressions list, quoting the list's own statuses", () => {
    const [report] = judge(exchange('GET', '/mailboxManagement/suppressions?limit=1001', 422));
    expect(report).toMatchObject({ stated: 'The suppressions list names 400, 401, 404, 429 and 500.' });
    expect(report.severity).toBeUndefined();
  });
});

describe('reports', () => {
  const failed = newResult({ ...check, id: 'failing', ruleId: 'response-conformance' });
  failed.requests = 5;
  failed.failures.push(
    {
      ruleId: 'response-conformance',
      checkId: 'failing',
      title: 'Undeclared status (createMcpServer 415)',
      expected: 'one of 200, 201',
      received: '415',
      severity: 'failure',
      occurrences: 21,
      operations: ['createMcpServer', 'updateCurrentWorkspace', 'executeQuery'],
    },
    {
      ruleId: 'response-conformance',
      checkId: 'failing',
      title: 'Body does not match',
      expected: 'e',
      received: 'r',
      severity: 'failure',
      stated: 'Response 200 (no additional properties): count, suppressions.',
    },
  );
  failed.unjudged = [
    {
      checkId: 'failing',
      ruleId: 'ratelimit-headers-every-response',
      what: 'no 429 follows a RateLimit-Remaining that left room',
      how: 'a server configured with a smaller rate limit',
    },
  ];
  const skipped = newResult({ ...check, id: 'writes' });
  skipped.skippedReason = 'needs --allow-writes';
  settle(failed);
  settle(skipped);
  const summary: RunSummary = {
    target: 'http://127.0.0.1:1/v1',
    seed: 1,
    results: [failed, skipped],
    requests: 5,
    durationMs: 1,
    exitCode: 1,
  };

  it('should list every rule not judged, with how to judge it', () => {
    const unjudged = unjudgedOf(summary.results);
    expect(unjudged.map((u) => u.how)).toEqual([
      'a server configured with a smaller rate limit',
      'needs --allow-writes',
    ]);
    expect(formatUnjudged(unjudged)).toMatch(/^Not judged in this run \(2\), and how to judge it:\n {2}\[/);
  });

  it('should print one failure per cause with its count and the operations it was seen on', () => {
    const text = formatFailure(failed.failures[0]);
    expect(text).toContain('(seen 21 times)');
    expect(text).toContain('Seen on:  createMcpServer, updateCurrentWorkspace, executeQuery');
  });

  it('should quote the rule judged in HTML and count checks and failures in one banner', () => {
    const html = toHtml({ summary, contract, checks: [], exchanges: [], specPath: 'spec/openapi.yaml' });
    expect(html).toContain('FAILED: 1 check failed (2 failures), 0 checks warned (0 warnings)');
    const first = html.slice(html.indexOf('Undeclared status'), html.indexOf('Body does not match'));
    expect(first).toContain('<dt>rule response-conformance</dt><dd><blockquote>Every response has a declared status');
    expect(first).not.toContain('count, suppressions');
    expect(html).toContain('<dt>the description&#39;s words</dt><dd><blockquote>Response 200');
    expect(html).toContain('<h2 id="not-judged">Not judged in this run (2)</h2>');
  });
});

describe('the replay line', () => {
  it('should start the installed package where it runs compiled, and the checkout script from source', () => {
    expect(suiteCommand(true)).toBe('npx workspace-api-conformance');
    expect(suiteCommand(false)).toBe('npm run conformance --');
    const config = parseConfig(['--target', 'http://127.0.0.1:1/v1', '--token', 't', '--seed', '7'], {});
    expect(replayCommand(config, 'c', { property: 'p', path: '1:2' })).toMatch(
      /^npm run conformance -- --target http:\/\/127\.0\.0\.1:1\/v1 --token t --seed 7 --only c --path p:1:2$/,
    );
  });
});
