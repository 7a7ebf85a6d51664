import type { Exchange } from '../lib/http-client';
import { findRise } from './every-response-carries-rate-limit-headers';

function reading(sentTick: number, receivedTick: number, remaining: number, reset = 60, receivedAt = 1000) {
  return { exchange: { sentTick, receivedTick, sentAt: receivedAt, receivedAt } as Exchange, remaining, reset };
}

describe('findRise', () => {
  it('should find remaining rising for a request sent after the earlier answer', () => {
    expect(findRise([reading(1, 2, 10), reading(3, 4, 12)])).toBeDefined();
  });

  it('should allow concurrent requests to answer out of order', () => {
    expect(findRise([reading(1, 3, 10), reading(2, 4, 12)])).toBeUndefined();
  });

  it('should allow a rise when the earlier window may have reset while its answer was on the way', () => {
    // Counted at 1000 ms with 2 s to reset (rounded up): the window may end at 2001 ms, before the answer at 2500 ms.
    const before = { ...reading(1, 2, 10, 2), exchange: { sentTick: 1, receivedTick: 2, sentAt: 1000, receivedAt: 2500 } as Exchange };
    expect(findRise([before, { ...reading(3, 4, 50), exchange: { sentTick: 3, receivedTick: 4, sentAt: 2501, receivedAt: 2502 } as Exchange }])).toBeUndefined();
  });
  it('should allow a rise once the earlier window has reset', () => {
    expect(findRise([reading(1, 2, 10, 1, 1000), { ...reading(3, 4, 50), exchange: { sentTick: 3, receivedTick: 4, sentAt: 2500, receivedAt: 2501 } as Exchange }])).toBeUndefined();
  });
});
