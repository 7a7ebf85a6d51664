import fc from 'fast-check';
import { FamilyMap, familyOf } from './family-map';

/** Keys and prefixes from a small alphabet with colons, so families, prefixes and near misses meet often. */
const text = fc.stringMatching(/^[ab:]{0,6}$/);

describe('FamilyMap', () => {
  it('should name a key’s family up to its second colon, its only colon, or none', () => {
    expect(familyOf('idem:ws-1:key:with:colons')).toBe('idem:ws-1:');
    expect(familyOf('download:abc')).toBe('download:');
    expect(familyOf('plain')).toBe('');
    expect(familyOf('::')).toBe('::');
  });

  it('should find exactly the keys a scan of every key finds, after any sets and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), text), { maxLength: 40 }),
        fc.array(text, { maxLength: 8 }),
        (changes, prefixes) => {
          const map = new FamilyMap<number>();
          changes.forEach(([add, key], i) => (add ? map.set(key, i) : map.delete(key)));
          for (const prefix of [...prefixes, '', ':', 'a:', 'a:b:']) {
            const scanned = [...map.keys()].filter((key) => key.startsWith(prefix)).sort();
            expect(map.keysWithPrefix(prefix).sort()).toEqual(scanned);
          }
          map.clear();
          expect(map.keysWithPrefix('')).toEqual([]);
        },
      ),
    );
  });
});
