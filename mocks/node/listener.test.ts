import { Readable } from 'node:stream';
import { createMockApp } from '../app';
import { createMemoryPort } from '../store/adapters/memory';
import { interceptPort } from '../testing/failing-port';
import type { StoragePort } from '../store/port';

const TOKEN = 'Bearer mock-token-a';

/** A request as Node's parser hands it to the listener: its headers, the body still to come. */
function request(method: string, url: string, headers: Record<string, string> = {}) {
  return Object.assign(new Readable({ read() {} }), {
    url,
    method,
    httpVersion: '1.1',
    complete: false,
    socket: { remoteAddress: '127.0.0.1' },
    headers: { host: '127.0.0.1', authorization: TOKEN, ...headers },
  });
}

/** A response that records what the serialiser wrote, and whether it was written before the listener returned. */
function response() {
  const written = { status: 0, body: '', ended: false };
  const res = {
    headersSent: false,
    closed: false,
    destroyed: false,
    writableFinished: false,
    writeHead(status: number) {
      written.status = status;
      this.headersSent = true;
      return this;
    },
    end(text?: string) {
      written.body = text ?? '';
      written.ended = true;
      this.writableFinished = true;
    },
    write: () => true,
    once() {},
    on() {},
    destroy() {},
  };
  return { res, written };
}

async function appWith(storagePort: StoragePort) {
  return createMockApp({ storagePort, rateLimit: 1e9 }, () => 'http://127.0.0.1:4010');
}

/** Answers one request, telling whether its answer was written in the listener's own turn. */
async function answer(app: Awaited<ReturnType<typeof appWith>>, method: string, url: string) {
  const req = request(method, url);
  const { res, written } = response();
  (app.listener as unknown as (req: unknown, res: unknown) => void)(req, res);
  const atOnce = written.ended;
  req.complete = true;
  req.push(null);
  for (let turn = 0; turn < 100 && !written.ended; turn++) await new Promise((resolve) => setImmediate(resolve));
  return { atOnce, ...written };
}

// The read-only lists a frontend reads most: each answered from the store in this process without a wait.
const LISTS = ['/v1/mailboxManagement/suppressions', '/v1/revenueOrganization/allocations/list'];

describe('the Node listener, with the store in this process', () => {
  it.each(LISTS)('should write the answer to GET %s in the turn that read the request', async (url) => {
    const app = await appWith(createMemoryPort());
    try {
      await answer(app, 'GET', url); // the first read seeds the workspace (a write, which waits)
      const got = await answer(app, 'GET', url);
      expect(got).toMatchObject({ status: 200, atOnce: true });
    } finally {
      await app.close();
    }
  });

  it.each(LISTS)(
    'should answer GET %s alike when the store answers later (a shared store: each read a round trip)',
    async (url) => {
      const memory = createMemoryPort();
      // Only the port's round-trip methods: no readNow or hitNow, as a Redis port or a wrapper offers.
      const later = interceptPort(memory, (_call, pass) => pass());
      const app = await appWith(later);
      const reference = await appWith(createMemoryPort());
      try {
        await answer(app, 'GET', url);
        await answer(reference, 'GET', url);
        const got = await answer(app, 'GET', url);
        expect(got).toMatchObject({ status: 200, atOnce: false });
        expect(got.body).toBe((await answer(reference, 'GET', url)).body);
      } finally {
        await app.close();
        await reference.close();
      }
    },
  );
});
