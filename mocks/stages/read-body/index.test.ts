import { PassThrough, Readable } from 'node:stream';
import { makeCtx, okNext } from '../../testing/ctx';
import { readBody, type BodyLimits } from '.';

const takesBody = { operation: { operationId: 'createThing', requestBody: { required: true } } as never, params: {} };
const takesNone = { operation: { operationId: 'listThings' } as never, params: {} };
const limits: BodyLimits = { bytes: 16, timeoutMs: 1000, jsonDepth: 64, jsonArrayItems: 10_000 };

describe('read-body stage', () => {
  it('should read and decode a JSON body, and mark it read', async () => {
    const ctx = makeCtx({
      method: 'POST',
      headers: { 'content-length': '9', 'content-type': 'application/json' },
      body: '{"a":[1]}',
    });
    ctx.route = takesBody;
    await readBody(limits)(ctx, okNext());
    expect(ctx.req.body).toEqual({ a: [1] });
    expect(ctx.bodyRead).toBe(true);
  });

  it.each([
    ['a declared length over the limit', { 'content-length': '17' }, 'x'.repeat(17)],
    ['a streamed body over the limit', { 'transfer-encoding': 'chunked' }, 'x'.repeat(40)],
  ])('should answer 413 to %s, leaving the rest unread', async (_name, headers, body) => {
    const ctx = makeCtx({ method: 'POST', headers, body });
    ctx.route = takesBody;
    await expect(readBody(limits)(ctx, okNext())).rejects.toMatchObject({ status: 413, reason: 'payload_too_large' });
    expect(ctx.bodyRead).toBeUndefined();
    expect(ctx.req.body).toBeUndefined();
  });

  it.each([
    ['nesting deeper than the limit', '['.repeat(5) + ']'.repeat(5), 'json_too_deep'],
    ['an array longer than the limit', `[${'"",'.repeat(4)}""]`, 'json_array_too_long'],
    ['malformed JSON', '{,', 'malformed_json'],
  ])('should refuse %s before parsing it', async (_name, body, reason) => {
    const strict = readBody({ ...limits, bytes: 1000, jsonDepth: 4, jsonArrayItems: 4 });
    const ctx = makeCtx({ method: 'POST', headers: { 'content-length': String(body.length) }, body });
    ctx.route = takesBody;
    await expect(strict(ctx, okNext())).rejects.toMatchObject({ status: 400, reason });
    expect(ctx.req.body).toBeUndefined();
  });

  it('should accept nesting and arrays at the limits, and brackets inside strings', async () => {
    const strict = readBody({ ...limits, bytes: 1000, jsonDepth: 4, jsonArrayItems: 4 });
    const body = '{"a":[[["[[[[,,,,,"]], 1, 2, 3]}';
    const ctx = makeCtx({ method: 'POST', headers: { 'content-length': String(body.length) }, body });
    ctx.route = takesBody;
    await strict(ctx, okNext());
    expect(ctx.req.body).toEqual({ a: [[['[[[[,,,,,']], 1, 2, 3] });
  });

  it('should ignore a body, even an oversized one, on an operation that takes none', async () => {
    const ctx = makeCtx({ method: 'GET', headers: { 'content-length': '40' }, body: 'x'.repeat(40) });
    ctx.route = takesNone;
    const next = okNext();
    await readBody(limits)(ctx, next);
    expect(next.calls).toBe(1);
    expect(ctx.req.rawBody.length).toBe(0);
    expect(ctx.bodyRead).toBeUndefined(); // not read to its end: the connection closes after the answer
  });

  describe('a body in a Node stream', () => {
    const streamed = (declared: string) => {
      const stream = new PassThrough();
      const ctx = makeCtx({ method: 'POST', headers: { 'content-length': declared } });
      ctx.source = { remoteAddress: '127.0.0.1', body: stream };
      ctx.route = takesBody;
      return { ctx, stream };
    };

    it('should take a body whose declared bytes have all arrived at once, before the stream ends', async () => {
      const { ctx, stream } = streamed('9');
      stream.write('{"a":[1]}'); // never ended: had the stage waited for the end, this test would time out
      await new Promise((resolve) => setImmediate(resolve));
      await readBody(limits)(ctx, okNext());
      expect(ctx.req.body).toEqual({ a: [1] });
      expect(ctx.bodyRead).toBe(true);
    });

    it('should take a body pushed as the stage runs (Node parses it after the request event) without waiting for its events', async () => {
      const body = new Readable({ read() {} });
      const ctx = makeCtx({ method: 'POST', headers: { 'content-length': '9' } });
      ctx.source = { remoteAddress: '127.0.0.1', body };
      ctx.route = takesBody;
      const read = readBody(limits)(ctx, okNext());
      body.push('{"a":[1]}'); // the rest of the packet, parsed once the listener returns; the stream never ends
      await read;
      expect([ctx.req.body, ctx.bodyRead, body.listenerCount('data'), body.listenerCount('end')]).toEqual([
        { a: [1] },
        true,
        0,
        0,
      ]);
    });

    it('should wait for the rest of a body that has arrived in part', async () => {
      const { ctx, stream } = streamed('9');
      stream.write('{"a":');
      await new Promise((resolve) => setImmediate(resolve));
      const read = readBody(limits)(ctx, okNext());
      stream.end('[1]}');
      await read;
      expect(ctx.req.body).toEqual({ a: [1] });
    });
  });
});
