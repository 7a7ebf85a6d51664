import type { Socket } from 'node:net';
import Redis, { ReplyError } from 'ioredis';
import {
  ClaimRefusedError,
  StoreUnavailableError,
  type ClaimIndex,
  type Guard,
  type HitResult,
  type Read,
  type ReadResults,
  type StoragePort,
  type Write,
} from '../port';
import { familyOf } from './family-map';

/**
 * Every key the port writes is kept in its family's sorted set (`familyOf`: `ws:<uuid>:`, `idem:<uuid>:`…),
 * scored by when it expires (`inf` without an expiry), and the family's name in one set of every family. A
 * workspace's reset then deletes what its families hold instead of scanning every key of the Redis (a scan costs
 * what all the tenants keep: 0.5 ms per 1000 keys). Written in the script that writes the key, so a key and its
 * entry are never apart: a key gone is taken out; expired entries go by a sweep (familiesOf). The script finds
 * a key's family from the key itself (`prefixLength`: the bytes of the port's prefix, then the key as the port
 * names it; `familyOf` of family-map.ts), so a write sends nothing more for it. Redis 6.2 or later (`ZADD GT`).
 */
const track = (prefixLength: number) => `
local PREFIX_LENGTH = ${Math.floor(prefixLength)}
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
-- familyOf (family-map.ts) of the key without the port's prefix: up to its second colon, or its only one, or ''.
local function family_of(key)
  local rest = string.sub(key, PREFIX_LENGTH + 1)
  local first = string.find(rest, ':', 1, true)
  if not first then return '' end
  local second = string.find(rest, ':', first + 1, true)
  return string.sub(rest, 1, second or first)
end
-- ttl: the key's time to live when the caller knows it (-1 none, -2 gone), else read. An entry's score only
-- rises (a key whose expiry moved earlier keeps its entry a while longer: a reset then deletes nothing for it).
-- A key new to its family names the family (the sweep drops expired entries: familiesOf).
local function track(key, now, ttl)
  local head, name = string.sub(key, 1, PREFIX_LENGTH), family_of(key)
  local family = head .. '|family|' .. name
  ttl = ttl or redis.call('PTTL', key)
  if ttl == -2 then
    redis.call('ZREM', family, key)
    return
  end
  local score = 'inf'
  if ttl ~= -1 then score = now + ttl end
  if redis.call('ZADD', family, 'GT', score, key) == 1 then redis.call('SADD', head .. '|families', name) end
end
-- A key only added to (HSET, RPUSH) keeps its time to live: kept without one already, there is nothing to do.
local function track_grown(key, now)
  local family = string.sub(key, 1, PREFIX_LENGTH) .. '|family|' .. family_of(key)
  if redis.call('ZSCORE', family, key) ~= 'inf' then track(key, now) end
end
`;

/**
 * Guarded batch: every guard is checked, then every write applied, inside one script (Redis runs a script
 * alone, so no other client's command falls between the check and the writes). ARGV[1] is JSON; keys are
 * referenced by their position in KEYS. Each written key is then kept in its family (`spec.f`: the key, and
 * what the commit left of its time to live: `g` when it only added to the key, milliseconds (-1 none) when it set
 * the key last, '' when it must be read).
 */
const commit = (prefixLength: number) => `${track(prefixLength)}
local spec = cjson.decode(ARGV[1])
for _, g in ipairs(spec.g) do
  local current
  if g[2] ~= '' then current = redis.call('HGET', KEYS[g[1]], g[2]) else current = redis.call('GET', KEYS[g[1]]) end
  if g[3] == 'absent' then
    if current then return 0 end
  elseif g[3] == 'present' then
    if not current then return 0 end
  elseif current ~= g[4] then
    return 0
  end
end
for _, w in ipairs(spec.w) do
  local op, key = w[1], KEYS[w[2]]
  if op == 'set' then
    if w[4] ~= '' then redis.call('SET', key, w[3], 'PX', w[4]) else redis.call('SET', key, w[3]) end
  elseif op == 'delete' then
    redis.call('DEL', key)
    if w[3] ~= '' then redis.call('ZREM', KEYS[w[3]], key) end
  elseif op == 'hset' then
    redis.call('HSET', key, w[3], w[4])
  elseif op == 'hdelete' then
    redis.call('HDEL', key, w[3])
  elseif op == 'append' then
    local values = w[3]
    for i = 1, #values, 1000 do redis.call('RPUSH', key, unpack(values, i, math.min(i + 999, #values))) end
    if w[4] ~= '' then
      local over = redis.call('LLEN', key) - tonumber(w[4])
      if over > 0 and w[6] ~= '' then over = over + tonumber(w[4]) - math.min(tonumber(w[6]), tonumber(w[4])) end
      if over > 0 then
        if w[5] ~= '' then
          local dropped = redis.call('LRANGE', key, 0, over - 1)
          for i = 1, #dropped, 1000 do redis.call('HDEL', KEYS[w[5]], unpack(dropped, i, math.min(i + 999, #dropped))) end
        end
        redis.call('LTRIM', key, over, -1)
      end
    end
  elseif op == 'remove' then
    local gone = {}
    for _, value in ipairs(w[3]) do gone[value] = true end
    if w[4] ~= '' then
      -- Only the head is looked at: the kept items of it are put back in front of the untouched rest.
      local within = tonumber(w[4])
      local items = redis.call('LRANGE', key, 0, within - 1)
      local kept = {}
      for _, value in ipairs(items) do if not gone[value] then kept[#kept + 1] = value end end
      if #kept < #items then
        if redis.call('LLEN', key) <= #items then
          local ttl = redis.call('PTTL', key)
          redis.call('DEL', key)
          for i = 1, #kept, 1000 do redis.call('RPUSH', key, unpack(kept, i, math.min(i + 999, #kept))) end
          if #kept > 0 and ttl > 0 then redis.call('PEXPIRE', key, ttl) end
        else
          redis.call('LTRIM', key, #items, -1)
          for i = #kept, 1, -1 do redis.call('LPUSH', key, kept[i]) end
        end
      end
    else
      local items = redis.call('LRANGE', key, 0, -1)
      local kept = {}
      for _, value in ipairs(items) do if not gone[value] then kept[#kept + 1] = value end end
      if #kept < #items then
        local ttl = redis.call('PTTL', key)
        redis.call('DEL', key)
        for i = 1, #kept, 1000 do redis.call('RPUSH', key, unpack(kept, i, math.min(i + 999, #kept))) end
        if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
      end
    end
  elseif op == 'expire' then
    redis.call('PEXPIRE', key, w[3])
  end
end
if #spec.f > 0 then
  local now = now_ms()
  for _, f in ipairs(spec.f) do
    if f[2] == 'g' then track_grown(KEYS[f[1]], now)
    elseif f[2] == '' then track(KEYS[f[1]], now)
    else track(KEYS[f[1]], now, tonumber(f[2])) end
  end
end
return 1
`;

/**
 * Fixed-window counter: refuses at the limit without counting further; the first hit starts the window's TTL
 * (and keeps the key in its family).
 */
const hit = (prefixLength: number) => `${track(prefixLength)}
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {count, 0} end
count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  track(KEYS[1], now_ms(), tonumber(ARGV[2]))
end
return {count, 1}
`;

/**
 * SET NX PX, answering the value already there; with an index (a sorted set by claim time) it stays capped. With
 * ARGV[4] = 'refuse', a full index (after forgetting members whose key is gone) refuses the claim: 0. The claimed
 * key and the index are kept in their families, and a claim the cap releases leaves its family with its key.
 */
const claim = (prefixLength: number) => `${track(prefixLength)}
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
if #KEYS > 1 and ARGV[4] == 'refuse' then
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
    for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
      if redis.call('EXISTS', member) == 0 then redis.call('ZREM', KEYS[2], member) end
    end
    if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
  end
  local now = now_ms()
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZADD', KEYS[2], now, KEYS[1])
  -- The index lives as long as its longest claim (claims whose key is gone are forgotten when it is full).
  if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
  track(KEYS[1], now, tonumber(ARGV[2]))
  track(KEYS[2], now)
  return false
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local now = now_ms()
if #KEYS > 1 then
  redis.call('ZADD', KEYS[2], now, KEYS[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]))
  local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
  if over > 0 then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, over - 1)
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
    for _, key in ipairs(oldest) do
      redis.call('DEL', key)
      track(key, now, -2)
    end
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  track(KEYS[2], now, tonumber(ARGV[2]))
end
track(KEYS[1], now, tonumber(ARGV[2]))
return false
`;

/**
 * Deletes keys of a family (ARGV) with their entries, in one script: a key written again meanwhile by another
 * client is either deleted with its entry or, written after, kept with one (never live without an entry).
 */
const DROP_MEMBERS = `
local gone = 0
for _, key in ipairs(ARGV) do
  gone = gone + redis.call('DEL', key)
  redis.call('ZREM', KEYS[1], key)
end
return gone
`;

/**
 * A family's entries expired by ARGV[2] go, and its name once its set is empty (a key written meanwhile names
 * it again); KEYS: the family's set, the set of families; ARGV[1]: its name.
 */
const PRUNE_FAMILY = `
if ARGV[2] ~= '' then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2]) end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 0
`;

/** Keeps keys written before families were kept (a Redis of an earlier mock) in their families. */
const adopt = (prefixLength: number) => `${track(prefixLength)}
local now = now_ms()
for _, key in ipairs(KEYS) do track(key, now) end
return #KEYS
`;

type Scripted = Redis & {
  mockCommit(...args: (string | number)[]): Promise<number>;
  mockHit(key: string, limit: number, ttlMs: number): Promise<[number, number]>;
  mockClaim(...args: (string | number)[]): Promise<string | number | null>;
  mockDropMembers(family: string, ...members: string[]): Promise<number>;
  mockPruneFamily(family: string, families: string, name: string, before: string): Promise<number>;
  mockAdopt(...args: (string | number)[]): Promise<number>;
};

export type RedisPortOptions = {
  url: string;
  /** Put before every key, so several mocks can share one Redis (default `mock:`). */
  prefix?: string;
  /** A command not answered within this many ms fails (the request gets 503) rather than hang. */
  commandTimeoutMs?: number;
};

/**
 * Replies of a Redis that cannot take the command now, whatever the command: out of memory under `noeviction`
 * (`OOM`, also when a script's write hits it), writes stopped after a failed save (`MISCONF`), too few replicas,
 * loading, busy, read-only, failing over.
 */
const STORE_BUSY =
  /^(OOM|MISCONF|NOREPLICAS|LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b|\bOOM command not allowed/;

/**
 * Turns a failure of the connection, or a reply saying Redis cannot take commands now, into StoreUnavailableError
 * (→ 503 with Retry-After); any other error Redis replied is a bug (→ 500).
 */
function unavailable(error: unknown): never {
  if (error instanceof ReplyError && !STORE_BUSY.test((error as Error).message)) throw error;
  throw new StoreUnavailableError(error);
}

const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * Holds the connection's writes until the current tick's work is done (`process.nextTick`, which runs after the
 * promise callbacks of this tick), then sends them in one write: the commands of one request's step, and of
 * every request resumed by the same batch of replies, leave together and Redis reads them at once. No command
 * waits for another's answer, nor for the event loop's next turn. Call it before issuing commands.
 */
function writesPerTick(client: Redis): () => void {
  let corked: Socket | undefined;
  const uncork = () => {
    const socket = corked;
    corked = undefined;
    socket?.uncork();
  };
  return () => {
    if (corked) return;
    const socket = (client as unknown as { stream?: Socket }).stream;
    if (!socket || !socket.writable) return;
    corked = socket;
    socket.cork();
    process.nextTick(uncork);
  };
}

/**
 * The Redis adapter (ioredis). Every operation of the port is one command or one script, so one round trip;
 * the commands issued in one tick (by one request, or by concurrent requests) are pipelined in one write. With
 * the connection down, commands fail at once (no offline queue, no silent retry) and the mock answers 503 until
 * Redis is back; the client reconnects by itself.
 */
export async function createRedisPort(options: RedisPortOptions): Promise<StoragePort> {
  const prefix = options.prefix ?? 'mock:';
  // Bytes, as the scripts count (a prefix may have characters beyond ASCII).
  const client = await connect(options, Buffer.byteLength(prefix));
  const at = (key: string) => prefix + key;
  const batch = writesPerTick(client);
  // A Redis too old for the scripts is a start-up error when reachable now, else said when it is reached.
  const tooOld = client.status === 'ready' ? await tooOldFor(client) : undefined;
  if (tooOld) {
    client.disconnect();
    throw new Error(tooOld);
  }
  client.on('ready', () => {
    void tooOldFor(client).then((message) => message && process.stderr.write(`mock: redis: ${message}\n`));
  });
  const families = familiesOf(client, prefix);
  await families.adopt();
  client.on('ready', () => void families.adopt());

  return {
    kind: 'redis',
    async read<const R extends readonly Read[]>(reads: R) {
      batch();
      try {
        // Values only (the hot paths: a seed marker and a value): one MGET, a consistent snapshot in one
        // command. Other reads of a key or two are sent as plain pipelined commands; a transaction, for a
        // consistent snapshot, costs two more commands and is kept for larger reads.
        if (reads.length > 1 && reads.every((read) => read.op === 'get'))
          return (await client.mget(reads.map((read) => at(read.key)))) as ReadResults<R>;
        if (reads.length <= 2)
          return (await Promise.all(reads.map((read) => readOne(client, read, at)))) as ReadResults<R>;
        const multi = client.multi();
        for (const read of reads) {
          if (read.op === 'get') multi.get(at(read.key));
          else if (read.op === 'hget') multi.hget(at(read.key), read.field);
          else if (read.op === 'hgetall') multi.hgetall(at(read.key));
          else if (read.op === 'length') multi.llen(at(read.key));
          else multi.lrange(at(read.key), ...rangeOf(read));
        }
        const results = (await multi.exec()) ?? [];
        return results.map(([error, value]) => {
          if (error) throw error;
          return value;
        }) as ReadResults<R>;
      } catch (error) {
        return unavailable(error);
      }
    },

    async commit(writes: Write[], guards: Guard[] = []) {
      const { keys, spec } = commitSpec(writes, guards, at);
      batch();
      try {
        return (await client.mockCommit(keys.length, ...keys, JSON.stringify(spec))) === 1;
      } catch (error) {
        return unavailable(error);
      }
    },

    async hit(key: string, limit: number, ttlMs: number): Promise<HitResult> {
      batch();
      try {
        const [count, allowed] = await client.mockHit(at(key), limit, Math.max(1, Math.ceil(ttlMs)));
        return { count, allowed: allowed === 1 };
      } catch (error) {
        return unavailable(error);
      }
    },

    async claim(key: string, value: string, ttlMs: number, index?: ClaimIndex) {
      const ttl = Math.max(1, Math.ceil(ttlMs));
      let claimed: string | number | null;
      batch();
      try {
        claimed = index
          ? await client.mockClaim(2, at(key), at(index.key), value, ttl, index.cap, index.whenFull ?? '')
          : await client.mockClaim(1, at(key), value, ttl);
      } catch (error) {
        return unavailable(error);
      }
      // The script answers 0 only when the index is full, so only for a claim with an index.
      if (claimed === 0)
        throw index ? new ClaimRefusedError(index) : new Error('mockClaim refused a claim without an index');
      return claimed as string | null;
    },

    async deleteByPrefix(keyPrefix: string) {
      try {
        return await families.deleteByPrefix(keyPrefix);
      } catch (error) {
        return unavailable(error);
      }
    },

    async countByPrefix(keyPrefix: string) {
      try {
        let count = 0;
        for await (const keys of scanOwn(client, prefix, keyPrefix)) count += keys.length;
        return count;
      } catch (error) {
        return unavailable(error);
      }
    },

    async close() {
      families.stop();
      await client.quit().catch(() => undefined);
      client.disconnect();
    },
  };
}

/** A guarded batch as the commit script reads it: the keys it touches, and guards and writes naming them by position. */
function commitSpec(writes: Write[], guards: Guard[], at: (key: string) => string) {
  const keys: string[] = [];
  const positions = new Map<string, number>();
  const ref = (key: string) => {
    let position = positions.get(key);
    if (position === undefined) positions.set(key, (position = keys.push(at(key))));
    return position;
  };
  // The keys the writes may create, change or remove, each kept in its family once written, with what the writes
  // left of its time to live: 'g' while every write only added to it (HSET, RPUSH: it stays as it was), the
  // milliseconds of a SET written last (-1: none), '' when the script must read it.
  const written = new Map<string, string>();
  const wrote = (key: string, ttl: string) =>
    written.set(key, ttl === 'g' && (written.get(key) ?? 'g') !== 'g' ? '' : ttl);
  const ms = (milliseconds: number) => String(Math.max(1, Math.ceil(milliseconds)));
  const writeOf = (w: Write) => {
    // An append keeps its newest item at least, unless its bound is 0.
    const grown = w.op === 'hset' || (w.op === 'append' && (w.keepLast ?? 1) > 0 && (w.trimTo ?? 1) > 0);
    wrote(w.key, grown ? 'g' : w.op === 'set' ? (w.ttlMs === undefined ? '-1' : ms(w.ttlMs)) : '');
    if (w.op === 'delete' && w.index !== undefined) wrote(w.index, '');
    if (w.op === 'append' && w.dropFrom !== undefined) wrote(w.dropFrom, '');
    switch (w.op) {
      case 'set':
        return ['set', ref(w.key), w.value, w.ttlMs === undefined ? '' : ms(w.ttlMs)];
      case 'delete':
        return ['delete', ref(w.key), w.index === undefined ? '' : ref(w.index)];
      case 'hset':
        return ['hset', ref(w.key), w.field, w.value];
      case 'hdelete':
        return ['hdelete', ref(w.key), w.field];
      case 'append':
        if (w.values.length === 0) return ['noop', ref(w.key)];
        return [
          'append',
          ref(w.key),
          w.values,
          w.keepLast === undefined ? '' : String(w.keepLast),
          w.dropFrom === undefined ? '' : ref(w.dropFrom),
          w.trimTo === undefined ? '' : String(w.trimTo),
        ];
      case 'remove':
        if (w.values.length === 0 || w.within === 0) return ['noop', ref(w.key)];
        return [
          'remove',
          ref(w.key),
          w.values,
          w.within === undefined ? '' : String(Math.max(1, Math.floor(w.within))),
        ];
      case 'expire':
        return ['expire', ref(w.key), ms(w.ttlMs)];
    }
  };
  const g = guards.map((guard) => [
    ref(guard.key),
    guard.field ?? '',
    guard.is,
    guard.is === 'equals' ? guard.value : '',
  ]);
  const w = writes.map(writeOf);
  const f = [...written].map(([key, ttl]) => [ref(key), ttl]);
  return { keys, spec: { g, w, f } };
}

/** Why this Redis cannot serve the scripts (they need 6.2: `ZADD GT`), or undefined (also when it cannot tell). */
async function tooOldFor(client: Redis): Promise<string | undefined> {
  const found = /redis_version:(\d+)\.(\d+)/.exec(await client.info('server').catch(() => ''));
  if (!found) return undefined;
  const [major, minor] = [Number(found[1]), Number(found[2])];
  if (major > 6 || (major === 6 && minor >= 2)) return undefined;
  return `MOCK_REDIS_URL: Redis 6.2 or later is needed (the mock's scripts use ZADD GT); found ${found[1]}.${found[2]}`;
}

/** Keys under this port's prefix that start with `keyPrefix`, a page at a time (not the port's own bookkeeping). */
async function* scanOwn(client: Redis, prefix: string, keyPrefix: string): AsyncIterable<string[]> {
  const internal = prefix + INTERNAL;
  for await (const keys of client.scanStream({
    match: `${globEscape(prefix + keyPrefix)}*`,
    count: 500,
  }) as AsyncIterable<string[]>)
    yield keyPrefix === '' ? keys.filter((key) => !key.startsWith(internal)) : keys;
}

/** The port's own keys (the families, the layout mark) begin with this, which no key of the mock does. */
const INTERNAL = '|';
/** Marks a Redis whose keys are all kept in families (after `adopt`). */
const LAYOUT = 'families-1';
/** The families whose expired entries one sweep drops, and how often a sweep runs. */
const FAMILIES_PER_SWEEP = 200;
const SWEEP_MS = 1_000;

/**
 * The port's families in Redis (see TRACK): where each family's set is, the set of their names, a reset by
 * prefix through them, and the adoption of keys written before families were kept. Until a Redis is known to
 * keep every key in a family (its layout mark, set once its keys are adopted), a reset scans as before.
 */
function familiesOf(client: Scripted, prefix: string) {
  const names = `${prefix}${INTERNAL}families`;
  const layout = `${prefix}${INTERNAL}layout`;
  const keyOf = (name: string) => `${prefix}${INTERNAL}family|${name}`;
  let kept = false;
  let adopting: Promise<void> | undefined;

  const adoptAll = async () => {
    if ((await client.get(layout)) !== LAYOUT) {
      for await (const keys of scanOwn(client, prefix, '')) {
        if (keys.length === 0) continue;
        await client.mockAdopt(keys.length, ...keys);
      }
      await client.set(layout, LAYOUT);
    }
    kept = true;
  };

  /**
   * The families whose keys may begin with `keyPrefix`: a prefix reaching its second colon has one
   * (`familyOf`), read without looking at any other; a shorter one (a reset of every workspace) those of the set
   * of families, read a page at a time.
   */
  async function* familiesUnder(keyPrefix: string): AsyncIterable<string> {
    if (keyPrefix.split(':').length > 2) {
      yield familyOf(keyPrefix);
      return;
    }
    for await (const page of client.sscanStream(names, { count: 500 }) as AsyncIterable<string[]>)
      for (const name of page) if (name.startsWith(keyPrefix) || keyPrefix.startsWith(name)) yield name;
  }

  /** Deletes the keys starting with `keyPrefix` that its families hold (a family is a prefix of its keys). */
  const fromFamilies = async (keyPrefix: string) => {
    const full = prefix + keyPrefix;
    let deleted = 0;
    for await (const name of familiesUnder(keyPrefix)) {
      const whole = name.startsWith(keyPrefix);
      const family = keyOf(name);
      for await (const page of client.zscanStream(family, { count: 500 }) as AsyncIterable<string[]>) {
        const members = page.filter((member, i) => i % 2 === 0 && (whole || member.startsWith(full)));
        if (members.length > 0) deleted += await client.mockDropMembers(family, ...members);
      }
      await client.mockPruneFamily(family, names, name, '');
    }
    return deleted;
  };

  const byScan = async (keyPrefix: string) => {
    let deleted = 0;
    for await (const keys of scanOwn(client, prefix, keyPrefix))
      if (keys.length > 0) deleted += await client.unlink(...keys);
    return deleted;
  };

  // The sweep: every family's expired entries go, FAMILIES_PER_SWEEP families at a time, going on where the
  // last sweep stopped, so a family nobody writes any more does not keep the entries of keys Redis expired.
  let cursor = '0';
  let sweeping = false;
  const sweep = async () => {
    if (!kept || sweeping || client.status !== 'ready') return;
    sweeping = true;
    try {
      const [next, page] = await client.sscan(names, cursor, 'COUNT', FAMILIES_PER_SWEEP);
      const now = String(Date.now());
      await Promise.all(page.map((name) => client.mockPruneFamily(keyOf(name), names, name, now)));
      cursor = next;
    } catch {
      // Redis away: the next sweep tries again.
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();

  return {
    /** Once per Redis (its mark says so after): every key kept in its family. Retried when Redis is back. */
    adopt(): Promise<void> {
      if (kept || client.status !== 'ready') return Promise.resolve();
      adopting ??= adoptAll()
        .catch(() => undefined)
        .finally(() => (adopting = undefined));
      return adopting;
    },
    deleteByPrefix(keyPrefix: string): Promise<number> {
      if (kept) return fromFamilies(keyPrefix);
      void this.adopt(); // an adoption that failed is tried again (this reset scans meanwhile)
      return byScan(keyPrefix);
    },
    stop: () => clearInterval(timer),
  };
}

/** A connected client with the port's scripts; unreachable at start, it connects once Redis is up. */
async function connect(options: RedisPortOptions, prefixLength: number): Promise<Scripted> {
  const client = new Redis(options.url, {
    lazyConnect: true,
    // Not ioredis's auto-pipelining: it sends one batch at a time and holds every later command until the batch
    // in flight is answered (a second round trip); writesPerTick batches instead.
    enableAutoPipelining: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs ?? 2_000,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(50 * attempt, 1_000),
  }) as Scripted;
  let lastError = '';
  client.on('error', (error: Error) => {
    // Reported once per distinct failure, so a Redis that is down does not flood the log.
    if (error.message !== lastError) process.stderr.write(`mock: redis: ${error.message}\n`);
    lastError = error.message;
  });
  client.on('ready', () => {
    if (lastError) process.stderr.write('mock: redis: connected again\n');
    lastError = '';
  });
  client.defineCommand('mockCommit', { lua: commit(prefixLength) });
  client.defineCommand('mockHit', { numberOfKeys: 1, lua: hit(prefixLength) });
  client.defineCommand('mockClaim', { lua: claim(prefixLength) });
  client.defineCommand('mockDropMembers', { numberOfKeys: 1, lua: DROP_MEMBERS });
  client.defineCommand('mockPruneFamily', { numberOfKeys: 2, lua: PRUNE_FAMILY });
  client.defineCommand('mockAdopt', { lua: adopt(prefixLength) });
  // Unreachable at start: the mock still starts, answers 503 and serves once Redis is up.
  await client.connect().catch(() => undefined);
  return client;
}

async function readOne(client: Redis, read: Read, at: (key: string) => string): Promise<unknown> {
  if (read.op === 'get') return client.get(at(read.key));
  if (read.op === 'hget') return client.hget(at(read.key), read.field);
  if (read.op === 'hgetall') return client.hgetall(at(read.key));
  if (read.op === 'length') return client.llen(at(read.key));
  return client.lrange(at(read.key), ...rangeOf(read));
}

/** The LRANGE bounds of a list read (inclusive; -1 is the end, and 1..0 is nothing). */
function rangeOf(read: Read & { op: 'list' }): [start: number, stop: number] {
  const from = Math.max(0, Math.floor(read.from ?? 0));
  if (read.first === undefined) return [from, -1];
  const first = Math.floor(read.first);
  return first <= 0 ? [1, 0] : [from, from + first - 1];
}
