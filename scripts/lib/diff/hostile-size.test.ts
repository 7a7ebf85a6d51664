// A pull request's spec sized to hold the diff: long enums and a report of 200 000 rows end in seconds, without a
// call stack overflow (issue 34).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMarkdown } from './render-markdown';
import { runDiff } from './run-diff';
import { materialiseGitSpec } from './spec-source';
import { SPEC_LIMITS } from '../../../spec/lib/refusal';

const ROOT = join(__dirname, '..', '..', '..');

function spec(values: string[]): object {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/a': {
        get: {
          operationId: 'getA',
          responses: {
            200: { description: 'ok', content: { 'application/json': { schema: { type: 'string', enum: values } } } },
          },
        },
      },
    },
  };
}

describe('a diff sized by a pull request', () => {
  const folder = mkdtempSync(join(tmpdir(), 'diff-size-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const write = (name: string, document: object) => {
    const file = join(folder, name);
    writeFileSync(file, JSON.stringify(document));
    return file;
  };

  it('should compare two 20 000-value enums within 5 s', async () => {
    const base = write('base.json', spec(Array.from({ length: 20_000 }, (_, i) => `v${i}`)));
    const head = write('head.json', spec(Array.from({ length: 20_000 }, (_, i) => `w${i}`)));
    const started = performance.now();
    const report = await runDiff({ base, head, cwd: ROOT, crossCheck: false });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(report.changes.map((c) => c.rule).sort()).toEqual([
      'response-enum-value-added',
      'response-enum-value-removed',
    ]);
  });

  it('should render a markdown report of 200 000 rows', async () => {
    const base = write('small-base.json', spec(['a']));
    const head = write('small-head.json', spec(['b']));
    const report = await runDiff({ base, head, cwd: ROOT, crossCheck: false });
    const [change] = report.changes;
    report.changes = Array.from({ length: 200_000 }, (_, i) => ({ ...change, detail: `${change.detail} ${i}` }));
    expect(renderMarkdown(report).split('\n').length).toBeGreaterThan(200_000);
  });
});

describe('git-ref mode on a pull request folder', () => {
  const repo = mkdtempSync(join(tmpdir(), 'diff-git-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });

  it('should read a split file whose name holds a line feed, and refuse more spec files than maxFiles at once', () => {
    git('init', '-q');
    git('config', 'user.email', 'ci@example.com');
    git('config', 'user.name', 'ci');
    mkdirSync(join(repo, 'spec'));
    writeFileSync(join(repo, 'spec', 'a\n::error::b.yaml'), 'type: string\n');
    writeFileSync(
      join(repo, 'spec', 'openapi.yaml'),
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    S: {$ref: 'a%0A::error::b.yaml'}\n",
    );
    git('add', '-A');
    git('commit', '-qm', 'split');
    const { file, cleanup } = materialiseGitSpec(repo, 'HEAD', 'spec/openapi.yaml');
    expect(readFileSync(join(file, '..', 'a\n::error::b.yaml'), 'utf8')).toBe('type: string\n');
    cleanup();
    mkdirSync(join(repo, 'spec', 'many'));
    for (let i = 0; i <= SPEC_LIMITS.maxFiles; i++) writeFileSync(join(repo, 'spec', 'many', `f${i}.yaml`), 'a: 1\n');
    git('add', '-A');
    git('commit', '-qm', 'many');
    const started = performance.now();
    expect(() => materialiseGitSpec(repo, 'HEAD', 'spec/openapi.yaml')).toThrow(/more than 1000 \(maxFiles\)/);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
