import { decreasedAcross } from './every-response-carries-rate-limit-headers';

describe('decreasedAcross', () => {
  test.each<[string, { given: Array<number | undefined>; want: boolean | undefined }]>([
    ['should see a fixed window count down', { given: [10, 9, 8, 7, 6, 5], want: true }],
    ['should allow one window reset inside the burst', { given: [2, 1, 0, 60, 59, 58], want: true }],
    [
      'should allow a sliding window to give back a request on the way',
      { given: [50, 49, 49, 48, 49, 47], want: true },
    ],
    ['should fail a Remaining that never moves', { given: [100, 100, 100, 100, 100, 100], want: false }],
    ['should fail a Remaining that only rises', { given: [10, 11, 12, 13, 14, 15], want: false }],
    ['should not judge too few readings', { given: [10, undefined, undefined, undefined, 10, 10], want: undefined }],
  ])('%s', (_name, { given, want }) => {
    expect(decreasedAcross(given)).toBe(want);
  });
});
