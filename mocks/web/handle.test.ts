/**
 * The web adapter answers as `fetch` would see the server: faults break the exchange (a network error, a body that
 * fails midway, a body that is not JSON), HEAD has no body, a body sent without a length is read in full.
 */
import { createHandlers } from '../msw';

const BASE = 'http://api.test/v1';
const auth = { authorization: 'Bearer mock-token-a' };
const list = `${BASE}/mailboxManagement/suppressions`;

describe('handle(request) faults and shapes', () => {
  const mock = createHandlers({ baseUrl: BASE });
  afterAll(() => mock.close());

  it('should answer reset and empty as a network error', async () => {
    for (const fault of ['reset', 'empty'])
      expect((await mock.handle(new Request(list, { headers: { ...auth, prefer: `fault=${fault}` } }))).type).toBe(
        'error',
      );
  });

  it('should fail the body of a truncated answer midway, its Content-Length the whole', async () => {
    const response = await mock.handle(new Request(list, { headers: { ...auth, prefer: 'fault=truncated' } }));
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    await expect(response.text()).rejects.toThrow();
  });

  it('should answer malformed-json with a complete body that is not JSON', async () => {
    const response = await mock.handle(new Request(list, { headers: { ...auth, prefer: 'fault=malformed-json' } }));
    const text = await response.text();
    expect(text).toMatch(/<html>/);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('should hold a hang until the caller aborts, then fail it', async () => {
    const controller = new AbortController();
    const answer = mock.handle(
      new Request(list, { headers: { ...auth, prefer: 'fault=hang' }, signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 50);
    expect((await answer).type).toBe('error');
  });

  it('should answer HEAD without a body and read a body sent without a length', async () => {
    const head = await mock.handle(new Request(list, { method: 'HEAD', headers: auth }));
    expect([head.status, await head.text()]).toEqual([200, '']);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        controller.enqueue(new TextEncoder().encode('"streamed"}'));
        controller.close();
      },
    });
    const created = await mock.handle(
      new Request(`${BASE}/ai/mcpServers`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(created.status).toBe(201);
    expect(((await created.json()) as { mcpServer: { name: string } }).mcpServer.name).toBe('streamed');
  });
});
