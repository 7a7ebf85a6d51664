// A pull request's spec sized to hold the diff: long enums and a report of 200 000 rows end in seconds, without a
// call stack overflow (issue 34).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMarkdown } from './render-markdown';
import { runDiff } from './run-diff';

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
