/**
 * `npx tsx scripts/bench-reset.ts`: what removing one workspace's keys by prefix (`deleteByPrefix`, as a reset of
 * a workspace does for its state, its idempotency answers and its rate limit's counters) costs while other
 * tenants hold many keys: the memory adapter beside a scan of every key (how it found them before), then the
 * Redis adapter (a redis-server of its own on loopback, Debian's package installed where missing) through its
 * families beside `SCAN … MATCH` of the whole keyspace (how it found them before), on the same keys in the same
 * run; then the pause of one bulk sweep of expired keys (a batch of keys, going on where the last stopped) beside
 * a pass over every key (the sweep before). Environment: BENCH_OTHER_KEYS (default 10000,100000,1000000),
 * BENCH_OWN_KEYS (default 100), BENCH_REDIS=0 (skip Redis).
 */
import Redis from 'ioredis';
import { createMemoryPort, MemoryData } from '../mocks/store/adapters/memory';
import { createRedisPort } from '../mocks/store/adapters/redis';
import { startRedisServer } from '../mocks/testing/redis-server';

const OTHERS = (process.env.BENCH_OTHER_KEYS ?? '10000,100000,1000000').split(',').map(Number);
const OWN = Number(process.env.BENCH_OWN_KEYS ?? 100);
const ROUNDS = 20;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const rows = ['| other tenants’ keys | by family (ms) | scan of every key (ms) | ratio |', '|---:|---:|---:|---:|'];
  for (const others of OTHERS) {
    const port = createMemoryPort();
    for (let start = 0; start < others; start += 10_000)
      await port.commit(
        Array.from({ length: Math.min(10_000, others - start) }, (_, i) => ({
          op: 'set' as const,
          key: `idem:other-${(start + i) % 1000}:key-${start + i}`,
          value: 'v',
        })),
      );
    // The previous way, on a plain Map holding the same keys.
    const plain = new Map<string, string>();
    for (let i = 0; i < others; i++) plain.set(`idem:other-${i % 1000}:key-${i}`, 'v');
    const family: number[] = [];
    const scan: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const own = Array.from({ length: OWN }, (_, i) => `idem:ws-${round}:key-${i}`);
      await port.commit(own.map((key) => ({ op: 'set' as const, key, value: 'v' })));
      for (const key of own) plain.set(key, 'v');
      let started = performance.now();
      await port.deleteByPrefix(`idem:ws-${round}:`);
      family.push(performance.now() - started);
      started = performance.now();
      const prefix = `idem:ws-${round}:`;
      for (const key of [...plain.keys()]) if (key.startsWith(prefix)) plain.delete(key);
      scan.push(performance.now() - started);
    }
    const [a, b] = [median(family), median(scan)];
    rows.push(`| ${others.toLocaleString('en')} | ${a.toFixed(3)} | ${b.toFixed(2)} | ${(b / a).toFixed(0)}× |`);
    await port.close();
  }
  process.stdout.write(`deleteByPrefix of one workspace's ${OWN} keys, median of ${ROUNDS}\n${rows.join('\n')}\n\n`);
  if (process.env.BENCH_REDIS !== '0') await onRedis();
  const sweeps = ['| keys held | one sweep (ms) | a pass over every key (ms) |', '|---:|---:|---:|'];
  for (const held of OTHERS) {
    let now = 0;
    const data = new MemoryData(() => now);
    for (let i = 0; i < held; i++) data.entries.set(`idem:other-${i % 1000}:key-${i}`, { value: 'v', expiresAt: 1e12 });
    const batch: number[] = [];
    const pass: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      now += 10_000; // past the pause between passes: every round's sweep looks at a batch
      let started = performance.now();
      data.sweep();
      batch.push(performance.now() - started);
      started = performance.now();
      for (const [key, entry] of data.entries)
        if (entry.expiresAt !== undefined && entry.expiresAt <= now) data.entries.delete(key);
      pass.push(performance.now() - started);
    }
    sweeps.push(`| ${held.toLocaleString('en')} | ${median(batch).toFixed(2)} | ${median(pass).toFixed(2)} |`);
  }
  process.stdout.write(
    `The bulk sweep of expired keys (none expired: the pause is the looking), median of ${ROUNDS}\n${sweeps.join('\n')}\n`,
  );
}

/** The same reset on Redis: the port's families beside the scan of the whole keyspace it made before. */
async function onRedis(): Promise<void> {
  const server = await startRedisServer();
  const raw = new Redis(server.url);
  const rows = ['| other tenants’ keys | by family (ms) | SCAN of every key (ms) | ratio |', '|---:|---:|---:|---:|'];
  try {
    for (const others of OTHERS) {
      await raw.flushall();
      const prefix = 'bench:';
      const port = await createRedisPort({ url: server.url, prefix });
      for (let start = 0; start < others; start += 1000)
        await port.commit(
          Array.from({ length: Math.min(1000, others - start) }, (_, i) => ({
            op: 'set' as const,
            key: `idem:other-${(start + i) % 1000}:key-${start + i}`,
            value: 'v',
          })),
        );
      const family: number[] = [];
      const scan: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const own = Array.from({ length: OWN }, (_, i) => `idem:ws-${round}:key-${i}`);
        await port.commit(own.map((key) => ({ op: 'set' as const, key, value: 'v' })));
        let started = performance.now();
        await port.deleteByPrefix(`idem:ws-${round}:`);
        family.push(performance.now() - started);
        await port.commit(own.map((key) => ({ op: 'set' as const, key, value: 'v' })));
        started = performance.now();
        for await (const keys of raw.scanStream({ match: `${prefix}idem:ws-${round}:*`, count: 500 }))
          if ((keys as string[]).length > 0) await raw.unlink(...(keys as string[]));
        scan.push(performance.now() - started);
        await port.deleteByPrefix(`idem:ws-${round}:`); // its family's entries, for the next round
      }
      const [a, b] = [median(family), median(scan)];
      rows.push(`| ${others.toLocaleString('en')} | ${a.toFixed(2)} | ${b.toFixed(1)} | ${(b / a).toFixed(0)}× |`);
      await port.close();
    }
  } finally {
    raw.disconnect();
    await server.stop();
  }
  process.stdout.write(
    `The same on Redis (one round trip or a few per family), median of ${ROUNDS}\n${rows.join('\n')}\n\n`,
  );
}

void main();
