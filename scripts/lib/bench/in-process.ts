/**
 * The mock's own JavaScript per request, without sockets: a checkout's request listener (`createMockApp`) driven
 * with requests made in memory (a readable body already arrived, a response that only records its status), 10
 * at a time, on the process's own CPU clock. What Node's HTTP and the kernel cost is left out, so a change to the
 * pipeline or the store shows beside the machine's noise. Run by `npm run bench -- --in-process` once per
 * checkout and round: `node --require tsx/cjs scripts/lib/bench/in-process.ts <checkout> <get|post> <requests>`;
 * prints one JSON line, `{ cpuUs, non2xx }`.
 */
import { Readable } from 'node:stream';
import { join } from 'node:path';

const [checkout, workload, count] = process.argv.slice(2);
const REQUESTS = Number(count ?? 20_000);
const CONCURRENCY = 10;
const BODY = Buffer.from(JSON.stringify({ name: 'bench' }));
let keys = 0;

/** What the listener reads of Node's request: the target, the headers, the socket's address and the body. */
function request(): Readable {
  const post = workload === 'post';
  const req = new Readable({ read() {} });
  if (post) req.push(BODY);
  req.push(null);
  return Object.assign(req, {
    url: post ? '/v1/ai/mcpServers' : '/v1/mailboxManagement/suppressions',
    method: post ? 'POST' : 'GET',
    httpVersion: '1.1',
    complete: true,
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
    write: () => true,
    once() {},
    on() {},
    destroy() {},
  };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createMockApp } = require(join(checkout, 'mocks', 'app')) as typeof import('../../../mocks/app');
  const app = await createMockApp({ rateLimit: 1e9 }, () => 'http://127.0.0.1:4010');
  const listener = app.listener as unknown as (req: unknown, res: unknown) => void;
  const one = () => new Promise<number>((resolve) => listener(request(), response(resolve)));
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
  await run(REQUESTS); // warm-up: JIT, the store filled to its caps as under load
  const before = process.cpuUsage();
  const non2xx = await run(REQUESTS);
  const cpu = process.cpuUsage(before);
  process.stdout.write(`${JSON.stringify({ cpuUs: (cpu.user + cpu.system) / REQUESTS, non2xx })}\n`);
  await app.close();
}

void main();
