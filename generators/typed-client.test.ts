import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract } from '../spec/lib';
import { callEveryOperation, createApiClient } from './typed-client';

const operations = loadContract().operations.map(({ operationId, method, path }) => ({ operationId, method, path }));

describe('typed client over the generated types', () => {
  let server: Server;
  const seen: { method: string; path: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? '', path: new URL(req.url ?? '/', 'http://x').pathname });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('should call every operation of the spec, provisional ones included, by hand or by its generated call', async () => {
    const { port } = server.address() as AddressInfo;
    const { byHand, generated } = await callEveryOperation(createApiClient(`http://127.0.0.1:${port}/v1`, 'token'));
    const called = new Set([...Object.keys(byHand), ...Object.keys(generated)]);
    expect([...called].sort()).toEqual(operations.map((o) => o.operationId).sort());
    // The hand calls stay a representative set: reads, writes, a provisional one.
    expect(Object.keys(byHand).length).toBeGreaterThanOrEqual(8);
  });

  it.each(operations)('should send $operationId as $method $path', ({ method, path }) => {
    const template = new RegExp(`^/v1${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    expect(seen.some((request) => request.method === method && template.test(request.path))).toBe(true);
  });
});

describe('free-form objects in the generated types', () => {
  it('should let a frontend developer send any JSON object as a run input and read rows of any shape', async () => {
    let received: unknown;
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        received = JSON.parse(text);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"rows":[{"email":"x","count":1}]}');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const client = createApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, 'mock-token-a');
      // Compiles only while `input` is `Record<string, unknown>` (openapi-typescript's emptyObjectsUnknown).
      await client.POST('/orchestration/runs', { body: { input: { email: 'x' } } });
      expect(received).toEqual({ input: { email: 'x' } });
      const { data } = await client.POST('/orchestration/query', { body: { query: 'SELECT 1' } });
      const email: unknown = data?.rows[0].email;
      expect(email).toBe('x');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
