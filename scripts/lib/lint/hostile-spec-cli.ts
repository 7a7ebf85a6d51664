// The commands that read a spec given on their command line (spec:lint, docs), run as CI runs them on a pull
// request's spec: each hostile spec must end within 5 s with exit 2 and one escaped line naming the file and the
// pointer, no stack, no secret, no request. Shared by the command tests of lint and docs.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ATTACKS, makeSpecBesideASecret, type BesideASecret } from '../../../spec/lib/fixtures/hostile/beside-a-secret';

const ROOT = join(__dirname, '..', '..', '..');
const HOSTILE = join(ROOT, 'spec', 'lib', 'fixtures', 'hostile');

export type Ran = { code: number | null; stdout: string; stderr: string; ms: number };

/** A script of this repository in a fresh process (node with tsx, as `npm run` does), timed. */
export function runScript(script: string, args: string[]): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--require', 'tsx/cjs', join(ROOT, script), ...args],
      { cwd: ROOT, timeout: 30_000, env: { ...process.env, FORCE_COLOR: '0' } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          stdout,
          stderr,
          ms: performance.now() - started,
        }),
    );
  });
}

/** The hostile specs each command is run on: a few of the corpus, and the ways out of a folder beside a secret. */
export const COMMAND_CASES: Array<[name: string, spec: (place: BesideASecret) => string]> = [
  ['a $ref up out of the folder to a secret', (place) => place.specWith(ATTACKS[0][1](place))],
  ['a $ref to a live local server', (place) => place.specWith(ATTACKS[5][1](place))],
  ['the billion laughs', () => join(HOSTILE, 'aliases--billion-laughs.yaml')],
  ['20 000 nested flow sequences', () => join(HOSTILE, 'depth--flow-nesting.yaml')],
  ['a cycle of bare $refs', () => join(HOSTILE, 'cycle--pair.yaml')],
  ['a fan-out of $refs to 2^40 nodes', () => join(HOSTILE, 'expansion--ref-fan-out.yaml')],
];

/** Sets up the folder beside a secret for a describe block; `place()` gives it inside tests. */
export function besideASecret(): () => BesideASecret {
  let place: BesideASecret;
  beforeAll(async () => (place = await makeSpecBesideASecret()));
  afterAll(() => place.close());
  return () => place;
}

/** What every run on a hostile spec must show. */
export function expectRefusedRun(ran: Ran, prefix: string, place: BesideASecret): void {
  expect({ code: ran.code, stdout: ran.stdout }).toEqual({ code: 2, stdout: '' });
  const lines = ran.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${prefix}: /\\S+#.*: `));
  expect(ran.stderr).not.toMatch(/\bat .*\(.*:\d+:\d+\)|\x1b/);
  expect(ran.stderr).not.toContain(place.secret);
  expect(place.requests).toEqual([]);
  expect(ran.ms).toBeLessThan(5000);
}
