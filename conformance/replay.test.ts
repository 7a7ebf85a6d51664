/**
 * Every printed replay command reproduces the failure it came from: for each property of the suite, a broken
 * server makes it fail, and the printed command line, run against a fresh copy of that server, fails the same way.
 */
import { parseConfig, type RunConfig } from './config';
import { BROKEN } from './fixtures';
import { runAgainstFixture } from './fixtures/run-fixture';
import type { Failure } from './lib/failure';

jest.setTimeout(120_000);

/** Splits a printed command line as a POSIX shell would (quotes, backslashes and the "$VARIABLE" forms the suite prints). */
export function shellWords(line: string, env: Record<string, string> = {}): string[] {
  const words: string[] = [];
  let current: string | undefined;
  const expand = (text: string) => text.replace(/\$([A-Z_]+)/g, (_, name: string) => env[name] ?? '');
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|\\(.)|([^\s'"\\]+)|(\s+)/g)) {
    if (match[5] !== undefined) {
      if (current !== undefined) words.push(current);
      current = undefined;
      continue;
    }
    current = (current ?? '') + (match[1] ?? match[3] ?? expand(match[2] ?? match[4]));
  }
  if (current !== undefined) words.push(current);
  return words;
}

function replayArgs(failure: Failure): string[] {
  expect(failure.replay).toMatch(/^npm run conformance -- /);
  const words = shellWords(failure.replay!.replace(/^npm run conformance -- /, ''), {
    CONFORMANCE_TOKEN: 'mock-token-a',
    CONFORMANCE_TOKEN_B: 'mock-token-b',
  });
  return words.map((word, i) => (words[i - 1] === '--target' ? 'http://127.0.0.1:1/v1' : word));
}

const PROPERTIES: Array<[property: string, fixture: string]> = [
  ['replay', 'replay-creates-new-record'],
  ['reuse', 'reused-key-accepted'],
  ['concurrent', 'concurrent-requests-create-records'],
  ['key-length', 'overlong-key-accepted'],
  ['listSuppressions', 'valid-limit-refused'],
];

describe('printed replay commands', () => {
  it.each(PROPERTIES)('should reproduce the failure of property %s (against %s)', async (property, name) => {
    const fixture = BROKEN.find((f) => f.name === name)!;
    const first = await runAgainstFixture(fixture, { runs: 10, seed: 4242 });
    const failure = first.results.flatMap((r) => r.failures).find((f) => f.path?.startsWith(`${property}:`));
    expect(failure).toBeDefined();
    const replayed = parseConfig(replayArgs(failure!), {});
    const { target: _target, ...settings } = replayed as RunConfig;
    const again = await runAgainstFixture(fixture, settings);
    const titles = again.results.flatMap((r) => r.failures).map((f) => f.title);
    expect(titles).toContain(failure!.title);
    expect(again.exitCode).toBe(1);
  });

  it('should reproduce a defect of several requests as a sequence of curl lines, with the token as given', async () => {
    const fixture = BROKEN.find((f) => f.name === 'replay-creates-new-record')!;
    const summary = await runAgainstFixture(fixture, { runs: 5, seed: 7 });
    const failure = summary.results.flatMap((r) => r.failures).find((f) => f.path?.startsWith('replay:'))!;
    const lines = failure.reproduce!.split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^curl -i -X POST .*-H 'Authorization: Bearer mock-token-a'/);
    // The replay reuses the key of a request before it: the sequence holds both.
    const keys = lines.map((line) => /Idempotency-Key: ([^']+)/.exec(line)?.[1]);
    expect(keys.slice(0, -1)).toContain(keys[keys.length - 1]);
    expect(failure.replay).toContain('--token mock-token-a');
  });
});

describe('shellWords', () => {
  it('should split quoted words and expand the token variables', () => {
    expect(
      shellWords(`--token "$CONFORMANCE_TOKEN" --path 'a:1@B:C' --x 'it'\\''s'`, { CONFORMANCE_TOKEN: 't' }),
    ).toEqual(['--token', 't', '--path', 'a:1@B:C', '--x', "it's"]);
  });
});
