/**
 * The mock's own JavaScript per request, without sockets: a checkout's request listener (`createMockApp`) driven
 * with requests made in memory (a readable body already arrived, a response that only records its status), 10
 * at a time, on the process's own CPU clock. What Node's HTTP and the kernel cost is left out, so a change to the
 * pipeline or the store shows beside the machine's noise. Run by `npm run bench -- --in-process` once per
 * checkout and round: `node --require tsx/cjs scripts/lib/bench/in-process.ts <checkout> <get|post> <requests>`;
 * prints one JSON line, `{ cpuUs, non2xx }`.
 *
 * With `--named-closures`, it also counts the functions per request that get a name at run time
 * (`namedPerRequest`). Under tsx (`npm start`), esbuild's `keepNames` wraps every named function expression
 * (`const f = () => …`, an object's `f: () => …`) in `__name(f, "f")`, an `Object.defineProperty` each time it is
 * made: about 0.2 µs, and a function with a property of its own. Made once per server that is nothing; made per
 * request on the keyed create, 11 of them cost about 2.3 µs of its 25 (`in-process.test.ts` keeps them at 0).
 *
 * With `--window`, the measured requests are told apart for an instruction counter outside (`told`, below).
 *
 * With `--stages`, requests go one at a time and each stage of the API's pipeline is timed as it runs (the mock's
 * `stageProbe`): a stage's time from its call until its answer settles includes every stage after it, so its own
 * time is that less the next stage's (`stages`: name and µs per request, in the pipeline's order; the probe's own
 * bookkeeping, about a tenth of a µs a stage, is in each figure). One at a time, nothing else runs meanwhile: the
 * times are the request's own, waits on the event loop included (there are none on these two workloads).
 */
import { Readable } from 'node:stream';
import { join } from 'node:path';
import type { Stage } from '../../../mocks/context';

const [checkout, workload, count] = process.argv.slice(2);
const COUNT_NAMED = process.argv.includes('--named-closures');
/** Functions named at run time (`__name`) since counting began; counted only with `--named-closures`. */
let named = 0;
if (COUNT_NAMED) {
  // Installed before the checkout's modules load: each keeps `Object.defineProperty` as it finds it.
  const define = Object.defineProperty;
  Object.defineProperty = function defineProperty<T>(target: T, key: PropertyKey, attributes: PropertyDescriptor) {
    if (key === 'name' && typeof target === 'function') named += 1;
    return define(target, key, attributes);
  } as typeof Object.defineProperty;
}
const STAGES = process.argv.includes('--stages');
const REQUESTS = Number(count ?? 20_000);
const CONCURRENCY = STAGES ? 1 : 10;

/** Each stage's time from its call until its answer settled, summed (`--stages`), in the pipeline's order. */
const inclusive = new Map<string, number>();
const stageProbe = (name: string, stage: Stage): Stage => {
  if (!inclusive.has(name)) inclusive.set(name, 0);
  return (ctx, next) => {
    const started = performance.now();
    const add = () => inclusive.set(name, (inclusive.get(name) ?? 0) + performance.now() - started);
    // An answer known at once is timed at once; a waiting one when it settles. A throw is a rejection (compose).
    let answer;
    try {
      answer = stage(ctx, next);
    } finally {
      if (!(answer instanceof Promise)) add();
    }
    return answer instanceof Promise ? answer.finally(add) : answer;
  };
};

/** Each stage's own µs per request: its inclusive time less the next stage's (stages no request reached left out). */
function ownTimes(requests: number): { name: string; us: number }[] {
  const reached = [...inclusive].filter(([, ms]) => ms > 0);
  return reached.map(([name, ms], at) => ({
    name,
    us: ((ms - (reached[at + 1]?.[1] ?? 0)) * 1000) / requests,
  }));
}
/**
 * `--window` (the benchmark's instruction counts, `instructions.ts`): after a longer warm-up, says `ready` and
 * waits for a line on stdin before the measured requests, then says `done` and waits again, so that whoever
 * counts (callgrind, switched on and off from outside) counts those requests alone.
 */
const WINDOW = process.argv.includes('--window');
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 20_000);

/** Says `word` on its own line and resolves at the next line read from stdin. */
function told(word: string): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause();
      resolve();
    });
    process.stdin.resume();
    process.stdout.write(`${word}\n`);
  });
}

const BODY = Buffer.from(JSON.stringify({ name: 'bench' }));
let keys = 0;

/**
 * What the listener reads of Node's request: the target, the headers, the socket's address and the body. The
 * body is not there yet when the listener is called: Node's parser emits the request at the end of its headers
 * and pushes the body that came in the same packet after the listener returns (`arrive`).
 */
function request(): Readable & { complete: boolean } {
  const post = workload === 'post';
  const req = new Readable({ read() {} });
  return Object.assign(req, {
    url: post ? '/v1/ai/mcpServers' : '/v1/mailboxManagement/suppressions',
    method: post ? 'POST' : 'GET',
    httpVersion: '1.1',
    complete: false,
    socket: { remoteAddress: '127.0.0.1' },
    headers: {
      host: '127.0.0.1',
      authorization: 'Bearer mock-token-a',
      ...(post
        ? {
            'content-type': 'application/json',
            'content-length': String(BODY.length),
            'idempotency-key': `in-process-${keys++}`,
          }
        : {}),
    },
  });
}

/** The rest of the packet, as the parser reads it once the listener has returned: the body, then the end. */
function arrive(req: Readable & { complete: boolean }): void {
  if (workload === 'post') req.push(BODY);
  req.complete = true;
  req.push(null);
}

/** What the serialiser calls on Node's response; `end` reports the status written. */
function response(done: (status: number) => void) {
  let status = 0;
  return {
    headersSent: false,
    closed: false,
    destroyed: false,
    writableFinished: false,
    writeHead(code: number) {
      status = code;
      this.headersSent = true;
      return this;
    },
    end() {
      this.writableFinished = true;
      done(status);
    },
    write() {
      return true;
    },
    once() {},
    on() {},
    destroy() {},
  };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createMockApp } = require(join(checkout, 'mocks', 'app')) as typeof import('../../../mocks/app');
  const app = await createMockApp({ rateLimit: 1e9, ...(STAGES ? { stageProbe } : {}) }, () => 'http://127.0.0.1:4010');
  const listener = app.listener as unknown as (req: unknown, res: unknown) => void;
  // Each request starts from a turn of the event loop of its own, as one read from a socket does in the server.
  // Started from the promise chain of the one before (every request of the run in one chain of microtasks), the
  // requests' streams' nextTick callbacks waited for the whole run to end: every request was kept alive until
  // then (80 000 of them at the end of a run of 40 000), which the collector copied as if the mock kept them.
  const one = () =>
    new Promise<number>((resolve) =>
      setImmediate(() => {
        const req = request();
        listener(req, response(resolve));
        arrive(req);
      }),
    );
  const run = async (n: number) => {
    let left = n;
    let non2xx = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) if ((await one()) >= 300) non2xx += 1;
      }),
    );
    return non2xx;
  };
  await run(WINDOW ? WARM_UP : REQUESTS); // warm-up: JIT, the store filled to its caps as under load
  for (const name of inclusive.keys()) inclusive.set(name, 0);
  const namedBefore = named;
  if (WINDOW) await told('ready');
  const before = process.cpuUsage();
  const non2xx = await run(REQUESTS);
  const cpu = process.cpuUsage(before);
  if (WINDOW) await told('done');
  const result = { cpuUs: (cpu.user + cpu.system) / REQUESTS, non2xx };
  const namedPerRequest = (named - namedBefore) / REQUESTS;
  const extra = { ...(COUNT_NAMED ? { namedPerRequest } : {}), ...(STAGES ? { stages: ownTimes(REQUESTS) } : {}) };
  process.stdout.write(`${JSON.stringify({ ...result, ...extra })}\n`);
  await app.close();
}

void main();
