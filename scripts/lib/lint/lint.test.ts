import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINT_RULES } from './rules';
import { idempotencyKey } from './rules/idempotency-key';
import { securityRequired } from './rules/security-required';
import { uuidPathParameters } from './rules/uuid-path-parameters';
import { formatProblems, lintSpec } from './run-lint';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'lint');
const SPEC = join(__dirname, '..', '..', '..', 'spec', 'openapi.yaml');
const WAIVERS = join(__dirname, '..', '..', 'waivers.yaml');

// [rule id (= fixture file name), operation the fixture breaks it on, text the message must carry]
const CASES: Array<[string, string, RegExp]> = [
  [
    'ratelimit-headers-on-every-response',
    'GET /things/{uuid}',
    /response 404 lacks RateLimit, .*X-RateLimit-Reset: add them under headers/,
  ],
  [
    'error-responses-use-shared-schema',
    'GET /things/{uuid}',
    /response 500 .* add schema: \{ \$ref: '#\/components\/schemas\/Error' \}/,
  ],
  ['idempotency-key-on-writes', 'POST /things', /add parameters: - \$ref: '#\/components\/parameters\/IdempotencyKey'/],
  ['security-on-every-operation', 'POST /things', /requires no security: add security:/],
  [
    'deprecated-operations-declare-deprecation-and-sunset',
    'GET /things/{uuid}',
    /lacks Deprecation and Sunset: add Deprecation: .* and Sunset: /,
  ],
  [
    'uuid-path-parameters-use-contract-rule',
    'GET /things/{uuid}',
    /path parameter uuid .*add schema: \{ \$ref: '#\/components\/schemas\/Uuid' \}/,
  ],
  [
    'operations-declare-the-named-error-responses',
    'GET /things/{uuid}',
    /declares no 401, 429 responses: add '401': \{ \$ref: '#\/components\/responses\/Error' \}, '429'/,
  ],
  ['operations-have-a-description', 'POST /things', /has no description: add description: /],
  [
    'examples-validate-against-their-schemas',
    'GET /things/{uuid}',
    /example \{"name":"far too long a name"\} does not validate .*value\.name: must NOT have more than 5 characters.*: add a value that does/,
  ],
  [
    'no-unused-components',
    '(document)',
    /schema Legacy is used nowhere: add a \$ref to it .* or add a lint waiver \(rule no-unused-components, target '#\/components\/schemas\/Legacy'\)/,
  ],
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
    expect(problems.every((p) => /\badd\b/.test(p.message) && p.line !== undefined && p.pointer.startsWith('#/'))).toBe(
      true,
    );
  });

  it('should require Sunset at least 180 days after Deprecation', () => {
    const { problems } = lintSpec(join(FIXTURES, 'deprecated-operations-declare-deprecation-and-sunset.yaml'));
    expect(problems).toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(/less than 180 days after x-deprecation 2026-12-01/) }),
    );
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

  (existsSync(SPEC) ? it : it.skip)('should pass on the contract spec with its waivers', () => {
    expect(lintSpec(SPEC, { waiversFile: WAIVERS }).problems).toEqual([]);
  });

  it('should accept a waived problem and fail on an expired waiver', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lint-waivers-'));
    try {
      const file = join(dir, 'waivers.yaml');
      const entry =
        "  - { rule: no-unused-components, target: '#/components/schemas/Leg*', reason: kept for v2 clients, approvedBy: api-review, expires: '2026-12-31' }";
      writeFileSync(file, `lint:\n${entry}\n`);
      const now = new Date('2026-11-21T00:00:00Z');
      const kept = lintSpec(join(FIXTURES, 'no-unused-components.yaml'), { waiversFile: file, now });
      expect(kept.problems).toEqual([]);
      expect(kept.waived).toEqual([
        expect.objectContaining({
          rule: 'no-unused-components',
          waived: expect.objectContaining({ approvedBy: 'api-review' }),
        }),
      ]);
      expect(formatProblems(kept, 'fixture.yaml')).toContain('contract lint passed (10 rules) (1 accepted by waivers)');
      const later = lintSpec(join(FIXTURES, 'no-unused-components.yaml'), {
        waiversFile: file,
        now: new Date('2027-01-02T00:00:00Z'),
      });
      expect(later.problems.map((p) => p.rule).sort()).toEqual(['expired-waiver', 'no-unused-components']);
      expect(later.problems.find((p) => p.rule === 'expired-waiver')!.message).toMatch(
        /expired 2026-12-31: renew it or fix what it accepts/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('contract lint over the operation model', () => {
  const key = { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 255 } };
  const document = {
    openapi: '3.1.0',
    info: { title: 'fixture', version: '1' },
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/things/{uuid}': {
        parameters: [
          { ...key, required: true },
          { name: 'uuid', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        // Overrides: an optional key and a uuid with the contract's rule, so neither rule fires on them.
        put: {
          parameters: [{ ...key, name: 'idempotency-key' }, 'not a parameter'],
          responses: {},
        },
        // Keeps the path item's required key, and states no security.
        patch: { security: [], responses: {} },
        // A security value that is not a list states none.
        post: { parameters: 'none', security: 'bearerAuth', responses: {} },
      },
    },
  };

  // [operation, rule, what the rule says about it (none: passes)]
  const CASES: [string, string, RegExp | undefined][] = [
    ['PUT /things/{uuid}', 'idempotency-key-on-writes', undefined],
    ['PUT /things/{uuid}', 'security-on-every-operation', undefined],
    ['PATCH /things/{uuid}', 'idempotency-key-on-writes', /must be optional/],
    ['PATCH /things/{uuid}', 'security-on-every-operation', /requires no security/],
    ['POST /things/{uuid}', 'idempotency-key-on-writes', /must be optional/],
    ['POST /things/{uuid}', 'security-on-every-operation', /requires no security/],
    ['PUT /things/{uuid}', 'uuid-path-parameters-use-contract-rule', /path parameter uuid has no pattern/],
  ];

  let problems: ReturnType<typeof lintSpec>['problems'] = [];
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'lint-model-'));
    try {
      const file = join(dir, 'openapi.yaml');
      writeFileSync(file, JSON.stringify(document));
      problems = lintSpec(file, [idempotencyKey, securityRequired, uuidPathParameters]).problems;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(CASES)('should judge %s by %s on the merged parameters and security in force', (operation, rule, says) => {
    const found = problems.filter((p) => p.operation === operation && p.rule === rule);
    if (says) expect(found).toContainEqual(expect.objectContaining({ message: expect.stringMatching(says) }));
    else expect(found).toEqual([]);
  });
});
