/**
 * Every output format of the suite and its passive proxy, driven by a corpus of hostile strings in every field a
 * target (or a client of the proxy) controls: nothing a terminal, a CI log, an XML parser, a browser or a
 * line-oriented JSON reader would act on reaches the output, and the hostile text still arrives, shown visibly.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { loadContract } from '../../spec/lib';
import { allChecks } from '../checks';
import { parseConfig } from '../config';
import { toFailure, type Failure } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import type { Cell } from '../matrix/matrix';
import { formatMatrix } from '../matrix/matrix';
import { startPassiveProxy } from '../proxy';
import { runConformance, type Reporter, type RunEvent, type RunSummary } from '../runner';
import { ConsoleReporter, terminalSink } from './console';
import { CtrfReporter } from './ctrf';
import { HarReporter } from './har';
import {
  ANY_LINE_BREAK,
  HOSTILE_STRINGS,
  HOSTILE_TEXT,
  TERMINAL_FORBIDDEN,
  terminalViolation,
} from './hostile-strings';
import { toHtml } from './html';
import { JunitReporter, toJunitXml } from './junit';
import { NdjsonReporter } from './ndjson';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..', '..');
const H = HOSTILE_TEXT;
const contract = loadContract();

/** An exchange with hostile text wherever a target or a client puts bytes: URL, headers, bodies, the error. */
const exchange: Exchange = {
  id: 1,
  checkId: 'responses-match-the-contract',
  operationId: 'listSuppressions',
  tokenLabel: 'a',
  request: {
    method: 'GET',
    url: `http://127.0.0.1:9/v1/mailboxManagement/suppressions?reasons=${H}`,
    path: `/mailboxManagement/suppressions?reasons=${H}`,
    headers: { authorization: 'Bearer mock-token-a', 'x-hostile': H },
    body: { note: H },
    rawBody: H,
  },
  response: {
    status: 400,
    headers: { 'content-type': 'text/html', 'x-hostile': H, location: H },
    body: { errorMessage: H, reason: H },
    text: H,
  },
  error: H,
  sentAt: 0,
  receivedAt: 1,
  sentTick: 1,
  receivedTick: 2,
};

function hostileFinding(severity: Failure['severity']): Failure {
  return toFailure(
    {
      title: `Response ${H}`,
      expected: H,
      received: H,
      severity,
      exchange,
      stated: H,
      assumption: H,
      seed: 1,
      path: H,
      replay: `npx workspace-api-conformance --path '${H}'`,
      occurrences: 3,
      examples: [{ request: H, status: 400, reproduce: H }],
    },
    'responses-match-the-contract',
    'response-conformance',
  );
}

const result = (id: string, extra: Partial<RunSummary['results'][number]>): RunSummary['results'][number] => ({
  id,
  ruleId: 'response-conformance',
  title: H,
  fixture: 'f',
  status: 'passed',
  failures: [],
  warnings: [],
  notes: [],
  requests: 1,
  durationMs: 1,
  ...extra,
});

const summary: RunSummary = {
  target: 'http://127.0.0.1:9/v1',
  seed: 1,
  requests: 1,
  durationMs: 1,
  exitCode: 1,
  results: [
    result('responses-match-the-contract', { status: 'failed', failures: [hostileFinding('failure')] }),
    result('error-responses-use-the-error-shape', { status: 'warned', warnings: [hostileFinding('warning')] }),
    result('undeclared-methods-are-refused', { status: 'skipped', skippedReason: H }),
    result('no-request-gets-a-server-error', { notes: [H, `a note\n${H}`] }),
  ],
  undescribed: [{ endpoint: `GET ${H}`, seen: 2 }],
};

/** The events of a run that saw the hostile exchange, in the order the runner emits them. */
function events(): RunEvent[] {
  const checks = allChecks().filter((check) => summary.results.some((r) => r.id === check.id));
  return [
    { type: 'run-start', target: summary.target, seed: 1, checks, specPath: H, contract },
    ...checks.map((check): RunEvent => ({ type: 'check-start', check })),
    { type: 'case', checkId: 'responses-match-the-contract', property: H, index: 0, passed: false, value: H },
    { type: 'exchange', exchange },
    ...summary.results
      .flatMap((r) => [...r.failures, ...r.warnings])
      .map((f): RunEvent => ({ type: 'finding', failure: f })),
    ...summary.results.map((r): RunEvent => ({ type: 'check-end', result: r })),
    { type: 'run-end', summary },
  ];
}

async function feed(reporter: Reporter): Promise<void> {
  for (const event of events()) await reporter.onEvent(event);
}

/** Parses with a strict XML 1.0 parser (it refuses every character XML forbids); the decoded text and attributes. */
function parseXml(xml: string): { elements: string[]; text: string } {
  const parser = new SaxesParser();
  const elements: string[] = [];
  const text: string[] = [];
  const errors: string[] = [];
  parser.on('error', (error) => errors.push(error.message));
  parser.on('opentag', (tag) => {
    elements.push(tag.name);
    text.push(...Object.values(tag.attributes).map(String));
  });
  parser.on('text', (t) => text.push(t));
  parser.on('cdata', (t) => text.push(t));
  parser.write(xml).close();
  expect(errors).toEqual([]);
  return { elements, text: text.join('\n') };
}

const JUNIT_ELEMENTS = new Set([
  'testsuites',
  'testsuite',
  'properties',
  'property',
  'testcase',
  'failure',
  'skipped',
  'system-out',
]);

let dir: string;
beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), 'conformance-hostile-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the hostile corpus', () => {
  it.each(HOSTILE_STRINGS)('should be unsafe as given: %s', (_name, text) => {
    // Each string is an attack on at least one format; the tests below prove none survives.
    const unsafe =
      terminalViolation(text) !== undefined ||
      /[<>&"'`]/.test(text) ||
      ANY_LINE_BREAK.test(text) ||
      /[\ufffe\uffff]/.test(text);
    expect(unsafe).toBe(true);
  });
});

describe('terminal (console reporter, passive live findings, command line)', () => {
  it.each([
    ['a run', false],
    ['the passive proxy', true],
  ])('should show %s with controls visible and no workflow command', async (_name, live) => {
    let out = '';
    await feed(new ConsoleReporter((text) => (out += text), live));
    expect(terminalViolation(out)).toBeUndefined();
    expect(out).toContain('\\x1B[31mRED');
    expect(out).toContain('\\x3A:add-mask::secret-value');
    expect(out).toContain('\\x23#vso[');
    expect(out).toContain('FAIL\\x0DPASS');
    // A field's later lines stay under their label: no target text starts a line of its own.
    expect(out).not.toMatch(/^(?:\\x1B|\\x9B|one|ok|safe|a\\|FAIL\\x0D|<script|\]\]>|`code)/m);
  });

  it('should pass the coverage matrix through the same door', () => {
    const cell: Cell = { rule: H, dimension: H, subject: H, stated: true, judgedBy: [H] } as unknown as Cell;
    let out = '';
    terminalSink((text) => (out += text))(formatMatrix([cell, { ...cell, reason: H }]));
    expect(terminalViolation(out)).toBeUndefined();
  });
});

describe('XML (JUnit)', () => {
  it('should parse with a strict XML 1.0 parser and carry no escape sequence or workflow command', () => {
    const { elements, text } = parseXml(toJunitXml(summary));
    expect(new Set(elements)).toEqual(JUNIT_ELEMENTS);
    expect(terminalViolation(text)).toBeUndefined();
    expect(text).toContain('\\uFFFE');
    expect(text).toContain('<script>alert(1)</script>');
  });
});

describe('HTML', () => {
  it('should escape markup and show invisible characters', () => {
    const html = toHtml({
      summary,
      contract: { ...contract, rules: contract.rules.map((rule) => ({ ...rule, text: H })) },
      checks: allChecks(),
      exchanges: [exchange],
      specPath: H,
    });
    for (const raw of ['<script', '<img', '<b>bold', '<!ENTITY', `"'>`]) expect(html).not.toContain(raw);
    expect(html).not.toMatch(TERMINAL_FORBIDDEN);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('safe\\u202Etxt.exe');
  });
});

describe('JSON (NDJSON, CTRF, HAR)', () => {
  it('should write NDJSON a line-oriented reader splits into exactly its records, carrying the text unchanged', async () => {
    const file = path.join(dir, 'run.ndjson');
    await feed(new NdjsonReporter(file));
    const text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(text.trimEnd().split(ANY_LINE_BREAK)).toHaveLength(lines.length);
    expect(lines).toHaveLength(events().length);
    const records = lines.map((line) => JSON.parse(line));
    expect(records.find((r) => r.event === 'exchange').response.body).toBe(H);
    expect(records.find((r) => r.event === 'failure').received).toBe(H);
  });

  it.each([
    ['CTRF', 'report.ctrf.json', (file: string) => new CtrfReporter(file)],
    ['HAR', 'run.har', (file: string) => new HarReporter(file)],
  ])('should write %s as valid JSON with no raw line separator', async (_name, name, make) => {
    const file = path.join(dir, name);
    await feed(make(file));
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    const parsed = JSON.parse(text);
    expect(JSON.stringify(parsed)).toContain('FAIL\\rPASS');
  });
});

/**
 * A target that answers every request with hostile text: a text body raw (ESC, CR, NUL…), a JSON body whose
 * strings hold the corpus, and Latin-1 header values (C1 CSI, NEL) as HTTP lets them through.
 */
async function startHostileTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const latin1 = '\u009b31m::error::x \u0085##vso[task.complete]';
  const server: Server = createServer((req, res) => {
    req.resume();
    const raw = !req.headers.authorization || req.method !== 'GET';
    res.setHeader('x-hostile', latin1);
    res.setHeader('ratelimit-remaining', latin1);
    res.setHeader('location', `/v1/${latin1}`);
    if (raw) {
      res.writeHead(req.headers.authorization ? 500 : 401, { 'content-type': 'text/plain' });
      res.end(H);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ count: H, suppressions: [{ email: H, reason: H }], errorMessage: H }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ONLY = [
  'responses-match-the-contract',
  'error-responses-use-the-error-shape',
  'every-response-carries-rate-limit-headers',
  'no-request-gets-a-server-error',
  'requests-without-valid-credential-get-401',
];

describe('against a hostile target, in both modes', () => {
  let target: Awaited<ReturnType<typeof startHostileTarget>>;
  beforeAll(async () => (target = await startHostileTarget()));
  afterAll(() => target.close());

  it('should write a JUnit report that parses, and a safe console, in an active run', async () => {
    const file = path.join(dir, 'active.xml');
    let out = '';
    const config = parseConfig(
      ['--target', target.url, '--token', 'hostile-a', '--runs', '2', '--max-requests', '80', '--only', ONLY.join(',')],
      {},
    );
    const run = await runConformance(config, {
      checks: allChecks(),
      reporters: [new ConsoleReporter((text) => (out += text)), new JunitReporter(file)],
    });
    expect(run.exitCode).toBe(1);
    expect(terminalViolation(out)).toBeUndefined();
    expect(out).toMatch(/\\x1B\[31mRED|\\x9B31m/);
    const { text } = parseXml(readFileSync(file, 'utf8'));
    expect(terminalViolation(text)).toBeUndefined();
    expect(text).toMatch(/\\x1B|\\x9B/);
  });

  it('should write a JUnit report that parses, and a safe live console, from the passive proxy', async () => {
    const file = path.join(dir, 'passive.xml');
    let out = '';
    const config = parseConfig(['--proxy', '--upstream', target.url], {});
    const proxy = await startPassiveProxy(
      { ...config, ...config.proxy! },
      { checks: allChecks(), reporters: [new ConsoleReporter((text) => (out += text), true), new JunitReporter(file)] },
    );
    for (const [method, auth] of [
      ['GET', 'Bearer a'],
      ['POST', 'Bearer a'],
      ['GET', undefined],
    ] as const)
      await fetch(`${proxy.url}/mailboxManagement/suppressions?x=%1B%5B31m`, {
        method,
        headers: auth ? { authorization: auth } : {},
      }).then((res) => res.arrayBuffer());
    await proxy.close();
    expect(terminalViolation(out)).toBeUndefined();
    expect(out).toMatch(/\\x9B31m|\\x1B/);
    const { text } = parseXml(readFileSync(file, 'utf8'));
    expect(terminalViolation(text)).toBeUndefined();
  });

  it('should keep the command line safe on stdout and stderr', async () => {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        path.join(ROOT, 'node_modules', '.bin', 'tsx'),
        [
          'conformance/cli.ts',
          '--target',
          target.url,
          '--token',
          'hostile-a',
          '--runs',
          '1',
          '--max-requests',
          '40',
          '--only',
          ONLY.slice(0, 2).join(','),
        ],
        { cwd: ROOT, env: { PATH: process.env.PATH } },
        (_error, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    expect(stdout).toContain('FAIL');
    expect(terminalViolation(stdout)).toBeUndefined();
    expect(terminalViolation(stderr)).toBeUndefined();
  });
});
