import { makeCtx, okNext } from '../../testing/ctx';
import { MAX_LATENCY_MS } from '../../limits';
import { simulateLatency } from '.';

describe('latency stage', () => {
  it.each([
    ['the global setting', 25, undefined, 25],
    ['Prefer: latency over the global setting', 25, 'latency=200', 200],
    ['Prefer: latency=0 to switch it off', 25, 'latency=0', 0],
    ['a bounded maximum', 0, 'latency=99999999', MAX_LATENCY_MS],
  ])('should wait for %s', async (_name, latencyMs, prefer, want) => {
    const slept: number[] = [];
    const stage = simulateLatency({ latencyMs, sleep: async (ms) => void slept.push(ms) });
    await stage(makeCtx({ headers: prefer ? { prefer } : {} }), okNext());
    expect(slept).toEqual(want > 0 ? [want] : []);
  });
});
