import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Ctx } from '../context';
import { createMemoryPort } from '../store/adapters/memory';
import { createRateLimiter } from '../stages/rate-limit/limiter';
import type { MockResponse } from '../types';
import { createFrontDoor, type Mount } from '.';
import { createNodeListener } from '../node/listener';

/** A front door with one mount whose pipeline is the test's, on a free loopback port. */
async function serve(pipeline: (ctx: Ctx) => Promise<MockResponse>): Promise<{ server: Server; port: number }> {
  const limiter = createRateLimiter({ port: createMemoryPort(), limit: 100, windowSeconds: 60, now: Date.now });
  const mount: Mount = { name: 'test', matches: () => true, pipeline };
  const door = createFrontDoor({ mounts: [mount], fallback: mount, limiter, originOf: () => '', hangMs: () => 0 });
  const server = createServer(createNodeListener(door));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends a request and goes away before its answer; resolves once the server has had time to see it close. */
function requestThenLeave(port: number, arrived: Promise<void>): Promise<void> {
  const socket = connect(port, '127.0.0.1', () => socket.write('GET /x HTTP/1.1\r\nHost: test\r\n\r\n'));
  return arrived.then(
    () =>
      new Promise<void>((resolve) => {
        socket.destroy();
        setTimeout(resolve, 100);
      }),
  );
}

describe("a request's abort signal (made when first asked for)", () => {
  const answer: MockResponse = { status: 200, headers: {}, body: {} };

  it('should abort a signal asked for before the client went away, when it goes', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    let signal: AbortSignal | undefined;
    let finish!: () => void;
    const { server, port } = await serve(async (ctx) => {
      signal = ctx.signal;
      arrive();
      await new Promise<void>((resolve) => (finish = resolve));
      return answer;
    });
    try {
      expect(signal).toBeUndefined();
      await requestThenLeave(port, arrived);
      expect(signal?.aborted).toBe(true);
    } finally {
      finish?.();
      server.close();
    }
  });

  it('should give a signal already aborted to a stage that asks after the client went away', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    let context: Ctx | undefined;
    let finish!: () => void;
    const { server, port } = await serve(async (ctx) => {
      context = ctx;
      arrive();
      await new Promise<void>((resolve) => (finish = resolve));
      return answer;
    });
    try {
      await requestThenLeave(port, arrived);
      expect(context?.signal?.aborted).toBe(true);
    } finally {
      finish?.();
      server.close();
    }
  });
});
