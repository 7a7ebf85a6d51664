import { parsePrefer, wantsDeclaredResponse } from './prefer';

describe('parsePrefer', () => {
  it.each([
    ['code=404', { code: 404 }],
    ['example=empty', { example: 'empty' }],
    ['example="with space"', { example: 'with space' }],
    ['dynamic=true', { dynamic: true }],
    ['code=200, dynamic=true', { code: 200, dynamic: true }],
    ['code=429; latency=150', { code: 429, latencyMs: 150 }],
    ['respond-async, wait=10', {}],
    ['outcome=error, duration=5000', { outcome: 'error', durationMs: 5000 }],
    ['fault=malformed-json', { fault: 'malformed-json' }],
    ['code=abc', { problems: ['Prefer: code=abc is not valid; expected a status code such as 404.'] }],
    ['latency=abc', { problems: ['Prefer: latency=abc is not valid; expected milliseconds, e.g. latency=1500.'] }],
    [
      'outcome=failed',
      { problems: ['Prefer: outcome=failed is not valid; expected one of success, error, cancelled, skipped.'] },
    ],
    [
      'fault=',
      {
        problems: [
          'Prefer: fault=(empty) is not valid; expected one of reset, empty, truncated, malformed-json, hang.',
        ],
      },
    ],
  ])('should read %j', (header, want) => {
    expect(parsePrefer(header)).toEqual(want);
  });

  it('should hand over to Prism only for code, example or dynamic', () => {
    expect(wantsDeclaredResponse({ latencyMs: 10 })).toBe(false);
    expect(wantsDeclaredResponse({ code: 500 })).toBe(true);
  });
});
