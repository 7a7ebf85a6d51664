import { childPointer, formatPointer, getAtPointer, parsePointer } from './pointer';

describe('JSON pointers (RFC 6901)', () => {
  const document = { paths: { '/a/{b}': { get: { 'x~y': [10, 20] } } }, '': { '%': 1 } };

  it.each([
    ['#', []],
    ['', []],
    ['#/paths/~1a~1{b}/get', ['paths', '/a/{b}', 'get']],
    ['#/paths/~1a~1%7Bb%7D', ['paths', '/a/{b}']],
    ['/paths/~1a~1{b}/get/x~0y/1', ['paths', '/a/{b}', 'get', 'x~y', '1']],
    ['#/', ['']],
  ])('should parse %j into %j', (pointer, tokens) => {
    expect(parsePointer(pointer)).toEqual(tokens);
  });

  it.each([
    ['#/paths/~1a~1{b}/get/x~0y/1', 20],
    ['#/paths/~1a~1{b}/get/x~0y/2', undefined],
    ['#/paths/~1a~1{b}/get/x~0y/01', undefined],
    ['#/nothing/here', undefined],
    ['#//%25', 1],
  ])('should find the node at %j', (pointer, want) => {
    expect(getAtPointer(document, pointer)).toEqual(want);
  });

  it('should format and extend pointers with escaped tokens', () => {
    expect(formatPointer(['paths', '/a/{b}', 'x~y'])).toBe('#/paths/~1a~1{b}/x~0y');
    expect(childPointer('#/paths', '/a', 'get')).toBe('#/paths/~1a/get');
  });

  it('should refuse a pointer that does not start with a slash', () => {
    expect(() => parsePointer('#paths')).toThrow(/not a JSON pointer/);
  });
});
