import { ApiError } from '../errors';
import fc from 'fast-check';
import { readAnyTarget, readTarget } from './path';

describe('readTarget', () => {
  it.each([
    ['/v1/mailboxManagement/suppressions?limit=2', '/v1/mailboxManagement/suppressions', 'limit=2'],
    ['/v1/a.b/c..d?x=..', '/v1/a.b/c..d', 'x=..'],
    ['/v1/x?a=%2e%2e%2f', '/v1/x', 'a=..%2F'],
    ['http://mock.example/v1/x?y=1', '/v1/x', 'y=1'],
    ['/__mock/settings#frag', '/__mock/settings', ''],
  ])('should read %s as the path it names', (raw, path, query) => {
    const target = readTarget(raw);
    expect(target).not.toBeInstanceOf(ApiError);
    expect(target).toMatchObject({ path });
    expect(String((target as { query: URLSearchParams }).query)).toBe(query);
  });

  it.each([
    '/v1/.\t./__mock/settings',
    '/v1/..\f',
    '/v1/x\r\n',
    '/v1/%2e%2e/__mock/settings',
    '/v1/%2E%2e/__mock/settings',
    '/v1/.%2e/__mock/settings',
    '/v1/../__mock/settings',
    '/v1/./mailboxManagement/suppressions',
    '/v1/..%2f__mock/settings',
    '/v1%2f..%2f__mock',
    '/v1%5c..%5c__mock',
    '/v1\\..\\__mock',
    '/v1/%2e',
    'http://mock.example/v1/%2e%2e/__mock',
    '*',
  ])('should refuse %s with 400 invalid_path, before any mount', (raw) => {
    expect(readTarget(raw)).toMatchObject({ status: 400, reason: 'invalid_path' });
  });
});

describe('readTarget without a URL parser', () => {
  const parsed = (raw: string) => {
    const url = new URL(raw, 'http://mock.invalid');
    return { path: url.pathname, query: [...url.searchParams] };
  };
  it.each([
    '/v1/mailboxManagement/suppressions',
    '/v1/mailboxManagement/suppressions?',
    '/v1/mailboxManagement/suppressions?limit=5&offset=0&reasons=bounced&reasons=manual',
    '/v1/x?a=%2e%2e%2f&b=%E2%82%AC&c=a+b&d&=e&f==',
    "/v1/a-b_c~d!$&'()*+,;=:@/e?x=[1]{2}|^`",
    '/v1/x?q=a%20b%zz%',
    '/v1/x y?a=b c',
    '/v1/é?a=é',
    '/v1/%41?b=1',
    '/v1/x?a="<>"',
  ])('should read %s as a URL parser does', (raw) => {
    const target = readTarget(raw) as { path: string; query: URLSearchParams };
    expect({ path: target.path, query: [...target.query] }).toEqual(parsed(raw));
  });
});

describe('readTarget in one pass', () => {
  /** Each target as the reader gives it: the refusal's reason, or the path and the query's pairs. */
  const reading = (target: ReturnType<typeof readTarget>) =>
    target instanceof ApiError
      ? { refused: target.reason, message: target.message }
      : { path: target.path, query: [...target.query] };
  // Targets made of the characters each rule turns on: separators, dots, percent-encodings of dot and slashes,
  // the query and fragment marks, characters a URL parser changes (space, non-ASCII, quotes) and plain ones.
  const pieces = [
    '/',
    '/',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2f',
    '%5c',
    '%',
    '\\',
    '?',
    '#',
    '&',
    '=',
    ' ',
    'é',
    '"',
    'a',
    'v1',
    '-_~',
    ':@',
    'http://h',
  ];
  const targets = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(''));

  it('should read every target as the patterns read it', () => {
    fc.assert(
      fc.property(targets, (raw) => {
        expect(reading(readTarget(raw))).toEqual(reading(readAnyTarget(raw)));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    '/',
    '/v1/..',
    '/v1/.',
    '/v1/.../x',
    '/v1/a..',
    '/v1/..?x=1',
    '/v1/x?a=#',
    '/v1/x?a b',
    '/v1/x?é',
    '/.',
    '/..',
  ])('should read %s as the patterns read it', (raw) =>
    expect(reading(readTarget(raw))).toEqual(reading(readAnyTarget(raw))),
  );
});
