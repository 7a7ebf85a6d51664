import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** One in-process run of this checkout as `npm start` runs it (under tsx), counting functions named per request. */
function namedPerRequest(workload: 'get' | 'post'): { namedPerRequest: number; non2xx: number } {
  const script = join(ROOT, 'scripts', 'lib', 'bench', 'in-process.ts');
  const out = execFileSync(
    process.execPath,
    ['--require', 'tsx/cjs', script, ROOT, workload, '300', '--named-closures'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as { namedPerRequest: number; non2xx: number };
}

/**
 * The hot path makes no named function per request: under tsx each one is an `Object.defineProperty` (esbuild's
 * `keepNames`), about 0.2 µs apiece; the keyed create made 11 of them before its closures became classes and
 * functions made once per server.
 */
describe('functions named per request under tsx (npm start)', () => {
  it.each(['post', 'get'] as const)('should be none for the bench workload %s', (workload) => {
    expect(namedPerRequest(workload)).toMatchObject({ namedPerRequest: 0, non2xx: 0 });
  });
});

/** `--stages` (`npm run bench -- --stages`): every stage of the API's pipeline, in its order, with its own time. */
describe('the per-stage profile', () => {
  it('should time every stage of the pipeline a keyed create passes, in order', () => {
    const script = join(ROOT, 'scripts', 'lib', 'bench', 'in-process.ts');
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', script, ROOT, 'post', '300', '--stages'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const { stages, non2xx } = JSON.parse(out.trim().split('\n').at(-1) as string) as {
      stages: { name: string; us: number }[];
      non2xx: number;
    };
    expect(non2xx).toBe(0);
    const names = stages.map((stage) => stage.name);
    expect(names[0]).toBe('hooks');
    expect(names.at(-1)).toBe('handle');
    for (const name of ['authenticate', 'rate-limit', 'route', 'read-body', 'idempotency', 'validate-request'])
      expect(names).toContain(name);
    expect(names.indexOf('idempotency')).toBeLessThan(names.indexOf('validate-request'));
    for (const stage of stages) expect(stage.us).toBeGreaterThan(0);
  });
});
