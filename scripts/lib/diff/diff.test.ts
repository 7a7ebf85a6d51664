import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMarkdown } from './render-markdown';
import { listRules, type Classification } from './rules';
import { runDiff } from './run-diff';
import { uncoveredVerdicts } from './redocly-cross-check';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'diff');
const ROOT = join(__dirname, '..', '..', '..');
// Fixed clock: the sunset fixtures are dated around it.
const NOW = new Date('2026-11-21T00:00:00Z');

type Want = { rule: string; classification: Classification; fails: boolean; alsoBreaking?: string[] };

const b = (rule: string, alsoBreaking: string[] = []): Want => ({ rule, classification: 'breaking', fails: true, alsoBreaking });
const nb = (rule: string): Want => ({ rule, classification: 'non-breaking', fails: false });
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
  ['operation-undeprecated', info('operation-undeprecated')],
  ['operation-sunset-changed', info('operation-sunset-changed')],
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
  ['response-status-removed', b('response-status-removed')],
  ['response-status-added', nb('response-status-added')],
  ['response-media-type-removed', b('response-media-type-removed')],
  ['response-media-type-added', nb('response-media-type-added')],
  ['response-field-removed', b('response-field-removed')],
  ['response-field-added', nb('response-field-added')],
  ['response-field-made-optional', b('response-field-made-optional')],
  ['response-field-made-required', nb('response-field-made-required')],
  ['response-object-opened', info('response-object-opened')],
  ['response-enum-value-added', info('response-enum-value-added')],
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
  return runDiff({ base: join(FIXTURES, name, 'base.yaml'), head: join(FIXTURES, name, 'head.yaml'), cwd: ROOT, now: NOW, crossCheck });
}

describe('spec diff classifications', () => {
  it.each(CASES)('should classify the %s fixture', async (name, want) => {
    const report = await diffFixture(name);
    expect(report.changes).toContainEqual(expect.objectContaining({ rule: want.rule, classification: want.classification }));
    const breaking = [...new Set(report.changes.filter((c) => c.classification === 'breaking').map((c) => c.rule))].sort();
    const expected = want.classification === 'breaking' ? [want.rule, ...(want.alsoBreaking ?? [])].sort() : [];
    expect(breaking).toEqual(expected);
    expect(report.exitCode).toBe(want.fails ? 1 : 0);
  });

  it('should report nothing for identical specs', async () => {
    const report = await diffFixture('no-change');
    expect(report.changes).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it('should have a fixture pair for every rule', () => {
    const proven = new Set(CASES.map(([, want]) => want.rule));
    expect(listRules().map((r) => r.id).filter((id) => !proven.has(id))).toEqual([]);
    const folders = readdirSync(FIXTURES).sort();
    expect(folders).toEqual([...CASES.map(([name]) => name), 'no-change'].sort());
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
    expect(markdown).toMatch(/\| `GET \/things\/\{uuid\}` \| response field `thing.note` removed \| response 200 application\/json › thing.note \| `response-field-removed` \|/);
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
      expect(report.base).toBe('HEAD~1:spec/openapi.yaml');
      await expect(runDiff({ base: 'no-such-ref', cwd: repo, now: NOW })).rejects.toThrow(/neither a file nor a git commit/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('npm run spec:diff', () => {
  const cli = (...args: string[]) => spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'spec-diff.ts'), ...args],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it('should print JSON and exit 1 when a breaking change alters a /v1 operation', () => {
    const run = cli(join(FIXTURES, 'response-field-removed', 'base.yaml'), join(FIXTURES, 'response-field-removed', 'head.yaml'), '--json', '--no-cross-check');
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.failing).toEqual([expect.objectContaining({ rule: 'response-field-removed', classification: 'breaking' })]);
  });

  it('should exit 0 for non-breaking changes and 2 for a side it cannot read', () => {
    expect(cli(join(FIXTURES, 'path-added', 'base.yaml'), join(FIXTURES, 'path-added', 'head.yaml'), '--no-cross-check').status).toBe(0);
    const missing = cli('no/such/file.yaml', join(FIXTURES, 'path-added', 'head.yaml'), '--no-cross-check');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/neither a file nor a git commit/);
  });
});

describe('redocly diff cross-check', () => {
  it('should add nothing the contract rules already cover and keep a new response enum value informational', async () => {
    const report = await diffFixture('response-enum-value-added', true);
    expect(report.crossCheck.ran).toBe(true);
    expect(report.changes.map((c) => [c.rule, c.classification])).toEqual([['response-enum-value-added', 'informational']]);
  });

  it('should add a verdict the contract rules missed, rated by its impact', () => {
    const added = uncoveredVerdicts({
      changes: [{ path: '#/paths/~1things/post/requestBody', kind: 'modified', impact: 'major',
        verdicts: [{ ruleId: 'something-new', impact: 'major', message: 'Something changed.' }] }],
    }, []);
    expect(added).toEqual([expect.objectContaining({ rule: 'redocly/something-new', classification: 'breaking', operation: 'POST /things' })]);
  });
});

/** Move the response `thing` schema of a fixture into a split file referenced by `$ref`. */
function splitFixture(text: string): [string, string] {
  const YAML = require('yaml') as typeof import('yaml');
  const doc = YAML.parse(text);
  const schema = doc.paths['/things/{uuid}'].get.responses['200'].content['application/json'].schema;
  const thing = schema.properties.thing;
  schema.properties.thing = { $ref: './schemas/thing.yaml' };
  return [YAML.stringify(doc), YAML.stringify(thing)];
}
