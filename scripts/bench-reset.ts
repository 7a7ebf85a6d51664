/**
 * `npx tsx scripts/bench-reset.ts`: what removing one workspace's keys by prefix (`deleteByPrefix`, as a reset of
 * a workspace does for its state, its idempotency answers and its rate limit's counters) costs the memory
 * adapter while other tenants hold many keys, beside a scan of every key (how the adapter found them before) on
 * the same keys in the same run; then the pause of one bulk sweep of expired keys (a batch of keys, going on
 * where the last stopped) beside a pass over every key (the sweep before). Environment: BENCH_OTHER_KEYS (default 10000,100000,1000000), BENCH_OWN_KEYS
 * (default 100).
 */
import { createMemoryPort, MemoryData } from '../mocks/store/adapters/memory';

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

void main();
