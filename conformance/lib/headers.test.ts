import { inspectRateLimitHeaders, inspectVersioningHeaders, parseDeprecation, parseImfFixdate } from './headers';

const good = {
  ratelimit: '"workspace";r=99;t=60',
  'ratelimit-limit': '100',
  'ratelimit-remaining': '99',
  'ratelimit-reset': '42',
  'ratelimit-policy': '100;w=60',
  'x-ratelimit-limit': '100',
  'x-ratelimit-remaining': '99',
  'x-ratelimit-reset': '42',
};

describe('inspectRateLimitHeaders', () => {
  it('should accept the contract form', () => {
    expect(inspectRateLimitHeaders(good).findings).toEqual([]);
  });

  it.each([
    ['a missing header', { ...good, 'x-ratelimit-reset': undefined }, 'Rate-limit headers missing'],
    ['an unquoted policy name', { ...good, ratelimit: 'workspace;r=99;t=60' }, 'RateLimit policy name is not quoted'],
    [
      'a legacy header that disagrees',
      { ...good, 'x-ratelimit-remaining': '98' },
      'x-ratelimit-remaining disagrees with ratelimit-remaining',
    ],
    [
      'remaining above the limit',
      { ...good, 'ratelimit-remaining': '101', 'x-ratelimit-remaining': '101', ratelimit: '"workspace";r=101;t=60' },
      'RateLimit-Remaining exceeds RateLimit-Limit',
    ],
    [
      'reset beyond the window',
      { ...good, 'ratelimit-reset': '61', 'x-ratelimit-reset': '61' },
      'RateLimit-Reset exceeds the window',
    ],
    ['a non-integer limit', { ...good, 'ratelimit-limit': '1e2' }, 'ratelimit-limit is not an integer'],
    [
      't neither window nor reset',
      { ...good, ratelimit: '"workspace";r=99;t=7' },
      'RateLimit t is neither the window nor the seconds to reset',
    ],
  ])('should fail on %s', (_name, headers, title) => {
    const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const findings = inspectRateLimitHeaders(clean).findings;
    expect(findings.filter((f) => f.severity === 'failure').map((f) => f.title)).toContain(title);
  });

  it('should only warn when t is the seconds to reset', () => {
    const findings = inspectRateLimitHeaders({ ...good, ratelimit: '"workspace";r=99;t=42' }).findings;
    expect(findings.map((f) => f.severity)).toEqual(['warning']);
  });
});

describe('parseDeprecation', () => {
  it('should read an RFC 9745 structured date without a warning', () => {
    expect(parseDeprecation('@1798761600')).toEqual({ date: new Date('2027-01-01T00:00:00Z'), findings: [] });
  });

  it('should read an HTTP date with a warning', () => {
    const parsed = parseDeprecation('Fri, 01 Jan 2027 00:00:00 GMT');
    expect(parsed.date?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parsed.findings.map((f) => f.severity)).toEqual(['warning']);
  });

  it('should fail on anything else', () => {
    expect(parseDeprecation('next year').findings.map((f) => f.severity)).toEqual(['failure']);
  });
});

describe('inspectVersioningHeaders', () => {
  it.each([
    [
      'Deprecation on a live operation',
      { deprecation: '@1798761600' },
      false,
      ['Deprecation on an operation the contract does not deprecate'],
    ],
    ['Sunset without Deprecation', { sunset: 'Sat, 01 Jan 2028 00:00:00 GMT' }, true, ['Sunset without Deprecation']],
    [
      'Sunset 90 days after Deprecation',
      { deprecation: '@1798761600', sunset: 'Fri, 01 Apr 2027 00:00:00 GMT' },
      true,
      ['Sunset is too soon after Deprecation'],
    ],
    [
      'Sunset not an IMF-fixdate',
      { deprecation: '@1798761600', sunset: '2028-01-01' },
      true,
      ['Sunset is not an IMF-fixdate'],
    ],
    [
      'a valid pair on a deprecated operation',
      { deprecation: '@1798761600', sunset: 'Tue, 20 Jul 2027 00:00:00 GMT' },
      true,
      [],
    ],
  ])('should judge %s', (_name, headers, deprecated, titles) => {
    const failures = inspectVersioningHeaders(headers as Record<string, string>, deprecated).filter(
      (f) => f.severity === 'failure',
    );
    expect(failures.map((f) => f.title)).toEqual(titles);
  });

  it('should read IMF-fixdates only', () => {
    expect(parseImfFixdate('Sun, 06 Nov 1994 08:49:37 GMT')?.toISOString()).toBe('1994-11-06T08:49:37.000Z');
    expect(parseImfFixdate('Sunday, 06-Nov-94 08:49:37 GMT')).toBeUndefined();
  });
});
