import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { besideASecret, COMMAND_CASES, expectRefusedRun, runScript } from './hostile-spec-cli';

describe('npm run spec:lint on a hostile spec', () => {
  const place = besideASecret();

  it.each(COMMAND_CASES)('should exit 2 within 5 s on %s, with one line and nothing read out', async (_name, spec) => {
    expectRefusedRun(await runScript('scripts/spec-lint.ts', ['--no-waivers', spec(place())]), 'spec:lint', place());
  });

  it('should show a hostile file name escaped, still one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lint-name-'));
    const file = join(dir, 'a\u001b[31m\nb.yaml');
    writeFileSync(file, 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\nx: { $ref: "/etc/passwd" }\n');
    const ran = await runScript('scripts/spec-lint.ts', ['--no-waivers', file]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('a\\x1B[31m\\x0Ab.yaml#/x/$ref: ');
    expect(ran.stderr.trimEnd().split('\n')).toHaveLength(1);
    rmSync(dir, { recursive: true, force: true });
  });
});
