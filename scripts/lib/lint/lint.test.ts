import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_RULES } from './rules';
import { formatProblems, lintSpec } from './run-lint';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'lint');
const SPEC = join(__dirname, '..', '..', '..', 'spec', 'openapi.yaml');

// [rule id (= fixture file name), operation the fixture breaks it on, text the message must carry]
const CASES: Array<[string, string, RegExp]> = [
  ['ratelimit-headers-on-every-response', 'GET /things/{uuid}', /response 404 lacks RateLimit, .*X-RateLimit-Reset: add them under headers/],
  ['error-responses-use-shared-schema', 'GET /things/{uuid}', /response 500 .* add schema: \{ \$ref: '#\/components\/schemas\/Error' \}/],
  ['idempotency-key-on-writes', 'POST /things', /add parameters: - \$ref: '#\/components\/parameters\/IdempotencyKey'/],
  ['security-on-every-operation', 'POST /things', /requires no security: add security:/],
  ['deprecated-operations-declare-deprecation-and-sunset', 'GET /things/{uuid}', /lacks Deprecation and Sunset: add Deprecation: .* and Sunset: /],
  ['uuid-path-parameters-use-contract-rule', 'GET /things/{uuid}', /path parameter uuid .*add schema: \{ \$ref: '#\/components\/schemas\/Uuid' \}/],
];

describe('contract lint rules', () => {
  it.each(['valid', 'valid-deprecated'])('should pass the %s fixture', (name) => {
    expect(lintSpec(join(FIXTURES, `${name}.yaml`)).problems).toEqual([]);
  });

  it.each(CASES)('should fire %s on its fixture with a hint saying what to add', (rule, operation, message) => {
    const { problems } = lintSpec(join(FIXTURES, `${rule}.yaml`));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.rule === rule)).toBe(true);
    expect(problems).toContainEqual(expect.objectContaining({ operation, message: expect.stringMatching(message) }));
    expect(problems.every((p) => /\badd\b/.test(p.message) && p.line !== undefined && p.pointer.startsWith('#/'))).toBe(true);
  });

  it('should require Sunset at least 180 days after Deprecation', () => {
    const { problems } = lintSpec(join(FIXTURES, 'deprecated-operations-declare-deprecation-and-sunset.yaml'));
    expect(problems).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/less than 180 days after x-deprecation 2026-12-01/) }));
  });

  it('should have one fixture per rule', () => {
    expect(LINT_RULES.map((r) => r.id).sort()).toEqual(CASES.map(([rule]) => rule).sort());
  });

  it('should print the operation, the line and the rule of each problem', () => {
    const text = formatProblems(lintSpec(join(FIXTURES, 'idempotency-key-on-writes.yaml')), 'fixture.yaml');
    expect(text).toMatch(/^fixture\.yaml\n {2}POST \/things\n {4}line \d+ +error {2}takes no Idempotency-Key header/);
    expect(text).toContain('[idempotency-key-on-writes]');
    expect(text).toContain('✖ 1 contract problem');
  });

  (existsSync(SPEC) ? it : it.skip)('should pass on the contract spec', () => {
    expect(lintSpec(SPEC).problems).toEqual([]);
  });
});
