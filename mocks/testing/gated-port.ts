import type { StoragePort } from '../store/port';
import { interceptPort, type PortCall } from './failing-port';

/** A call held at the gate: `reached` once it arrives (not yet passed on), `release` lets it through. */
export type HeldCall = { reached: Promise<PortCall>; release: () => void };

/**
 * A storage port that holds the calls a test picks until the test lets them through, so a test can act between a
 * request's steps on real HTTP (release its idempotency claim, reset its workspace) and then let the request go
 * on: the held call reaches the store only after what the test did.
 */
export function createGatedPort(port: StoragePort) {
  const gates: { pick: (call: PortCall) => boolean; arrive: (call: PortCall) => void; open: Promise<void> }[] = [];
  const gated = interceptPort(port, async (call, pass) => {
    const at = gates.findIndex((gate) => gate.pick(call));
    if (at >= 0) {
      const [gate] = gates.splice(at, 1);
      gate.arrive(call);
      await gate.open;
    }
    return pass();
  });
  return {
    port: gated,
    /** Holds the next call `pick` chooses until `release` is called. */
    holdNext(pick: (call: PortCall) => boolean): HeldCall {
      let arrive!: (call: PortCall) => void;
      let release!: () => void;
      const reached = new Promise<PortCall>((resolve) => (arrive = resolve));
      const open = new Promise<void>((resolve) => (release = resolve));
      gates.push({ pick, arrive, open });
      return { reached, release };
    },
  };
}

/** The commit that keeps the idempotent answer of `key` (a set of `idem:<workspace>:<key>`). */
export const keepsAnswerOf = (key: string) => (call: PortCall) =>
  call.method === 'commit' &&
  (call.args[0] as { op: string; key: string }[]).some(
    (write) => write.op === 'set' && write.key.startsWith('idem:') && write.key.endsWith(`:${key}`),
  );
