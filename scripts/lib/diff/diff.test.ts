import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { COVERAGE_FILE, loadCoverage, renderCoverage } from './coverage';
import { diffCase, documentsOf, loadCases } from './fixture-cases';
import { checksOfChange } from './impact';
import { CHECKS } from '../../../conformance/checks';
import { dereferenceFile, listOperations } from '../../../spec/lib';
import type { Change, ChangePart } from './change';
import { renderGithub, renderJunit } from './render-ci';
import { renderMarkdown as renderEscapedMarkdown } from './render-markdown';
import type { DiffReport } from './run-diff';

/** The markdown as GitHub shows it: spec text is backslash-escaped in the source, not on the page. */
const unescapeMarkdown = (text: string) => text.replace(/\\([\\`*_{}[\]()#+\-.!|~:"'])/g, '$1');
const renderMarkdown = (report: DiffReport) => unescapeMarkdown(renderEscapedMarkdown(report));
import { getRule, listRules } from './all-rules';
import type { Classification } from './rules';
import { runDiff } from './run-diff';
import { crossCheck, uncoveredVerdicts } from './redocly-cross-check';
import { WaiverFileError } from './waivers';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'diff');
const ROOT = join(__dirname, '..', '..', '..');
// Fixed clock: the sunset fixtures are dated around it.
const NOW = new Date('2026-11-21T00:00:00Z');

type Want = { rule: string; classification: Classification; fails: boolean; alsoBreaking?: string[] };

const b = (rule: string, alsoBreaking: string[] = []): Want => ({
  rule,
  classification: 'breaking',
  fails: true,
  alsoBreaking,
});
const nb = (rule: string): Want => ({ rule, classification: 'non-breaking', fails: false });
const warn = (rule: string): Want => ({ rule, classification: 'warning', fails: false });
const info = (rule: string): Want => ({ rule, classification: 'informational', fails: false });

// [fixture folder under scripts/fixtures/diff, what the diff must report]
const CASES: Array<[string, Want]> = [
  ['path-removed', b('path-removed')],
  ['operation-removed', b('operation-removed')],
  ['operation-removed-before-sunset', b('operation-removed')],
  ['operation-removed-after-sunset', nb('operation-removed-after-sunset')],
  ['path-added', nb('path-added')],
  ['operation-added', nb('operation-added')],
  ['operation-deprecated', nb('operation-deprecated')],
  ['operation-reactivated', info('operation-reactivated')],
  ['operation-sunset-postponed', info('operation-sunset-postponed')],
  ['operation-id-changed', info('operation-id-changed')],
  ['operation-docs-changed', info('operation-docs-changed')],
  ['server-url-changed', b('server-url-changed')],
  ['parameter-removed', b('parameter-removed')],
  ['parameter-renamed', b('parameter-renamed')],
  ['path-parameter-renamed', info('path-parameter-renamed')],
  ['parameter-added-required', b('parameter-added-required')],
  ['parameter-added-optional', nb('parameter-added-optional')],
  ['parameter-made-required', b('parameter-made-required')],
  ['parameter-made-optional', nb('parameter-made-optional')],
  ['request-body-removed', b('request-body-removed')],
  ['request-body-made-required', b('request-body-made-required')],
  ['request-media-type-removed', b('request-media-type-removed')],
  ['request-media-type-added', nb('request-media-type-added')],
  ['request-field-removed', b('request-field-removed')],
  ['request-field-renamed', b('request-field-renamed')],
  ['request-field-added-required', b('request-field-added-required')],
  ['request-field-added-optional', nb('request-field-added-optional')],
  ['request-field-made-required', b('request-field-made-required')],
  ['request-field-made-optional', nb('request-field-made-optional')],
  ['input-type-changed', b('input-type-changed')],
  ['input-type-widened', nb('input-type-widened')],
  ['input-constraint-tightened', b('input-constraint-tightened')],
  ['input-constraint-tightened-maximum', b('input-constraint-tightened')],
  ['input-constraint-tightened-minimum', b('input-constraint-tightened')],
  ['input-constraint-tightened-pattern', b('input-constraint-tightened')],
  ['input-constraint-tightened-parameter', b('input-constraint-tightened')],
  ['input-constraint-loosened', nb('input-constraint-loosened')],
  ['input-enum-narrowed', b('input-enum-narrowed')],
  ['input-enum-widened', nb('input-enum-widened')],
  ['input-nullability-removed', b('input-nullability-removed')],
  ['input-nullability-added', nb('input-nullability-added')],
  ['error-response-status-removed', warn('error-response-status-removed')],
  ['response-status-added', nb('response-status-added')],
  ['response-media-type-removed', b('response-media-type-removed')],
  ['response-media-type-added', nb('response-media-type-added')],
  ['response-field-removed', b('response-field-removed')],
  ['response-field-added', nb('response-field-added')],
  ['response-field-made-optional', b('response-field-made-optional')],
  ['response-field-made-required', nb('response-field-made-required')],
  ['response-object-opened', info('response-object-opened')],
  ['response-enum-value-added', b('response-enum-value-added')],
  ['response-enum-value-removed', nb('response-enum-value-removed')],
  ['output-type-widened', b('output-type-widened')],
  ['output-type-narrowed', nb('output-type-narrowed')],
  ['output-nullability-added', b('output-nullability-added')],
  ['output-nullability-removed', nb('output-nullability-removed')],
  ['output-constraint-loosened', b('output-constraint-loosened')],
  ['output-constraint-tightened', nb('output-constraint-tightened')],
  ['response-header-removed', b('response-header-removed')],
  ['response-header-added', nb('response-header-added')],
  ['response-header-made-optional', b('response-header-made-optional')],
  ['security-changed', b('security-changed')],
  ['security-alternative-added', nb('security-alternative-added')],
  ['security-removed', info('security-removed')],
  // A breaking change outside /v1 is reported, but only /v1 operations fail the check.
  ['breaking-outside-v1', { rule: 'response-field-removed', classification: 'breaking', fails: false }],
];

function diffFixture(name: string, crossCheck = false) {
  return runDiff({
    base: join(FIXTURES, name, 'base.yaml'),
    head: join(FIXTURES, name, 'head.yaml'),
    cwd: ROOT,
    now: NOW,
    crossCheck,
  });
}

describe('spec diff classifications', () => {
  it.each(CASES)('should classify the %s fixture', async (name, want) => {
    const report = await diffFixture(name);
    expect(report.changes).toContainEqual(
      expect.objectContaining({ rule: want.rule, classification: want.classification }),
    );
    const breaking = [
      ...new Set(
        report.changes
          .filter((c) => c.classification === 'breaking' || c.classification === 'warning')
          .map((c) => c.rule),
      ),
    ].sort();
    const expected =
      want.classification === 'breaking' || want.classification === 'warning'
        ? [want.rule, ...(want.alsoBreaking ?? [])].sort()
        : [];
    expect(breaking).toEqual(expected);
    expect(report.exitCode).toBe(want.fails ? 1 : 0);
  });

  it('should report nothing for identical specs', async () => {
    const report = await diffFixture('no-change');
    expect(report.changes).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it('should list the rules of every module that defines some (all-rules.ts loads them all)', async () => {
    const definers = readdirSync(__dirname).filter(
      (f) =>
        /\.ts$/.test(f) &&
        !f.endsWith('.test.ts') &&
        /\bdefineRule(s|Family)\(/.test(readFileSync(join(__dirname, f), 'utf8')),
    );
    expect(definers.length).toBeGreaterThan(5);
    // In a fresh module registry (this file has loaded the diff already): all-rules.ts alone, then every module
    // that defines rules; one all-rules.ts did not load defines its rules now, and the list grows.
    await jest.isolateModulesAsync(async () => {
      const rules = await import('./all-rules');
      const listed = rules.listRules().length;
      for (const f of definers) await import(join(__dirname, f));
      expect(rules.listRules().length).toBe(listed);
    });
  });

  it('should have a fixture pair for every rule', () => {
    const proven = new Set([...CASES.map(([, want]) => want.rule), ...loadCases().map((c) => c.want)]);
    expect(
      listRules()
        .map((r) => r.id)
        .filter((id) => !proven.has(id)),
    ).toEqual([]);
    const folders = readdirSync(FIXTURES)
      .filter((f) => !f.endsWith('.yaml'))
      .sort();
    // Scenario pairs proved by their own tests (hostile.test.ts, reviewer.test.ts), not by one rule.
    const scenarios = ['hostile', 'yaml-anchors'];
    expect(folders.filter((f) => !scenarios.includes(f))).toEqual([...CASES.map(([name]) => name), 'no-change'].sort());
  });
});

describe('spec diff fixture cases (scripts/fixtures/diff/cases.yaml)', () => {
  const cases = loadCases();

  it.each(cases.map((c) => [c.id, c] as const))('should report the %s case as its rule says', (_id, c) => {
    const changes = diffCase(c, NOW);
    const gating = changes
      .filter((x) => x.classification === 'breaking' || x.classification === 'warning')
      .map((x) => x.rule);
    if (c.want === 'none') {
      expect(gating).toEqual([]);
      return;
    }
    expect(changes).toContainEqual(
      expect.objectContaining({ rule: c.want, classification: getRule(c.want).classification }),
    );
    // Nothing else gates the check: each case isolates one change.
    expect([...new Set(gating)].filter((r) => r !== c.want && !(c.alsoBreaking ?? []).includes(r))).toEqual([]);
  });

  it('should build a case only from the template and its two fragments', () => {
    const { base, head } = documentsOf(cases.find((c) => c.id === 'request-property/max-decreased')!);
    expect(JSON.stringify(base)).not.toEqual(JSON.stringify(head));
    expect(
      diffCase(
        { id: 'same', at: 'request-property', base: { type: 'integer' }, head: { type: 'integer' }, want: 'none' },
        NOW,
      ),
    ).toEqual([]);
  });
});

describe('coverage of oasdiff rules (COVERAGE.md)', () => {
  it('should map every oasdiff rule to an existing fixture case or a reason it does not apply', () => {
    const rows = loadCoverage();
    const ids = new Set(loadCases().map((c) => c.id));
    expect(rows.length).toBeGreaterThanOrEqual(500);
    expect(new Set(rows.map((r) => r.oasdiff)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.case !== undefined || (row.notApplicable ?? '').length > 20).toBe(true);
      if (row.case) expect(ids.has(row.case) ? row.case : `missing case ${row.case} for ${row.oasdiff}`).toBe(row.case);
    }
  });

  it('should publish the table as rendered from the rule list and the cases', () => {
    expect(readFileSync(COVERAGE_FILE, 'utf8')).toBe(renderCoverage());
  });
});

describe('spec diff report', () => {
  it('should list breaking changes first in the markdown and state the verdict', async () => {
    const report = await runDiff({
      base: join(FIXTURES, 'response-enum-value-added', 'head.yaml'),
      head: join(FIXTURES, 'response-field-removed', 'head.yaml'),
      cwd: ROOT,
      now: NOW,
    });
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('breaking change(s) to existing /v1 operations');
    expect(markdown.indexOf('### 🔴 Breaking')).toBeLessThan(markdown.indexOf('### 🟢 Non-breaking'));
    expect(markdown).toMatch(
      /\| `GET \/things\/\{uuid\}` \| response field `thing.note` removed \| response 200 application\/json › thing.note<br><sub>[^|]*head\.yaml:\d+<\/sub> \| `response-field-removed` \|/,
    );
  });

  it('should read both sides from git refs, including split files', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'spec-diff-git-'));
    try {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
      git('init', '-q');
      git('config', 'user.email', 'ci@example.invalid');
      git('config', 'user.name', 'ci');
      mkdirSync(join(repo, 'spec', 'schemas'), { recursive: true });
      const [entry, thing] = splitFixture(readFileSync(join(FIXTURES, 'response-field-removed', 'base.yaml'), 'utf8'));
      writeFileSync(join(repo, 'spec', 'openapi.yaml'), entry);
      writeFileSync(join(repo, 'spec', 'schemas', 'thing.yaml'), thing);
      git('add', '.');
      git('commit', '-qm', 'base');
      writeFileSync(join(repo, 'spec', 'schemas', 'thing.yaml'), thing.replace(/\n {2}note:\n {4}type: string/, ''));
      git('commit', '-qam', 'head');

      const report = await runDiff({ base: 'HEAD~1', head: 'HEAD', cwd: repo, now: NOW });
      expect(report.changes.map((c) => c.rule)).toEqual(['response-field-removed']);
      // The line a reviewer edits: the split file the field was removed from, in the head spec.
      const headThing = readFileSync(join(repo, 'spec', 'schemas', 'thing.yaml'), 'utf8').split('\n');
      expect(report.changes[0].source).toEqual({
        side: 'head',
        file: 'spec/schemas/thing.yaml',
        line: headThing.indexOf('properties:') + 1,
        pointer: '#/properties',
      });
      expect(report.base).toBe('HEAD~1:spec/openapi.yaml');
      await expect(runDiff({ base: 'no-such-ref', cwd: repo, now: NOW })).rejects.toThrow(
        /neither a file nor a git commit/,
      );
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('npm run spec:diff', () => {
  const cli = (...args: string[]) =>
    spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'spec-diff.ts'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });

  it('should print JSON and exit 1 when a breaking change alters a /v1 operation', () => {
    const run = cli(
      join(FIXTURES, 'response-field-removed', 'base.yaml'),
      join(FIXTURES, 'response-field-removed', 'head.yaml'),
      '--json',
      '--no-cross-check',
      '--no-impact',
    );
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.failing).toEqual([
      expect.objectContaining({ rule: 'response-field-removed', classification: 'breaking' }),
    ]);
  });

  it('should exit 0 for non-breaking changes and 2 for a side it cannot read', () => {
    expect(
      cli(
        join(FIXTURES, 'path-added', 'base.yaml'),
        join(FIXTURES, 'path-added', 'head.yaml'),
        '--no-cross-check',
        '--no-impact',
      ).status,
    ).toBe(0);
    const missing = cli(
      'no/such/file.yaml',
      join(FIXTURES, 'path-added', 'head.yaml'),
      '--no-cross-check',
      '--no-impact',
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/neither a file nor a git commit/);
  });

  it('should exit 2 on a malformed waiver file, naming the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-diff-cli-'));
    try {
      writeFileSync(join(dir, 'waivers.yaml'), 'diff:\n  - rule: path-removed\n    reason: gone\n');
      const side = join(FIXTURES, 'path-added', 'base.yaml');
      const run = cli(side, side, '--no-cross-check', '--no-impact', '--waivers', join(dir, 'waivers.yaml'));
      expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/diff\[0\]: `approvedBy` is required/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('redocly diff cross-check', () => {
  it('should add nothing the contract rules already cover', async () => {
    const report = await diffFixture('response-enum-value-added', true);
    expect(report.crossCheck.ran).toBe(true);
    expect(report.changes.map((c) => [c.rule, c.classification])).toEqual([['response-enum-value-added', 'breaking']]);
  });

  it('should add a verdict the contract rules missed, rated by its impact', () => {
    const added = uncoveredVerdicts(
      {
        changes: [
          {
            path: '#/paths/~1things/post/requestBody',
            kind: 'modified',
            impact: 'major',
            verdicts: [{ ruleId: 'something-new', impact: 'major', message: 'Something changed.' }],
          },
        ],
      },
      [],
    );
    expect(added).toEqual([
      expect.objectContaining({ rule: 'redocly/something-new', classification: 'breaking', operation: 'POST /things' }),
    ]);
  });
});

/** Write a case's two documents to a temporary folder, for tests that go through files. */
function writeCase(id: string): { base: string; head: string; dir: string } {
  const c = loadCases().find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  const { base, head } = documentsOf(c);
  const dir = mkdtempSync(join(tmpdir(), 'spec-diff-case-'));
  writeFileSync(join(dir, 'base.yaml'), YAML.stringify(base));
  writeFileSync(join(dir, 'head.yaml'), YAML.stringify(head));
  return { base: join(dir, 'base.yaml'), head: join(dir, 'head.yaml'), dir };
}

describe('verdicts the contract decides', () => {
  const rulesOf = (id: string) =>
    diffCase(
      loadCases().find((c) => c.id === id)!,
      NOW,
    ).map((c) => [c.rule, c.classification]);

  it('should call a changed or removed response const breaking', () => {
    expect(rulesOf('response-body/const-changed')).toContainEqual(['output-const-changed', 'breaking']);
    expect(rulesOf('response-property/const-removed')).toContainEqual(['output-const-removed', 'breaking']);
  });

  it('should call a request body wrapped in oneOf breaking without a false removed field', () => {
    const rules = rulesOf('request-body/wrapped-in-one-of');
    expect(rules).toContainEqual(['request-body-wrapped-in-one-of', 'breaking']);
    expect(rules.map(([r]) => r)).not.toContain('request-field-removed');
  });

  it('should follow the contract marking of response enumerations: closed, assumed, open', () => {
    expect(rulesOf('response-property/enum-value-added')).toContainEqual(['response-enum-value-added', 'breaking']);
    expect(rulesOf('response-body/enum-value-added-assumed')).toContainEqual([
      'response-enum-value-added-assumed',
      'warning',
    ]);
    expect(rulesOf('response-body/open-enum-value-added')).toEqual([
      ['response-open-enum-value-added', 'informational'],
    ]);
  });

  it('should label string → integer a type change, and integer → number a widening', () => {
    expect(rulesOf('response-property/type-changed')).toContainEqual(['output-type-changed', 'breaking']);
    expect(rulesOf('response-property/type-generalized')).toContainEqual(['output-type-widened', 'breaking']);
  });

  it('should say what changed in a security scheme', () => {
    const changes = diffCase(
      loadCases().find((c) => c.id === 'security-scheme-token-url-changed')!,
      NOW,
    );
    expect(changes.map((c) => c.detail)).toEqual([
      'security scheme `oauth2`: authorizationCode tokenUrl changed from "http://127.0.0.1:4010/auth/oauth/token" to "https://auth.example.com/oauth/token"',
    ]);
  });
});

describe('waivers and thresholds', () => {
  const fixture = (name: string) => ({
    base: join(FIXTURES, name, 'base.yaml'),
    head: join(FIXTURES, name, 'head.yaml'),
  });
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spec-diff-waivers-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const waiverFile = (entries: object[]) => {
    const file = join(dir, 'waivers.yaml');
    writeFileSync(file, YAML.stringify({ diff: entries }));
    return file;
  };
  const accepted = {
    rule: 'response-field-removed',
    operation: 'GET /things/{uuid}',
    location: 'response 200 * › thing.note',
    reason: 'never filled in',
    approvedBy: 'api-review',
  };

  it('should accept a waived breaking change and say who approved it until when', async () => {
    const report = await runDiff({
      ...fixture('response-field-removed'),
      cwd: ROOT,
      now: NOW,
      waiversFile: waiverFile([{ ...accepted, expires: '2026-12-31' }]),
    });
    expect(report.exitCode).toBe(0);
    expect(report.failing).toEqual([]);
    expect(report.changes[0].waived).toEqual({
      reason: 'never filled in',
      approvedBy: 'api-review',
      expires: '2026-12-31',
    });
    expect(renderMarkdown(report)).toContain('**Waived** until 2026-12-31 by api-review: never filled in');
  });

  it('should fail on an expired waiver, even one that matches nothing', async () => {
    const report = await runDiff({
      ...fixture('path-added'),
      cwd: ROOT,
      now: NOW,
      waiversFile: waiverFile([{ ...accepted, expires: '2026-11-20' }]),
    });
    expect(report.exitCode).toBe(1);
    expect(report.waivers.expired).toEqual([
      expect.objectContaining({ rule: 'response-field-removed', expires: '2026-11-20' }),
    ]);
    expect(renderMarkdown(report)).toContain('**Expired waiver** for `response-field-removed`');
    const expiredOnMatch = await runDiff({
      ...fixture('response-field-removed'),
      cwd: ROOT,
      now: NOW,
      waiversFile: waiverFile([{ ...accepted, expires: '2026-11-20' }]),
    });
    expect(expiredOnMatch.failing.map((c) => c.rule)).toEqual(['response-field-removed']);
  });

  it('should refuse a waiver without a reason, an approver or an expiry date', async () => {
    for (const broken of [
      { ...accepted, expires: 'later' },
      { ...accepted, reason: '', expires: '2027-01-01' },
      { rule: 'x', reason: 'r', expires: '2027-01-01' },
    ]) {
      await expect(
        runDiff({ ...fixture('path-added'), cwd: ROOT, now: NOW, waiversFile: waiverFile([broken]) }),
      ).rejects.toThrow(WaiverFileError);
    }
  });

  it('should fail on a warning only with --fail-on warning', async () => {
    const files = writeCase('optional-response-header-removed');
    try {
      const lenient = await runDiff({ ...files, cwd: ROOT, now: NOW });
      expect([lenient.summary.warning, lenient.exitCode]).toEqual([1, 0]);
      const strict = await runDiff({ ...files, cwd: ROOT, now: NOW, failOn: 'warning' });
      expect(strict.failing.map((c) => c.rule)).toEqual(['optional-response-header-removed']);
      expect(strict.exitCode).toBe(1);
    } finally {
      rmSync(files.dir, { recursive: true, force: true });
    }
  });
});

describe('conformance checks a change touches', () => {
  const ops = listOperations(dereferenceFile(join(ROOT, 'spec', 'openapi.yaml')));
  const touched = (operation: string, part: ChangePart, rule = 'request-field-added-required') =>
    checksOfChange(
      CHECKS,
      { rule, classification: 'breaking', operation, location: '', part, detail: '', reason: '' } satisfies Change,
      [ops],
    );
  const body = (field: string): ChangePart => ({ kind: 'request-body', mediaType: 'application/json', field });
  const response = (status: string, field: string): ChangePart => ({
    kind: 'response',
    status,
    mediaType: 'application/json',
    field,
  });

  it('should set the part of every change where it is made, whatever its location says', () => {
    for (const c of loadCases())
      for (const change of diffCase(c, NOW))
        expect({ case: c.id, rule: change.rule, part: typeof change.part?.kind }).toEqual({
          case: c.id,
          rule: change.rule,
          part: 'string',
        });
    // The location is for display: the part carries the parameter's whole name, spaces and line breaks included.
    const spaced = { name: 'q r', in: 'query', required: true, schema: { type: 'string' } };
    const changes = diffCase(
      { id: 'spaced-name', at: 'parameter', head: spaced, want: 'parameter-added-required' },
      NOW,
    );
    expect(changes.map((c) => c.part)).toContainEqual({ kind: 'parameter', in: 'query', name: 'q r' });
  });

  it('should list no check of an unrelated operation for a change to one operation', () => {
    const runs = touched('POST /orchestration/runs', body('workflowUuid'));
    for (const unrelated of [
      'sql-query-is-read-only',
      'sql-query-is-scoped-per-table',
      'list-filters-select-and-count',
      'stated-lengths-count-characters',
      'deprecation-and-sunset-headers-are-valid',
      'responses-match-the-contract',
      'error-responses-use-the-error-shape',
    ])
      expect(runs).not.toContain(unrelated);
    expect(runs).toEqual(
      expect.arrayContaining(['valid-requests-are-accepted', 'replayed-request-returns-original-response']),
    );
    expect(touched('POST /orchestration/query', body('query'))).toEqual(
      expect.arrayContaining(['sql-query-is-read-only', 'sql-query-is-scoped-per-table']),
    );
  });

  it('should list the checks of the part changed: a response field, a rate-limit header, an error response', () => {
    const field = touched('GET /orchestration/runs/{uuid}', response('200', 'run.status'), 'response-field-removed');
    expect(field).toContain('responses-match-the-contract');
    expect(field).toContain('polled-job-ends-terminal-and-stays-terminal');
    expect(field).not.toContain('invalid-requests-are-rejected-with-400');
    const limit = touched(
      'GET /orchestration/runs/{uuid}',
      { kind: 'response-header', status: '200', name: 'RateLimit' },
      'response-header-removed',
    );
    expect(limit).toEqual(
      expect.arrayContaining(['every-response-carries-rate-limit-headers', 'responses-match-the-contract']),
    );
    expect(limit).not.toContain('error-responses-use-the-error-shape');
    const error = touched('GET /orchestration/runs/{uuid}', response('404', 'reason'), 'response-field-removed');
    expect(error).toContain('error-responses-use-the-error-shape');
    expect(error).not.toContain('valid-requests-are-accepted');
  });

  it('should list no check for documentation or a named component, which no check reads', () => {
    expect(touched('GET /orchestration/runs/{uuid}', { kind: 'documentation' }, 'operation-docs-changed')).toEqual([]);
    expect(touched('(document)', { kind: 'component' }, 'component-schema-removed')).toEqual([]);
  });
});

describe('exact locations', () => {
  const base = join(FIXTURES, 'response-field-removed', 'base.yaml');
  const head = join(FIXTURES, 'response-field-removed', 'head.yaml');
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spec-diff-locations-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const asJson = (file: string, name: string, indent?: number) => {
    const out = join(dir, name);
    writeFileSync(out, JSON.stringify(YAML.parse(readFileSync(file, 'utf8')), null, indent));
    return out;
  };
  const lineOf = (file: string, needle: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(needle)) + 1;

  it('should give a JSON pointer, and no line, where a JSON document is on one line', async () => {
    const report = await runDiff({
      base: asJson(base, 'base.json'),
      head: asJson(head, 'head.json'),
      cwd: dir,
      now: NOW,
    });
    const [change] = report.changes;
    expect(change.source).toEqual({
      side: 'head',
      file: 'head.json',
      pointer:
        '#/paths/~1things~1{uuid}/get/responses/200/content/application~1json/schema/properties/thing/properties',
    });
    expect(renderGithub(report)).toContain(`(at ${change.source!.pointer})`);
    expect(renderMarkdown(report)).toContain(`head.json${change.source!.pointer}`);
  });

  it('should give the line of the changed member in pretty-printed JSON', async () => {
    const report = await runDiff({
      base: asJson(base, 'base.json', 2),
      head: asJson(head, 'head.json', 2),
      cwd: dir,
      now: NOW,
    });
    const headFile = join(dir, 'head.json');
    const text = readFileSync(headFile, 'utf8').split('\n');
    // The `properties` of `thing` (the removed field's place): the second "properties" after "thing".
    const thing = text.findIndex((l) => l.includes('"thing": {'));
    const properties = text.findIndex((l, i) => i > thing && l.includes('"properties": {'));
    expect(report.changes[0].source).toEqual(expect.objectContaining({ file: 'head.json', line: properties + 1 }));
  });

  it('should give the line of a changed keyword, and follow a YAML alias to its anchor', async () => {
    const doc = (maxLength: number) => `openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: &name
                  type: string
                  maxLength: ${maxLength}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: *name
`;
    writeFileSync(join(dir, 'base.yaml'), doc(100));
    writeFileSync(join(dir, 'head.yaml'), doc(50));
    const report = await runDiff({ base: join(dir, 'base.yaml'), head: join(dir, 'head.yaml'), cwd: dir, now: NOW });
    const headFile = join(dir, 'head.yaml');
    expect(report.changes.map((c) => [c.rule, c.source?.line])).toEqual([
      ['input-constraint-tightened', lineOf(headFile, 'maxLength: 50')],
      ['output-constraint-tightened', lineOf(headFile, 'maxLength: 50')],
    ]);
    // A change at the alias itself (the whole schema) is shown where the anchor is written.
    writeFileSync(
      join(dir, 'head2.yaml'),
      doc(100).replace('name: &name', 'name: &name\n                  format: hostname'),
    );
    const whole = await runDiff({ base: join(dir, 'base.yaml'), head: join(dir, 'head2.yaml'), cwd: dir, now: NOW });
    const output = whole.changes.find((c) => c.rule === 'output-constraint-tightened')!;
    expect(output.source?.line).toBe(lineOf(join(dir, 'head2.yaml'), 'format: hostname'));
  });

  it('should exit 2 with a clear message on a document that is not OpenAPI', () => {
    writeFileSync(join(dir, 'hello.yaml'), 'hello: world\n');
    const run = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [join(ROOT, 'scripts', 'spec-diff.ts'), join(dir, 'hello.yaml'), head, '--no-cross-check', '--no-impact'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect([run.status, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(/hello\.yaml is not an OpenAPI 3\.x description \(it has no `openapi` version field\)/);
  });
});

describe('renames only with evidence', () => {
  const doc = (field: string) => `openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                ${field}: { $ref: '#/components/schemas/Person' }
      responses:
        '200': { description: ok }
components:
  schemas:
    Person: { type: object, properties: { name: { type: string } } }
`;
  it('should read a field moved to an unrelated name as a rename when both are the same $ref target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-diff-rename-'));
    try {
      writeFileSync(join(dir, 'base.yaml'), doc('owner'));
      writeFileSync(join(dir, 'head.yaml'), doc('holder'));
      const report = await runDiff({ base: join(dir, 'base.yaml'), head: join(dir, 'head.yaml'), cwd: dir, now: NOW });
      expect(report.changes.map((c) => c.rule)).toEqual(['request-field-renamed']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('redocly diff disagreeing', () => {
  it('should report a changed request pattern that redocly rates major and spec:diff a warning', async () => {
    const files = writeCase('request-property/pattern-changed');
    try {
      const report = await runDiff({ ...files, cwd: ROOT, now: NOW, crossCheck: true });
      expect(report.crossCheck.ran).toBe(true);
      expect(report.changes.map((c) => [c.rule, c.classification])).toContainEqual([
        'input-pattern-changed',
        'warning',
      ]);
      expect(report.crossCheck.disagreements).toEqual([
        expect.objectContaining({
          operation: 'POST /things',
          specDiff: expect.objectContaining({ rule: 'input-pattern-changed', classification: 'warning' }),
          redocly: expect.objectContaining({ ruleId: 'schema-constraint-changed', impact: 'major' }),
        }),
      ]);
      expect(renderMarkdown(report)).toMatch(
        /Second opinion: redocly diff \(1 disagreement\(s\)[\s\S]*redocly rates it major; spec:diff rates it warning/,
      );
    } finally {
      rmSync(files.dir, { recursive: true, force: true });
    }
  });

  it('should report a breaking change redocly does not see, and agree where both call it breaking', () => {
    const engine = diffCase(
      loadCases().find((c) => c.id === 'request-property/max-decreased')!,
      NOW,
    );
    const breaking = engine.find((c) => c.classification === 'breaking')!;
    breaking.source = { side: 'head', file: 'head.yaml', pointer: '#/paths/~1things/post/x/maxLength' };
    expect(crossCheck({ changes: [] }, engine).disagreements).toEqual([
      expect.objectContaining({ summary: expect.stringMatching(/redocly reports no change here/) }),
    ]);
    const agreeing = crossCheck(
      {
        changes: [
          {
            path: '#/paths/~1things/post/x',
            kind: 'modified',
            impact: 'major',
            verdicts: [{ ruleId: 'schema-constraint-changed', impact: 'major', message: 'max' }],
          },
        ],
      },
      engine,
    );
    expect(agreeing).toEqual({ added: [], disagreements: [] });
  });
});

describe('the contract changed in place', () => {
  const SPEC = join(ROOT, 'spec', 'openapi.yaml');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spec-diff-contract-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should point a newly required field at its `required` entry and list only what it touches', async () => {
    const text = readFileSync(SPEC, 'utf8');
    const anchor = '    CreateRunRequest:\n      type: object\n';
    expect(text).toContain(anchor);
    const head = join(dir, 'required.yaml');
    writeFileSync(head, text.replace(anchor, `${anchor}      required: [workflowUuid]\n`));
    const report = await runDiff({ base: SPEC, head, cwd: ROOT, now: NOW, impact: true });
    const change = report.changes.find((c) => c.rule === 'request-field-made-required');
    expect(change).toEqual(
      expect.objectContaining({
        operation: 'POST /orchestration/runs',
        source: expect.objectContaining({
          side: 'head',
          line: text.slice(0, text.indexOf(anchor)).split('\n').length + 2,
          pointer: '#/components/schemas/CreateRunRequest/required/0',
        }),
      }),
    );
    expect(change!.impact!.clientTypes).toEqual(['components["schemas"]["CreateRunRequest"]']);
    // A tighter bound changes what the server accepts, not the type clients compile.
    const bound = join(dir, 'bound.yaml');
    writeFileSync(bound, text.replace('maxLength: 10000', 'maxLength: 5000'));
    const tightened = (await runDiff({ base: SPEC, head: bound, cwd: ROOT, now: NOW, impact: true })).changes;
    expect(tightened.map((c) => [c.rule, c.operation, c.impact?.clientTypes])).toEqual([
      ['input-constraint-tightened', 'POST /orchestration/query', []],
    ]);
    expect(tightened[0].impact!.conformanceChecks).toEqual(
      expect.arrayContaining(['sql-query-is-read-only', 'stated-lengths-count-characters']),
    );
    expect(change!.impact!.conformanceChecks).not.toContain('sql-query-is-read-only');
    expect(change!.impact!.conformanceChecks).toContain('valid-requests-are-accepted');
  });
});

describe('report formats for CI', () => {
  const fixture = {
    base: join(FIXTURES, 'response-field-removed', 'base.yaml'),
    head: join(FIXTURES, 'response-field-removed', 'head.yaml'),
  };

  it('should write JUnit with one failing test case per failing change, carrying file and line', async () => {
    const xml = renderJunit(await runDiff({ ...fixture, cwd: ROOT, now: NOW }));
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="spec-diff" tests="1" failures="1">/,
    );
    expect(xml).toMatch(
      /<testcase classname="spec-diff.response-field-removed" name="GET \/things\/\{uuid\}: response field `thing.note` removed" file="[^"]*head.yaml" line="\d+">\n\s+<failure message=/,
    );
  });

  it('should write GitHub annotations on the head file and line of each change', async () => {
    const text = renderGithub(await runDiff({ ...fixture, cwd: ROOT, now: NOW }));
    expect(text).toMatch(
      /^::error file=scripts\/fixtures\/diff\/response-field-removed\/head\.yaml,line=\d+,title=breaking%3A response-field-removed::GET \/things\/\{uuid\} › /m,
    );
    expect(text).toMatch(/1 failing \(fail on breaking\)\n$/);
  });

  it('should report the client types and conformance checks a breaking change touches', async () => {
    const report = await runDiff({ ...fixture, cwd: ROOT, now: NOW, impact: true });
    const impact = report.changes[0].impact!;
    expect(impact.clientTypes).toEqual(['operations["getThing"]']);
    // A 200 body field: the checks that read response bodies, not those of 401s, requests or idempotency.
    expect(impact.conformanceChecks).toEqual(['responses-match-the-contract']);
    expect(renderMarkdown(report)).toMatch(
      /### Impact of breaking changes and warnings[\s\S]*\| `GET \/things\/\{uuid\}` \| `operations\["getThing"\]` \| `responses-match-the-contract`/,
    );
  });
});

/** Move the response `thing` schema of a fixture into a split file referenced by `$ref`. */
function splitFixture(text: string): [string, string] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fixture document, not the contract
  const YAML = require('yaml') as typeof import('yaml');
  const doc = YAML.parse(text);
  const schema = doc.paths['/things/{uuid}'].get.responses['200'].content['application/json'].schema;
  const thing = schema.properties.thing;
  schema.properties.thing = { $ref: './schemas/thing.yaml' };
  return [YAML.stringify(doc), YAML.stringify(thing)];
}
