import { StoreUnavailableError, type StoragePort } from '../store/port';

/** One call of the port, as the wrapper saw it. */
export type PortCall = { method: keyof StoragePort; args: unknown[] };

/** The port's calls a test may intercept (every method but `kind` and `close`). */
type CallMethod = 'read' | 'commit' | 'hit' | 'claim' | 'deleteByPrefix' | 'countByPrefix';

/**
 * A port whose every call goes through `around`, given the call and a way to pass it on to `port`: the one place
 * the test wrappers (failing, gated) list the port's methods.
 */
export function interceptPort(
  port: StoragePort,
  around: (call: PortCall, pass: () => Promise<unknown>) => Promise<unknown>,
): StoragePort {
  const wrap =
    (method: CallMethod) =>
    (...args: unknown[]) =>
      around({ method, args }, () => (port[method] as (...a: unknown[]) => Promise<unknown>)(...args));
  return {
    kind: port.kind,
    read: wrap('read'),
    commit: wrap('commit'),
    hit: wrap('hit'),
    claim: wrap('claim'),
    deleteByPrefix: wrap('deleteByPrefix'),
    countByPrefix: wrap('countByPrefix'),
    close: () => port.close(),
  } as StoragePort;
}

/**
 * A storage port that fails the calls a test picks (a store that breaks in the middle of a request: Redis timing
 * out on one command), and passes every other call on. `failWhen` is consulted on each call once armed; the first
 * call it picks fails with StoreUnavailableError (or `error`), then the wrapper disarms.
 */
export function createFailingPort(port: StoragePort) {
  let armed: { pick: (call: PortCall) => boolean; error: () => Error; after: boolean } | undefined;
  let failures = 0;
  const calls: PortCall[] = [];
  const wrapped = interceptPort(port, (call, pass) => {
    calls.push(call);
    if (armed?.pick(call)) {
      const { error, after } = armed;
      armed = undefined;
      failures += 1;
      if (!after) return Promise.reject(error());
      // Applied, then its answer lost (a connection dropped after the store ran the command).
      return pass().then(() => Promise.reject(error()));
    }
    return pass();
  });
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
