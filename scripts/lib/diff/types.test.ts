// Whether a change moves the generated client types is declared where its rule is defined (`NO_TYPES`) and read by
// impact.ts with the keyword the change is at. This test holds that answer to openapi-typescript itself: it
// generates the types of both sides of the first fixture case of each rule (client-types.ts) and compares them.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentsOf, type FixtureCase, loadCases } from './fixture-cases';
import { changesClientTypes } from './impact';
import { runDiff } from './run-diff';

const NOW = new Date('2026-11-21T00:00:00Z');
const ROOT = join(__dirname, '..', '..', '..');

type Verdict = { id: string; rule: string; declared: boolean; generated: boolean };

/** Impact's answer (each change located as the report locates it) and openapi-typescript's, for each case. */
async function judge(cases: FixtureCase[], root: string): Promise<Verdict[]> {
  const dir = mkdtempSync(join(root, 'batch-'));
  const declared = new Map<string, boolean>();
  const pairs: Array<{ id: string; base: string; head: string }> = [];
  for (const c of cases) {
    const files = { base: join(dir, `${pairs.length}.base.json`), head: join(dir, `${pairs.length}.head.json`) };
    const { base, head } = documentsOf(c);
    writeFileSync(files.base, JSON.stringify(base));
    writeFileSync(files.head, JSON.stringify(head));
    const report = await runDiff({ ...files, cwd: dir, now: NOW, crossCheck: false });
    declared.set(c.id, report.changes.some(changesClientTypes));
    pairs.push({ id: c.id, ...files });
  }
  const list = join(dir, 'pairs.json');
  writeFileSync(list, JSON.stringify(pairs));
  const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(__dirname, 'client-types.ts'), list], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const results = JSON.parse(out) as Array<{ id: string; moved?: boolean; error?: string }>;
  // A fragment openapi-typescript cannot read (a discriminator mapping to no schema) proves nothing either way.
  return cases.flatMap((c) => {
    const generated = results.find((r) => r.id === c.id)?.moved;
    return generated === undefined
      ? []
      : [{ id: c.id, rule: c.want, declared: declared.get(c.id) ?? false, generated }];
  });
}

/**
 * Typed rules whose first case types alike on both sides, and why: the rule moves the types in other cases. Held
 * both ways: a rule that moves nothing and is not here (an `x-` key without NO_TYPES) fails, and so does an entry
 * whose case now moves the types.
 */
const TYPED_ALIKE: Record<string, string> = {
  'discriminator-changed': 'a discriminator added to branches whose kind is already a const in each',
  'input-default-added': "a default of a query parameter's value: the parameter stays optional",
  'input-default-changed': "a default of a query parameter's value: the parameter stays optional",
  'input-default-removed': "a default of a query parameter's value: the parameter stays optional",
  'output-default-changed': 'a default of the body itself, not of a field that would become present',
  'input-type-widened': 'integer and number are both number',
  'output-type-widened': 'integer and number are both number',
  'output-type-narrowed': 'integer and number are both number',
  'response-object-opened': 'generate-types.ts sets additionalProperties: false, so an absent one adds no index',
  'schema-keyword-changed': 'the keyword ($dynamicRef) is one openapi-typescript does not read',
};

describe('generated client types a change moves (impact.ts, NO_TYPES)', () => {
  it('should name the client types of a case exactly when openapi-typescript generates different ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'diff-types-'));
    try {
      const firstOf = new Map<string, FixtureCase>();
      for (const c of loadCases()) if (c.want !== 'none' && !firstOf.has(c.want)) firstOf.set(c.want, c);
      const verdicts = await judge([...firstOf.values()], dir);
      expect(verdicts.length).toBeGreaterThan(100);
      // Impact misses no type that moves: a case impact calls untyped generates the same types on both sides.
      expect(verdicts.filter((v) => !v.declared && v.generated)).toEqual([]);
      // A rule left typed moves the types (else it is declared NO_TYPES where it is defined), or is named above.
      const alike = verdicts.filter((v) => v.declared && !v.generated).map((v) => v.rule);
      expect(alike.sort()).toEqual(Object.keys(TYPED_ALIKE).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
