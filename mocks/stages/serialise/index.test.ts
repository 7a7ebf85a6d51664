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
