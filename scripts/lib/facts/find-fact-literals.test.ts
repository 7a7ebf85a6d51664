import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SPEC_PATH, IDEMPOTENCY_KEY_LIFETIME_MS, loadContract } from '../../../spec/lib';
import { exemptionOf, FACT_EXEMPTIONS, factSources, findFactLiterals, type Facts } from './find-fact-literals';

/**
 * Contract facts appear as literals only in spec/openapi.yaml and in spec/lib, which reads them: the rate-limit
 * header names, the Idempotency-Key bound, the run and terminal status sets, the idempotency key lifetime. The
 * mock, the scripts, the conformance suite and the generators read them from spec/lib (a bound that belongs to
 * another field, such as a `name` maxLength of the same value, is read from the contract too). Tests and their
 * data, generated code and comments quoting the contract's text are left alone; the few sources that name the
 * facts on purpose (the independent server, the fixture servers, the typed client) are listed, each with its
 * reason, in `FACT_EXEMPTIONS`.
 */
const ROOT = join(__dirname, '..', '..', '..');
const constants = loadContract().constants;
const facts: Facts = {
  ...constants,
  idempotencyKeyMaxLength: constants.idempotencyKeyMaxLength ?? Number.NaN,
  idempotencyKeyLifetimeMs: IDEMPOTENCY_KEY_LIFETIME_MS,
  quotable: readFileSync(DEFAULT_SPEC_PATH, 'utf8'),
};

describe('contract facts named once', () => {
  it.each(['mocks', 'scripts', 'conformance', 'generators'])('should find none re-typed in %s/', (dir) => {
    const found = findFactLiterals(ROOT, factSources(ROOT, join(ROOT, dir)), facts);
    expect(found.map((hit) => `${hit.file}:${hit.line} ${hit.fact}: ${hit.text}`)).toEqual([]);
  });

  it('should list exemptions that exist and still name a fact, each with a reason', () => {
    for (const [path, reason] of Object.entries(FACT_EXEMPTIONS)) {
      const files = path.endsWith('/')
        ? readdirSync(join(ROOT, path), { recursive: true, encoding: 'utf8' }).map((file) => join(ROOT, path, file))
        : [join(ROOT, path)];
      expect({ path, named: findFactLiterals(ROOT, files, facts).length > 0 }).toEqual({ path, named: true });
      expect(reason.length).toBeGreaterThan(40);
    }
    expect(exemptionOf('conformance/fixtures/broken/overlong-key-accepted.ts')).toBeDefined();
    expect(exemptionOf('conformance/fixtures/run-fixture.ts')).toBeUndefined();
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
    ['the bound in a comment', '// keys of up to 255 characters', 'the Idempotency-Key bound'],
    ['a quotation the contract lacks', '// "keys of at most 255 characters" are accepted', 'the Idempotency-Key bound'],
    ['a quotation in code', 'const text = "a string of at most 255 characters";', 'the Idempotency-Key bound'],
    ['a comment quoting the contract', ' * "a string of at most 255 characters": the stated bound', undefined],
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
