/**
 * The table of hand-written broken variants says where each one changes the server: the module it names reads
 * its switch (by its name, or by its family's prefix for `sql-table-unscoped <table>` and the like).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BROKEN_VARIANTS, type BrokenVariant } from './variants';

const sourceOf = (concern: BrokenVariant['in']) => readFileSync(join(__dirname, `${concern}.ts`), 'utf8');

describe('the broken variants of the independent server', () => {
  it.each(Object.entries(BROKEN_VARIANTS).map(([id, variant]) => [id, variant.in] as const))(
    'should name the module that reads %s (%s)',
    (id, concern) => {
      const source = sourceOf(concern);
      const prefix = id.split(' ')[0];
      const read = [`'${id}'`, `'${prefix} '`, `\`${prefix} \${`].some((form) => source.includes(form));
      expect({ id, concern, read }).toEqual({ id, concern, read: true });
    },
  );

  it('should say what each variant does and which rule it breaks', () => {
    for (const [id, variant] of Object.entries(BROKEN_VARIANTS) as Array<[string, BrokenVariant]>) {
      expect({ id, does: variant.does.length > 10 }).toEqual({ id, does: true });
      expect(variant.breaks).toMatch(/^[a-z0-9-]+( \(.+\))?$/);
      expect(variant.checks.length).toBeGreaterThan(0);
    }
  });
});
