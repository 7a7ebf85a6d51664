// A pull request's spec is hostile input: names, values and descriptions written to escape every format of the
// report, a remote $ref aimed at a server that must receive nothing, a $ref to a file outside the spec's folder.
// (issue 34: the diff's door; SECURITY.md)

import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { renderGithub, renderJson, renderJunit, renderText } from './render-ci';
import { renderMarkdown } from './render-markdown';
import { CrossCheckRefused, outsideReference, redoclyCli, runRedoclyDiff } from './redocly-cross-check';
import { type DiffReport, runDiff } from './run-diff';

const ROOT = join(__dirname, '..', '..', '..');
const HOSTILE = join(ROOT, 'scripts', 'fixtures', 'diff', 'hostile');
const NOW = new Date('2026-11-21T00:00:00Z');

/** A local server that counts what it is asked: a diff must never reach it. */
async function listen(): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('openapi: 3.1.0\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, hits, server };
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('hostile spec strings in every report format', () => {
  let report: DiffReport;
  beforeAll(async () => {
    report = await runDiff({
      base: join(HOSTILE, 'base.yaml'),
      head: join(HOSTILE, 'head.yaml'),
      cwd: ROOT,
      now: NOW,
      crossCheck: false,
    });
  });

  it('should have read the hostile names (or the proofs below prove nothing)', () => {
    const details = report.changes.map((c) => `${c.operation} ${c.detail}`).join('\n');
    expect(details).toContain('::error::boom');
    expect(details).toContain('<script>');
    expect(details).toContain('\r\n## ✅ No breaking changes');
    expect(report.exitCode).toBe(1);
  });

  it('should keep markdown to its own headings, HTML and table cells', () => {
    const markdown = renderMarkdown(report);
    const lines = markdown.split('\n');
    expect(markdown).not.toMatch(/[\r\u2028\u2029\u0085\u001b\u202e]/);
    expect(lines.filter((l) => /^\s{0,3}#/.test(l))).toEqual(
      lines.filter((l) => /^### (🔴|🟠|🟢|ℹ️) /.test(l) || l === '## API contract diff'),
    );
    // Outside code spans (where GitHub shows HTML as text), the only HTML is the report's own.
    const prose = markdown.replace(/(`+)(?!`)[^]*?[^`]\1(?!`)/g, '').replace(/<\/?(br|sub)>/g, '');
    expect(prose).not.toMatch(/<[a-z/!]/i);
    // A spec cannot mention anyone.
    expect(markdown).not.toMatch(/(^|[^\\])@org/);
    // Every table row has exactly its five cells: no unescaped pipe came from the spec.
    for (const line of lines.filter((l) => l.startsWith('| ')))
      expect(line.replace(/\\\|/g, '').match(/\|/g)).toHaveLength(6);
    // The verdict is the report's: the first verdict line says the check fails.
    expect(lines.find((l) => /^(✅|⚠️|❌)/.test(l))).toMatch(/^❌ \*\*4 breaking change/);
    expect(lines.filter((l) => /^(✅|⚠️|❌)/.test(l))).toHaveLength(1);
  });

  it('should keep each GitHub annotation one command on one line, with only its own properties', () => {
    const lines = renderGithub(report).trimEnd().split('\n');
    expect(renderGithub(report)).not.toMatch(/[\r\u001b\u202e]/);
    for (const line of lines.slice(0, -1)) {
      expect(line).toMatch(/^::(error|warning|notice) (file=[^,:]*,)?(line=\d+,)?title=[^,:]*::[^\r\n]*$/);
      // The message cannot close or open another command.
      expect(line.slice(line.indexOf('::', 2) + 2)).not.toMatch(/\n|\r/);
    }
    expect(lines.at(-1)).toMatch(/^spec:diff: /);
  });

  it('should write text a terminal shows as text, with no line that begins a workflow command', () => {
    const text = renderText(report);
    expect(text).not.toMatch(/[\r\u001b\u202e\u2028]/);
    for (const line of text.split('\n')) expect(line).not.toMatch(/^\s*(::|##\[|##vso\[)/);
    expect(text).toContain('\\x0D\\x0A## ✅ No breaking changes');
    expect(text.split('\n').filter((l) => /^(OK|NOTE|FAIL):/.test(l))).toEqual([expect.stringMatching(/^FAIL: /)]);
  });

  it('should write JUnit that parses, and JSON that reads back the same', () => {
    // saxes refuses every character XML 1.0 forbids (U+FFFE, U+FFFF, lone surrogates), as strict CI readers do.
    const errors: string[] = [];
    const parser = new SaxesParser();
    parser.on('error', (error) => errors.push(error.message));
    parser.write(renderJunit(report)).close();
    expect(errors).toEqual([]);
    expect(renderJunit(report)).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    const json = renderJson(report);
    expect(json).not.toMatch(/[\u2028\u2029\u0085]/);
    expect((JSON.parse(json) as DiffReport).changes.map((c) => c.detail)).toEqual(report.changes.map((c) => c.detail));
  });
});

describe('nothing outside the spec is read', () => {
  it('should refuse a remote $ref before anything resolves it, the cross-check included', async () => {
    const { url, hits, server } = await listen();
    const dir = mkdtempSync(join(tmpdir(), 'spec-diff-remote-'));
    try {
      const base = join(dir, 'base.yaml');
      const head = join(dir, 'head.yaml');
      writeFileSync(base, 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n');
      writeFileSync(
        head,
        `openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /x:\n    $ref: '${url}/remote.yaml#/x'\n`,
      );
      await expect(runDiff({ base, head, cwd: ROOT, now: NOW, crossCheck: true })).rejects.toThrow(/remote\.yaml/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hits).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await close(server);
    }
  });

  it('should never hand redocly a document that names anything outside itself', async () => {
    const open = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };
    for (const [document, named] of [
      [{ ...open, paths: { '/x': { $ref: 'http://127.0.0.1:9/x' } } }, /\$ref "http/],
      [{ ...open, components: { schemas: { A: { $id: 'http://127.0.0.1:9/', $ref: '#/x' } } } }, /\$id/],
      [{ ...open, components: { schemas: { A: { $ref: '../secret.yaml' } } } }, /\.\.\/secret/],
    ] as const) {
      expect(outsideReference(document)).toMatch(named);
      await expect(runRedoclyDiff(ROOT, open, document)).rejects.toBeInstanceOf(
        redoclyCli(ROOT) ? CrossCheckRefused : Error,
      );
    }
    expect(outsideReference({ ...open, components: { schemas: { A: { $ref: '#/components/schemas/B' } } } })).toBe(
      undefined,
    );
  });

  it('should run the cross-check on our bundle only: links and example URLs in the spec are never fetched', async () => {
    const { url, hits, server } = await listen();
    const dir = mkdtempSync(join(tmpdir(), 'spec-diff-links-'));
    try {
      // Every URL a spec may carry outside `$ref`: documentation, servers, security endpoints, links, examples.
      const spec = (extra: string) =>
        `openapi: 3.1.0\njsonSchemaDialect: '${url}/dialect'\n` +
        `info: {title: t, version: "1", license: {name: x, url: '${url}/license'}, x-logo: {url: '${url}/logo'}}\n` +
        `externalDocs: {url: '${url}/docs'}\nservers: [{url: '${url}/server'}]\n` +
        `components:\n  securitySchemes:\n    oidc: {type: openIdConnect, openIdConnectUrl: '${url}/oidc'}\n` +
        `    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: '${url}/token', scopes: {}}}}\n` +
        `paths:\n  /x:\n    get:\n      responses:\n        '200':\n          description: ok\n` +
        `          links: {other: {operationRef: '${url}/other.yaml#/paths/~1y/get'}}\n` +
        `          content:\n            application/json:\n` +
        `              schema: {$schema: '${url}/schema', type: object, properties: {a: {type: string}${extra}}}\n` +
        `              examples: {one: {externalValue: '${url}/example.json'}}\n`;
      writeFileSync(join(dir, 'base.yaml'), spec(', b: {type: string}'));
      writeFileSync(join(dir, 'head.yaml'), spec(''));
      const report = await runDiff({
        base: join(dir, 'base.yaml'),
        head: join(dir, 'head.yaml'),
        cwd: ROOT,
        now: NOW,
        crossCheck: true,
      });
      expect(report.changes.map((c) => c.rule)).toEqual(['response-field-removed']);
      if (redoclyCli(ROOT)) expect(report.crossCheck.ran).toBe(true);
      expect(hits).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await close(server);
    }
  }, 30_000);

  it('should refuse a $ref to a file outside the spec folder, and print nothing of it', async () => {
    const outside = join(HOSTILE, 'outside', 'spec');
    const diff = runDiff({
      base: join(outside, 'base.yaml'),
      head: join(outside, 'openapi.yaml'),
      cwd: ROOT,
      now: NOW,
      crossCheck: false,
    });
    await expect(diff).rejects.toThrow(/secret\.yaml/);
  });
});

describe('npm run spec:diff on a refused spec', () => {
  it('should exit 2 with one escaped line naming the refused reference', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-diff-refused-'));
    try {
      writeFileSync(join(dir, 'base.yaml'), 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n');
      writeFileSync(
        join(dir, 'head.yaml'),
        'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /x:\n    $ref: "http://127.0.0.1:9/\\e[31m\\n::error::x"\n',
      );
      const run = spawnSync(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
          join(ROOT, 'scripts', 'spec-diff.ts'),
          join(dir, 'base.yaml'),
          join(dir, 'head.yaml'),
          '--no-cross-check',
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(run.status).toBe(2);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^spec:diff: .*127\.0\.0\.1:9/);
      expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
