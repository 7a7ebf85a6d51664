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
    ['code=abc', {}],
  ])('should read %j', (header, want) => {
    expect(parsePrefer(header)).toEqual(want);
  });

  it('should hand over to Prism only for code, example or dynamic', () => {
    expect(wantsDeclaredResponse({ latencyMs: 10 })).toBe(false);
    expect(wantsDeclaredResponse({ code: 500 })).toBe(true);
  });
});
