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

  it('should allow a rise once the earlier window has reset', () => {
    expect(findRise([reading(1, 2, 10, 1, 1000), { ...reading(3, 4, 50), exchange: { sentTick: 3, receivedTick: 4, sentAt: 2500, receivedAt: 2501 } as Exchange }])).toBeUndefined();
  });
});
