import { Readable } from 'node:stream';
import { createMockApp } from '../app';
import type { FrontDoor } from '../front-door';
import { createNodeListener } from './listener';
import { createMemoryPort } from '../store/adapters/memory';
import { interceptPort } from '../testing/failing-port';
import type { StoragePort } from '../store/port';
import { loadContract } from '../../spec/lib';
import { WORKSPACE_A } from '../defaults';

/** The token of `WORKSPACE_A` (`mocks/defaults.ts`). */
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
    end(body?: string | Uint8Array) {
      written.body = body === undefined ? '' : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
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

/**
 * Every read of the contract (its GET operations), each with a path that names a seeded entry: a `{uuid}` takes
 * the first uuid of the collection named by the segment before it (`/orchestration/runs/{uuid}`: a run).
 */
async function reads(app: Awaited<ReturnType<typeof appWith>>): Promise<[string, string][]> {
  const state = (await app.store.snapshot(WORKSPACE_A)) as unknown as Record<string, unknown>;
  return loadContract()
    .operations.filter((operation) => operation.method === 'GET')
    .map((operation): [string, string] => {
      const path = operation.path.replace(/\/([^/]+)\/\{uuid\}/, (_whole, collection: string) => {
        const entries = state[collection];
        if (!(entries instanceof Map) || entries.size === 0)
          throw new Error(`no seeded ${collection} for ${operation.path}`);
        return `/${collection}/${[...entries.keys()][0] as string}`;
      });
      return [operation.operationId, `/v1${path}`];
    });
}

describe('the Node listener, with the store in this process', () => {
  it('should write the answer to every read of the contract in the turn that read the request', async () => {
    const app = await appWith(createMemoryPort());
    try {
      const all = await reads(app);
      expect(all.length).toBeGreaterThanOrEqual(7);
      for (const [operationId, url] of all) {
        await answer(app, 'GET', url); // the first read may seed the workspace (a write, which waits)
        const got = await answer(app, 'GET', url);
        expect({ operationId, status: got.status, atOnce: got.atOnce }).toEqual({
          operationId,
          status: 200,
          atOnce: true,
        });
      }
    } finally {
      await app.close();
    }
  });

  it('should answer every read alike when the store answers later (a shared store: each read a round trip)', async () => {
    // Only the port's round-trip methods: no readNow or hitNow, as a Redis port or a wrapper offers.
    const app = await appWith(interceptPort(createMemoryPort(), (_call, pass) => pass()));
    const reference = await appWith(createMemoryPort());
    try {
      for (const [operationId, url] of await reads(reference)) {
        await answer(app, 'GET', url);
        await answer(reference, 'GET', url);
        const got = await answer(app, 'GET', url);
        const expected = await answer(reference, 'GET', url);
        expect({ operationId, status: got.status, atOnce: got.atOnce }).toEqual({
          operationId,
          status: 200,
          atOnce: false,
        });
        expect(got.body).toBe(expected.body);
      }
    } finally {
      await app.close();
      await reference.close();
    }
  });
});

describe('a throw before any stage', () => {
  it('should answer that request 500 in the error shape, never throw out of the listener (ending the process)', () => {
    const door = {
      answer: () => {
        throw new TypeError('Invalid URL');
      },
      originOf: () => 'http://127.0.0.1:4010',
      hangMs: () => 0,
    } as unknown as FrontDoor;
    const listener = createNodeListener(door) as unknown as (req: unknown, res: unknown) => void;
    const { res, written } = response();
    const report = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => listener(request('GET', '//a<b/'), res)).not.toThrow();
    } finally {
      report.mockRestore();
    }
    expect(written.status).toBe(500);
    expect(JSON.parse(written.body)).toEqual({ errorMessage: expect.any(String), reason: expect.any(String) });
  });
});
