import type { Defaults, Steering, WorkspaceSettings } from '../../control/settings-types';
import type { StoragePort } from '../port';

export type { Defaults, Steering } from '../../control/settings-types';

/** The defaults for every workspace (the admin's) and each workspace's own settings (its tenant's). */
const DEFAULTS_KEY = 'settings:defaults';
const WORKSPACES_KEY = 'settings:workspaces';

/**
 * The control plane's settings, kept in the storage port so every replica applies the same: the defaults and
 * one entry per workspace that has settings of its own. Requests read them through a cache whose entries live
 * `cacheMs` (counted from when their read began), so a request costs no round trip once its workspace was read
 * within that time (an entry in use is read again in the background before it expires); a change waits that
 * long before it is acknowledged (`settle`), so once the control plane has answered, every replica applies it.
 */
export function createSettingsRepository(options: {
  port: StoragePort;
  /** The defaults at start (configuration); what a full reset returns to. */
  initial: Defaults;
  cacheMs: number;
  /** At most this many workspaces' steering is cached at once. */
  cacheEntries?: number;
}) {
  const { port, initial, cacheMs } = options;
  const cap = options.cacheEntries ?? 1024;
  // One cache per port: apps sharing one port in a process (tests) see each other's changes at once.
  const cache = cacheOf(port);

  const parse = <T>(text: string | null | undefined): T | undefined =>
    text === null || text === undefined ? undefined : (JSON.parse(text) as T);

  const readSteering = async (workspaceUuid: string | undefined): Promise<Steering> => {
    const [defaultsText, ownText] = await port.read([
      { op: 'get', key: DEFAULTS_KEY },
      { op: 'hget', key: WORKSPACES_KEY, field: workspaceUuid ?? '' },
    ] as const);
    return steer(parse<Defaults>(defaultsText) ?? initial, workspaceUuid, parse<WorkspaceSettings>(ownText));
  };

  /** The cached entry of a workspace while it is fresh; past half its life it is read anew in the background. */
  const fresh = (workspaceUuid: string | undefined, key: string, started: number) => {
    const hit = cache.get(key);
    if (!hit || hit.until <= started) return undefined;
    // Past half its life, the entry is read anew in the background while it still serves: a workspace in
    // steady use never waits for its settings, and what it is served was read less than `cacheMs` ago.
    if (!hit.refreshing && hit.until - started < cacheMs / 2) {
      hit.refreshing = true;
      const value = readSteering(workspaceUuid);
      value.then(
        (settled) => cache.get(key) === hit && cache.set(key, { until: started + cacheMs, value, settled }),
        () => undefined, // kept until it expires; the next request after that reads it again
      );
    }
    return hit;
  };

  return {
    /** The settings one request of this workspace (or of no workspace) is steered by: cached, see above. */
    steering(workspaceUuid: string | undefined): Promise<Steering> {
      const key = workspaceUuid ?? '';
      const started = Date.now();
      const hit = fresh(workspaceUuid, key, started);
      if (hit) return hit.value;
      if (cache.size >= cap) cache.clear();
      const value = readSteering(workspaceUuid);
      const entry: CachedSteering = { until: started + cacheMs, value };
      cache.set(key, entry);
      value.then(
        (settled) => void (entry.settled = settled),
        // A failed read (store unreachable) is not kept: the next request asks again.
        () => cache.get(key)?.value === value && cache.delete(key),
      );
      return value;
    },

    /**
     * The settings `steering` would resolve, when the cache holds them read already (the usual case): a request
     * then takes them without waiting a turn. Undefined when they are still to be read.
     */
    steeringKnown(workspaceUuid: string | undefined): Steering | undefined {
      return fresh(workspaceUuid, workspaceUuid ?? '', Date.now())?.settled;
    },

    async defaults(): Promise<Defaults> {
      const [text] = await port.read([{ op: 'get', key: DEFAULTS_KEY }]);
      return parse<Defaults>(text) ?? structuredClone(initial);
    },

    async workspace(workspaceUuid: string): Promise<WorkspaceSettings | undefined> {
      const [text] = await port.read([{ op: 'hget', key: WORKSPACES_KEY, field: workspaceUuid }]);
      return parse<WorkspaceSettings>(text);
    },

    async allWorkspaces(): Promise<Record<string, WorkspaceSettings>> {
      const [all] = await port.read([{ op: 'hgetall', key: WORKSPACES_KEY }]);
      return Object.fromEntries(Object.entries(all).map(([uuid, text]) => [uuid, JSON.parse(text)]));
    },

    /** Replaces the defaults and any workspaces' settings (undefined forgets one) in one commit. */
    async save(change: { defaults?: Defaults; workspaces?: Record<string, WorkspaceSettings | undefined> }) {
      await port.commit([
        ...(change.defaults ? [{ op: 'set' as const, key: DEFAULTS_KEY, value: JSON.stringify(change.defaults) }] : []),
        ...Object.entries(change.workspaces ?? {}).map(([uuid, settings]) =>
          settings === undefined || Object.keys(settings).length === 0
            ? { op: 'hdelete' as const, key: WORKSPACES_KEY, field: uuid }
            : { op: 'hset' as const, key: WORKSPACES_KEY, field: uuid, value: JSON.stringify(settings) },
        ),
      ]);
      cache.clear();
    },

    /** Back to the start: every workspace's settings forgotten, the defaults those of the configuration. */
    async reset(): Promise<void> {
      await port.commit([
        { op: 'delete', key: DEFAULTS_KEY },
        { op: 'delete', key: WORKSPACES_KEY },
      ]);
      cache.clear();
    },

    /**
     * Resolves once every replica applies what was saved: another replica may still serve from its cache for
     * `cacheMs`. A store of this process alone needs no wait.
     */
    settle: (): Promise<void> =>
      port.kind === 'memory' ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, cacheMs)),
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

/** One workspace's settings as cached: the read's promise, and its value once read. */
type CachedSteering = { until: number; value: Promise<Steering>; settled?: Steering; refreshing?: boolean };
type SteeringCache = Map<string, CachedSteering>;
const caches = new WeakMap<StoragePort, SteeringCache>();
function cacheOf(port: StoragePort): SteeringCache {
  let cache = caches.get(port);
  if (!cache) caches.set(port, (cache = new Map()));
  return cache;
}

/** A workspace's settings over the defaults; fault rules: the defaults' that apply to it, then its own. */
export function steer(
  defaults: Defaults,
  workspaceUuid: string | undefined,
  own: WorkspaceSettings | undefined,
): Steering {
  const faults = defaults.faults.filter((rule) => rule.workspace === undefined || rule.workspace === workspaceUuid);
  return {
    rateLimit: own?.rateLimit ?? defaults.rateLimit,
    authRateLimit: defaults.authRateLimit,
    latencyMs: own?.latencyMs ?? defaults.latencyMs,
    runDurationMs: own?.runDurationMs ?? defaults.runDurationMs,
    hangMs: own?.hangMs ?? defaults.hangMs,
    ...(own?.outcome ? { outcome: own.outcome } : {}),
    faults: [...faults, ...(own?.faults ?? [])],
  };
}
