import { prefixedName, selectOfLength } from './requests';

describe('prefixedName', () => {
  it.each([
    ['a', 'c'],
    ['abcdefghijklmnop', 'conformance-mnop'],
    ['😀😀😀😀😀😀😀😀😀😀😀😀😀', 'conformance-😀'],
  ])('should keep the length in code points of %s', (name, want) => {
    expect(prefixedName(name)).toBe(want);
    expect(Array.from(prefixedName(name)).length).toBe(Array.from(name).length);
  });
});

describe('selectOfLength', () => {
  it('should pad a read-only statement to the length asked', () => {
    expect(selectOfLength(10000)).toHaveLength(10000);
    expect(selectOfLength(3)).toBe('SELECT 1');
  });
});
