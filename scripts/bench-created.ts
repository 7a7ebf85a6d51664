/**
 * `npx tsx scripts/bench-created.ts`: `GET /__mock/created` over a workspace with many created runs, followed page
 * by page over HTTP, beside the baseline of this same run: the whole listing built and serialised in one piece
 * (what the endpoint answered before it had pages). For each: time, bytes of the largest answer, and the longest
 * the event loop was held (other tenants' requests wait that long). Prints markdown.
 * Environment: BENCH_RUNS (default 100000), BENCH_PAGE (default 1000, the endpoint's default page).
 */
import { startMock } from '../mocks/app';
import { WORKSPACE_A } from '../mocks/config';
import { createRunRecord } from '../mocks/store/runs';

const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const PAGE = Number(process.env.BENCH_PAGE ?? 1000);

let serial = 0;
const uuid = () => `00000000-0000-4000-8000-${(++serial).toString(16).padStart(12, '0')}`;

/**
 * Runs `work`, with the time it took and the longest stretch the event loop was held meanwhile: the longest gap
 * between ticks of a 1 ms timer, the last one counted up to the end (work that never yields is one long gap).
 */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; heldMs: number }> {
  let last = performance.now();
  let heldMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    heldMs = Math.max(heldMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const value = await work();
  const ended = performance.now();
  clearInterval(ticker);
  return { value, ms: ended - started, heldMs: Math.max(heldMs, ended - last) };
}

async function main() {
  const clock = Date.now();
  const mock = await startMock({ port: 0, now: () => clock, rateLimit: 1_000_000_000, runTtlMs: 365 * 86_400_000 });
  try {
    for (let done = 0; done < RUNS; done += 1000) {
      const runs = Array.from({ length: Math.min(1000, RUNS - done) }, () =>
        createRunRecord({ uuid: uuid(), workspaceUuid: WORKSPACE_A, createdAtMs: clock, durationMs: 1000 }),
      );
      await mock.store.addRuns(WORKSPACE_A, { runs });
    }
    const origin = mock.url.replace(/\/v1$/, '');
    const paged = await measured(async () => {
      let cursor: string | undefined = '';
      let largest = 0;
      let entries = 0;
      let pages = 0;
      while (cursor !== undefined) {
        const query = new URLSearchParams({
          workspace: WORKSPACE_A,
          limit: String(PAGE),
          ...(cursor ? { cursor } : {}),
        });
        const text = await (
          await fetch(`${origin}/__mock/created?${query}`, { headers: { authorization: 'Bearer mock-token-a' } })
        ).text();
        const page = JSON.parse(text) as { created: unknown[]; next?: string };
        largest = Math.max(largest, Buffer.byteLength(text));
        entries += page.created.length;
        pages += 1;
        cursor = page.next;
      }
      return { largest, entries, pages };
    });
    const whole = await measured(async () => {
      const created = await mock.store.listCreated([WORKSPACE_A]);
      return {
        largest: Buffer.byteLength(JSON.stringify({ count: created.length, created })),
        entries: created.length,
      };
    });
    const row = (name: string, r: typeof whole & { ms: number; heldMs: number }, each: string) =>
      `| ${name} | ${r.value.entries} | ${r.ms.toFixed(0)} ms${each} | ${(r.value.largest / 1024).toFixed(0)} KiB | ${r.heldMs.toFixed(1)} ms |`;
    console.log(`## GET /__mock/created, ${RUNS} created runs, page of ${PAGE}\n`);
    console.log('| listing | entries | time | largest answer | event loop held at most |');
    console.log('|---|---|---|---|---|');
    console.log(row('whole, in one piece (baseline)', { ...whole, value: whole.value }, ''));
    const perPage = ` (${(paged.ms / paged.value.pages).toFixed(1)} ms a page, ${paged.value.pages} pages)`;
    console.log(row('by pages, over HTTP', { ...paged, value: paged.value }, perPage));
    console.log(
      `\nLongest hold: ${(whole.heldMs / paged.heldMs).toFixed(0)}x shorter by pages; largest answer ${(whole.value.largest / paged.value.largest).toFixed(0)}x smaller.`,
    );
  } finally {
    await mock.close();
  }
}

void main();
