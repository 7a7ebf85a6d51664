import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDEMPOTENCY_KEY_LIFETIME_MS, loadContract } from '../../../spec/lib';
import { factSources, findFactLiterals, type Facts } from './find-fact-literals';

/**
 * Contract facts appear as literals only in spec/openapi.yaml and in spec/lib, which reads them: the rate-limit
 * header names, the Idempotency-Key bound, the run and terminal status sets, the idempotency key lifetime. The
 * mock and the scripts read them from spec/lib. (The conformance suite and the generators are not scanned yet:
 * they still name some of these facts themselves.)
 */
const ROOT = join(__dirname, '..', '..', '..');
const constants = loadContract().constants;
const facts: Facts = {
  ...constants,
  idempotencyKeyMaxLength: constants.idempotencyKeyMaxLength ?? Number.NaN,
  idempotencyKeyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
};

describe('contract facts named once', () => {
  it.each(['mocks', 'scripts'])('should find none re-typed in %s/', (dir) => {
    const found = findFactLiterals(ROOT, factSources(join(ROOT, dir)), facts);
    expect(found.map((hit) => `${hit.file}:${hit.line} ${hit.fact}: ${hit.text}`)).toEqual([]);
  });

  it.each<[string, string, string | undefined]>([
    ['a header name in its spelling', "headers['X-RateLimit-Remaining'] = '1';", 'a rate-limit header name'],
    ['a header name lower-cased', 'const limit = res.headers["ratelimit-limit"];', 'a rate-limit header name'],
    ['the combined header as a property', 'headers.ratelimit = value;', 'a rate-limit header name'],
    ['the key bound', 'if (key.length > 255) refuse();', 'the Idempotency-Key bound'],
    ['the terminal set', "const done = new Set(['success', 'error', 'cancelled', 'skipped']);", 'a run status set'],
    ['a set across lines', "const live = [\n  'pending',\n  'running',\n];", 'a run status set'],
    ['a union of statuses', "type Ended = 'success' | 'error' | 'skipped';", 'a run status set'],
    ['the lifetime', 'idempotencyTtlMs: 24 * 60 * 60 * 1000,', 'the idempotency key lifetime'],
    ['the lifetime in hours', '// idempotency keys expire after 24 hours', 'the idempotency key lifetime'],
    ['a setting named like a header', 'const limit = config.rateLimit;', undefined],
    ['one status compared', "if (run.status === 'cancelled') return run;", undefined],
    ['another 24 h', 'runTtlMs: 24 * 60 * 60 * 1000,', undefined],
    ['a number containing the bound', 'const size = 2550;', undefined],
  ])('should tell %s', (_name, source, fact) => {
    const dir = mkdtempSync(join(tmpdir(), 'fact-literals-'));
    const file = join(dir, 'sample.ts');
    writeFileSync(file, source);
    expect(findFactLiterals(dir, [file], facts).map((hit) => hit.fact)[0]).toBe(fact);
  });
});
