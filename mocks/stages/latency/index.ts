import type { Stage } from '../../context';
import { MAX_LATENCY_MS } from '../../limits';
import { parsePrefer } from '../../prefer';

/**
 * Delays the answer by `Prefer: latency=<ms>`, else the workspace's latency (control plane; `MOCK_LATENCY_MS` by default), so loading states and the
 * idempotency 409 race (a retry while the first request still runs) can be exercised.
 */
export function simulateLatency(deps: { latencyMs?: number; sleep: (ms: number) => Promise<void> }): Stage {
  return (ctx, next) => {
    const asked = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer).latencyMs : undefined;
    // The workspace's own latency (control plane) over the defaults'.
    const ms = Math.min(asked ?? ctx.steering?.latencyMs ?? deps.latencyMs ?? 0, MAX_LATENCY_MS);
    return ms > 0 ? deps.sleep(ms).then(next) : next();
  };
}
