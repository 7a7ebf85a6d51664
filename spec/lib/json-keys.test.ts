import { firstDuplicateKey } from './json-keys';

describe('firstDuplicateKey', () => {
  it.each([
    ['{"a":1,"a":2}', { path: [], key: 'a', line: 1 }],
    ['{"a":1,"\\u0061":2}', { path: [], key: 'a', line: 1 }],
    ['{\n  "paths": {\n    "/x": {},\n    "/x": {}\n  }\n}', { path: ['paths'], key: '/x', line: 4 }],
    ['[{"k":1},{"k":1,"k":2}]', { path: ['1'], key: 'k', line: 1 }],
    ['{"a":{"b":[{"c":1,"d":{"e":1,"e":2}}]}}', { path: ['a', 'b', '0', 'd'], key: 'e', line: 1 }],
    ['{"a\\"b":1,"a\\"b":2}', { path: [], key: 'a"b', line: 1 }],
  ])('should find the key written twice in %s', (text, found) => {
    expect(firstDuplicateKey(text)).toEqual(found);
  });

  it.each([
    '{"a":1,"b":2}',
    '{"a":{"a":{"a":1}}}',
    '[{"a":1},{"a":1}]',
    '{"a":"a","b":["a","a"]}',
    '{"a":"{\\"a\\":1,\\"a\\":2}"}',
    '{"a,":1,"a":2}',
    '{"":1,"x":{"":2}}',
  ])('should find none in %s (values, other objects and strings holding JSON are not keys)', (text) => {
    expect(firstDuplicateKey(text)).toBeUndefined();
  });
});
