import { freezeDeep } from '.';

describe('freezeDeep', () => {
  it('should freeze nested objects and arrays so a shared body cannot change', () => {
    const body = freezeDeep({ list: [{ a: 1 }] });
    expect(Object.isFrozen(body.list[0])).toBe(true);
    expect(() => {
      'use strict';
      (body.list as unknown as unknown[]).push(1);
    }).toThrow(TypeError);
  });
});

describe('serialise of a large body', () => {
  it('should stream it in chunks, whole and byte-exact, surrogate pairs across chunk edges included', async () => {
    const { createServer } = await import('node:http');
    const { serialise, STREAM_CHUNK_CHARS } = await import('.');
    // An emoji straddles every chunk edge; the reader is slow, so writes wait for drain.
    const unit = 'a'.repeat(STREAM_CHUNK_CHARS - 1) + '\u{1F600}';
    const text = JSON.stringify({ runs: [unit.repeat(8), 'é'] });
    const server = createServer((_req, res) =>
      serialise(res, { status: 200, headers: {}, body: undefined, text }, 'GET'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const chunks: Uint8Array[] = [];
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        chunks.push(read.value);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(Buffer.concat(chunks).toString('utf8')).toBe(text);
    } finally {
      server.close();
    }
  });
});

describe('serialise of a frozen body (a page many answers share)', () => {
  it('should write the bytes of its JSON, encoded once, with their length, the same on every answer and on HEAD', async () => {
    const { createServer } = await import('node:http');
    const { serialise } = await import('.');
    // Non-ASCII and an emoji: the length in bytes is not the length in characters.
    const body = freezeDeep({ suppressions: [{ email: 'é@example.com', note: '\u{1F600}' }], count: 1 });
    const text = JSON.stringify(body);
    // Encoded once: every answer takes the same bytes.
    const { frozenJsonBytes } = await import('../../json-text');
    expect(frozenJsonBytes(body)).toBe(frozenJsonBytes(body));
    const server = createServer((req, res) => serialise(res, { status: 200, headers: {}, body }, req.method ?? 'GET'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const method of ['GET', 'GET', 'HEAD']) {
        const res = await fetch(`http://127.0.0.1:${port}/`, { method });
        expect([method, res.headers.get('content-type'), Number(res.headers.get('content-length'))]).toEqual([
          method,
          'application/json',
          Buffer.byteLength(text),
        ]);
        expect(await res.text()).toBe(method === 'HEAD' ? '' : text);
      }
    } finally {
      server.close();
    }
  });
});
