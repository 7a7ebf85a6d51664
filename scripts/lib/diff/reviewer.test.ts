// spec:diff as a reviewer in another repository meets it: the spec found (or asked for) in git-ref mode, annotations
// on the spec's path in the repository in every mode, the cross-check annotating and never deciding, and silent
// when it is absent unless asked for. (issue 36, items 3 and 5)

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderGithub } from './render-ci';
import { redoclyCli } from './redocly-cross-check';
import { runDiff } from './run-diff';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'scripts', 'fixtures', 'diff');
const NOW = new Date('2026-11-21T00:00:00Z');

describe('a spec written with YAML anchors and aliases', () => {
  const pair = { base: join(FIXTURES, 'yaml-anchors', 'base.yaml'), head: join(FIXTURES, 'yaml-anchors', 'head.yaml') };

  it.each([
    ['without the cross-check', false],
    ['with the cross-check', true],
  ] as const)(
    'should exit 0 on a description edit %s',
    async (_name, crossCheck) => {
      const report = await runDiff({ ...pair, cwd: ROOT, now: NOW, crossCheck });
      expect(report.changes.map((c) => [c.rule, c.operation])).toEqual([
        ['operation-docs-changed', 'GET /things3/{uuid}'],
      ]);
      expect(report.exitCode).toBe(0);
      if (crossCheck && redoclyCli(ROOT)) expect(report.crossCheck.ran).toBe(true);
    },
    30_000,
  );
});

describe('the cross-check annotates and never decides', () => {
  it('should keep a breaking verdict of redocly out of the changes, the counts and the exit code', async () => {
    const report = await runDiff({
      base: join(FIXTURES, 'request-field-added-optional', 'base.yaml'),
      head: join(FIXTURES, 'request-field-added-optional', 'head.yaml'),
      cwd: ROOT,
      now: NOW,
      crossCheck: false,
    });
    expect(report.exitCode).toBe(0);
    expect(report.crossCheck).toEqual({ engine: 'redocly diff', ran: false, findings: [], disagreements: [] });
  });

  it('should say nothing of an absent cross-check unless asked for it', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'spec-diff-no-redocly-'));
    try {
      const base = join(repo, 'base.yaml');
      const head = join(repo, 'head.yaml');
      copyFileSync(join(FIXTURES, 'path-added', 'base.yaml'), base);
      copyFileSync(join(FIXTURES, 'path-added', 'head.yaml'), head);
      const quiet = await runDiff({ base, head, cwd: repo, now: NOW, crossCheck: 'auto', redoclyRoots: [repo] });
      expect(quiet.crossCheck.note).toBeUndefined();
      const asked = await runDiff({ base, head, cwd: repo, now: NOW, crossCheck: true, redoclyRoots: [repo] });
      expect(asked.crossCheck.note).toMatch(/not installed/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

/** A repository elsewhere whose spec lives at api/openapi.yaml, with one commit and a working-tree change. */
function otherRepository(): { repo: string; git: (...args: string[]) => string } {
  const repo = mkdtempSync(join(tmpdir(), 'spec-diff-reviewer-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  git('config', 'user.email', 'ci@example.invalid');
  git('config', 'user.name', 'ci');
  mkdirSync(join(repo, 'api'));
  mkdirSync(join(repo, 'tools'));
  copyFileSync(join(FIXTURES, 'response-field-removed', 'base.yaml'), join(repo, 'api', 'openapi.yaml'));
  git('add', '.');
  git('commit', '-qm', 'base');
  copyFileSync(join(FIXTURES, 'response-field-removed', 'head.yaml'), join(repo, 'api', 'openapi.yaml'));
  return { repo, git };
}

describe('a reviewer in another repository', () => {
  it('should find the spec in git-ref mode and annotate its path in the repository, from any folder', async () => {
    const { repo } = otherRepository();
    try {
      for (const cwd of [repo, join(repo, 'tools')]) {
        const report = await runDiff({ base: 'HEAD', cwd, now: NOW, crossCheck: false });
        expect(report.failing.map((c) => c.rule)).toEqual(['response-field-removed']);
        expect(renderGithub(report)).toMatch(/^::error file=api\/openapi\.yaml,line=\d+,/m);
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('should ask for --spec when it cannot tell which spec to compare, naming the candidates', async () => {
    const { repo, git } = otherRepository();
    try {
      mkdirSync(join(repo, 'legacy'));
      copyFileSync(join(repo, 'api', 'openapi.yaml'), join(repo, 'legacy', 'openapi.yaml'));
      git('add', 'legacy');
      await expect(runDiff({ base: 'HEAD', cwd: repo, now: NOW, crossCheck: false })).rejects.toThrow(
        /--spec <path.*api\/openapi\.yaml.*legacy\/openapi\.yaml|api\/openapi\.yaml, legacy\/openapi\.yaml.*--spec/,
      );
      const named = await runDiff({
        base: 'HEAD',
        cwd: repo,
        now: NOW,
        crossCheck: false,
        specPath: 'api/openapi.yaml',
      });
      expect(named.failing).toHaveLength(1);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('should annotate the repository path in file mode: inside the work tree, or named by --spec for copies', async () => {
    const { repo, git } = otherRepository();
    const copies = mkdtempSync(join(tmpdir(), 'spec-diff-copies-'));
    try {
      writeFileSync(join(copies, 'old.yaml'), git('show', 'HEAD:api/openapi.yaml'));
      copyFileSync(join(repo, 'api', 'openapi.yaml'), join(copies, 'new.yaml'));
      const inTree = await runDiff({
        base: join(copies, 'old.yaml'),
        head: join(repo, 'api', 'openapi.yaml'),
        cwd: join(repo, 'tools'),
        now: NOW,
        crossCheck: false,
      });
      expect(renderGithub(inTree)).toMatch(/^::error file=api\/openapi\.yaml,line=\d+,/m);
      const copied = await runDiff({
        base: join(copies, 'old.yaml'),
        head: join(copies, 'new.yaml'),
        cwd: repo,
        now: NOW,
        crossCheck: false,
        specPath: 'api/openapi.yaml',
      });
      expect(renderGithub(copied)).toMatch(/^::error file=api\/openapi\.yaml,line=\d+,/m);
      const line = Number(/line=(\d+)/.exec(renderGithub(copied))![1]);
      expect(readFileSync(join(repo, 'api', 'openapi.yaml'), 'utf8').split('\n')[line - 1]).toMatch(/properties|note/);
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(copies, { recursive: true, force: true });
    }
  });
});
