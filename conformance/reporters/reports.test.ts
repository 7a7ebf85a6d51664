/**
 * The report files of one run against a server that breaks a rule and takes an open reading: NDJSON events, a HAR
 * of every exchange, and the HTML page opened in headless Chromium (offline, no script errors).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dumpDom, findChromium, remoteRequests } from '../../scripts/lib/docs/chromium';
import type { Fixture } from '../fixtures';
import { fixture as errorWithoutErrorMessage } from '../fixtures/broken/error-without-error-message';
import { fixture as tAsSecondsToReset } from '../fixtures/correct/t-as-seconds-to-reset';
import { runAgainstFixture } from '../fixtures/run-fixture';
import { TOKEN_VARIABLES } from '../lib/failure';
import type { RunSummary } from '../runner';
import { HarReporter } from './har';
import { HtmlReporter } from './html';
import { NdjsonReporter } from './ndjson';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..');
const chromium = findChromium(ROOT);
if (!chromium.bin && process.env.CI) throw new Error(`Chromium is required on CI: ${chromium.reason}`);
if (!chromium.bin) console.warn(`HTML report render test skipped: ${chromium.reason}`);

/** Error bodies without errorMessage (a failure) and RateLimit's t as seconds to reset (a warning). */
const brokenAndOpen: Fixture = {
  name: 'broken-and-open',
  description: 'error-without-error-message and t-as-seconds-to-reset at once',
  checks: [
    'requests-without-valid-credential-get-401',
    'replayed-request-returns-original-response',
    'every-response-carries-rate-limit-headers',
    'error-responses-use-the-error-shape',
  ],
  options() {
    const open = tAsSecondsToReset.options();
    const broken = errorWithoutErrorMessage.options();
    return {
      ...open,
      hooks: {
        beforeSend(req, res) {
          const changed = open.hooks!.beforeSend!(req, res) ?? res;
          return broken.hooks!.beforeSend!(req, changed) ?? changed;
        },
      },
    };
  },
};

let dir: string;
let summary: RunSummary;
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'conformance-reports-'));
  // Tokens reproduced as environment variables, as when they come from CI secrets.
  summary = await runAgainstFixture(brokenAndOpen, { runs: 3 }, [
    new NdjsonReporter(file('run.ndjson'), TOKEN_VARIABLES),
    new HarReporter(file('run.har'), TOKEN_VARIABLES),
    new HtmlReporter(file('report.html')),
  ]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reports', () => {
  it('should fail the run and warn', () => {
    expect(summary.exitCode).toBe(1);
    expect(summary.results.flatMap((r) => r.warnings).length).toBeGreaterThan(0);
  });

  it('should stream one JSON event a line: run, check, case, exchange, failure and warning', () => {
    const events = readFileSync(file('run.ndjson'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ event: 'run', phase: 'start', seed: summary.seed });
    expect(events[events.length - 1]).toMatchObject({
      event: 'run',
      phase: 'end',
      exitCode: 1,
      requests: summary.requests,
    });
    expect(new Set(events.map((e) => e.event))).toEqual(
      new Set(['run', 'check', 'case', 'exchange', 'failure', 'warning']),
    );
    expect(events.filter((e) => e.event === 'exchange')).toHaveLength(summary.requests);
    expect(events.find((e) => e.event === 'failure')).toMatchObject({
      ruleId: 'error-shape',
      reproduce: expect.stringMatching(/^curl /),
    });
  });

  it('should write every exchange as HAR 1.2, tokens as the variables that held them', () => {
    const text = readFileSync(file('run.har'), 'utf8');
    const har = JSON.parse(text);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(summary.requests);
    expect(har.log.entries[0]).toMatchObject({
      request: { method: 'GET', httpVersion: 'HTTP/1.1' },
      response: { status: 200 },
    });
    expect(text).not.toContain('mock-token-a');
    expect(text).toContain('Bearer $CONFORMANCE_TOKEN');
  });

  it('should write a self-contained HTML page with the verdict, reproductions, quoted assumptions and coverage', () => {
    const html = readFileSync(file('report.html'), 'utf8');
    expect(html).not.toMatch(/<script|<link|src=|@import/i);
    expect(html).toContain('FAILED');
    expect(html).toContain('Reproduce with');
    expect(html).toMatch(/<blockquote>/);
    expect(html).toContain('Operations × declared statuses');
    expect(html).toContain('listSuppressions');
  });

  (chromium.bin ? it : it.skip)('should render in headless Chromium, offline and without errors', async () => {
    // Served from disk, as an artifact downloaded from CI is opened.
    const copy = file('opened.html');
    writeFileSync(copy, readFileSync(file('report.html')));
    const { dom, requestedUrls, consoleErrors } = await dumpDom(chromium.bin!, pathToFileURL(copy).href);
    expect(dom).toContain('id="verdict"');
    expect(dom).toMatch(/FAILED: \d+ checks? failed \(\d+ failures?\), \d+ checks? warned \(\d+ warnings?\)/);
    expect(dom).toContain('error-shape');
    expect(dom).toContain('class="matrix rules"');
    expect(remoteRequests(requestedUrls)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
