import { countBelowPage } from './responses-match-the-contract';

describe('countBelowPage', () => {
  it.each([
    [
      'should accept a total above the page',
      { body: { count: 30, suppressions: [1, 2] }, path: '/s?limit=2', want: false },
    ],
    [
      'should accept an empty page past the total',
      { body: { count: 3, suppressions: [] }, path: '/s?offset=10', want: false },
    ],
    ['should refuse a total below the page', { body: { count: 1, suppressions: [1, 2] }, path: '/s', want: true }],
    [
      'should refuse a total below the skipped items plus the page',
      { body: { count: 5, suppressions: [1, 2] }, path: '/s?offset=4', want: true },
    ],
    ['should ignore bodies without a count', { body: { items: [1, 2] }, path: '/s', want: false }],
  ])('%s', (_name, { body, path, want }) => {
    expect(countBelowPage(body, path) !== undefined).toBe(want);
  });
});
