// spec:lint's report as a CI log shows it, on a pull request's spec whose paths and names carry workflow commands,
// escapes and line breaks (issue 34): each problem stays on its own lines, nothing a terminal or a runner acts on.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from './lib/lint/hostile-spec-cli';

const NAMES = [
  'p\n::stop-commands::tok',
  'o::add-mask::secret',
  'c\u001b[31mred',
  'd\u009b2J',
  'e\u202eevil',
  's\r\n✖ 0 contract problems',
  'q##vso[task.setvariable variable=x]1',
  'n\u2028## heading',
];

describe('spec:lint on hostile path names', () => {
  const folder = mkdtempSync(join(tmpdir(), 'lint-strings-'));
  const spec = join(folder, 'openapi.json');
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: Object.fromEntries(
        NAMES.map((name, i) => [
          `/p/${name}`,
          { get: { operationId: `op${i}`, responses: { 200: { description: 'ok' } } } },
        ]),
      ),
    }),
  );
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('should write every problem escaped: no control, escape or direction character, no line a runner reads', async () => {
    const ran = await runScript('scripts/spec-lint.ts', [spec, '--no-waivers']);
    expect([ran.code, ran.stderr]).toEqual([1, '']);
    expect(ran.stdout).toContain('\\x3A:stop-commands::tok');
    expect(ran.stdout).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202E]/);
    expect(ran.stdout.split('\n').filter((line) => /^\s*::|##(vso)?\[/.test(line))).toEqual([]);
    expect(ran.stdout.split('\n').filter((line) => line.startsWith('✖'))).toHaveLength(1);
  });

  it('should write JSON that gives the names back, with no raw line separator', async () => {
    const ran = await runScript('scripts/spec-lint.ts', [spec, '--no-waivers', '--json']);
    expect(ran.stdout).not.toMatch(/[\u2028\u2029\u0085]/);
    const operations = (JSON.parse(ran.stdout) as Array<{ problems: Array<{ operation: string }> }>)[0].problems.map(
      (p) => p.operation,
    );
    expect(operations).toContain('GET /p/p\n::stop-commands::tok');
  });
});
