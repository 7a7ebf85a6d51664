import { StoreUnavailableError, type StoragePort } from '../store/port';

/** One call of the port, as the wrapper saw it. */
export type PortCall = { method: keyof StoragePort; args: unknown[] };

/**
 * A storage port that fails the calls a test picks (a store that breaks in the middle of a request: Redis timing
 * out on one command), and passes every other call on. `failWhen` is consulted on each call once armed; the first
 * call it picks fails with StoreUnavailableError (or `error`), then the wrapper disarms.
 */
export function createFailingPort(port: StoragePort) {
  let armed: { pick: (call: PortCall) => boolean; error: () => Error; after: boolean } | undefined;
  let failures = 0;
  const calls: PortCall[] = [];
  const wrap =
    <M extends 'read' | 'commit' | 'hit' | 'claim' | 'deleteByPrefix' | 'countByPrefix'>(method: M) =>
    (...args: unknown[]) => {
      const call = { method, args };
      calls.push(call);
      if (armed?.pick(call)) {
        const { error, after } = armed;
        armed = undefined;
        failures += 1;
        if (!after) return Promise.reject(error());
        // Applied, then its answer lost (a connection dropped after the store ran the command).
        const applied = (port[method] as (...a: unknown[]) => Promise<unknown>)(...args);
        return applied.then(() => Promise.reject(error()));
      }
      return (port[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  const wrapped = {
    kind: port.kind,
    read: wrap('read'),
    commit: wrap('commit'),
    hit: wrap('hit'),
    claim: wrap('claim'),
    deleteByPrefix: wrap('deleteByPrefix'),
    countByPrefix: wrap('countByPrefix'),
    close: () => port.close(),
  } as StoragePort;
  return {
    port: wrapped,
    calls,
    /**
     * Fails the next call `pick` chooses: before it reaches the store, or with `when: 'after'` once the store
     * applied it (the caller cannot tell which).
     */
    failNext(
      pick: (call: PortCall) => boolean,
      error: () => Error = () => new StoreUnavailableError('injected'),
      when: 'before' | 'after' = 'before',
    ) {
      armed = { pick, error, after: when === 'after' };
    },
    disarm() {
      armed = undefined;
    },
    /** How many calls failed so far. */
    failures: () => failures,
  };
}

/** The commit that stores an idempotent answer (the last write of a request with an Idempotency-Key). */
export const storesIdempotentAnswer = (call: PortCall) =>
  call.method === 'commit' &&
  (call.args[0] as { op: string; key: string }[]).some((write) => write.op === 'set' && write.key.startsWith('idem:'));
