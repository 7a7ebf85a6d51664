import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { besideASecret, COMMAND_CASES, expectRefusedRun, runScript } from '../lint/hostile-spec-cli';

describe('npm run docs on a hostile spec', () => {
  const place = besideASecret();
  const folder = mkdtempSync(join(tmpdir(), 'docs-refused-'));
  const output = join(folder, 'index.html');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it.each(COMMAND_CASES)('should exit 2 within 5 s on %s, with one line and nothing read out', async (_name, spec) => {
    expectRefusedRun(await runScript('scripts/docs.ts', [spec(place()), '--output', output]), 'docs', place());
  });
});
