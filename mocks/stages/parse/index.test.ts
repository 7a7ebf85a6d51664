import type { RouteResult } from '../../../spec/lib';
import { makeCtx, okNext } from '../../testing/ctx';
import { parse } from '.';

const route = (method: string, path: string): RouteResult => {
  if (path === '/things' && method === 'POST')
    return {
      kind: 'match',
      operation: {
        operationId: 'createThing',
        requestBody: { required: true, contentTypes: ['application/json'], pointer: '' },
      } as never,
      params: {},
    };
  if (path === '/things') return { kind: 'match', operation: { operationId: 'listThings' } as never, params: {} };
  return { kind: 'not-found' };
};
const stage = parse({ bodyLimitBytes: 16, route });

describe('parse stage', () => {
  it('should read and decode a JSON body and find the operation', async () => {
    const ctx = makeCtx({
      method: 'POST',
      path: '/things',
      headers: { 'content-length': '9', 'content-type': 'application/json' },
      body: '{"a":[1]}',
    });
    await stage(ctx, okNext());
    expect(ctx.req.body).toEqual({ a: [1] });
    expect(ctx.req.operationId).toBe('createThing');
  });

  it.each([
    ['a declared length over the limit', { 'content-length': '17' }, 'x'.repeat(17)],
    ['a streamed body over the limit', { 'transfer-encoding': 'chunked' }, 'x'.repeat(40)],
  ])(
    'should record a 413 for %s, to be answered once the caller is counted, and close the connection',
    async (_name, headers, body) => {
      const ctx = makeCtx({ method: 'POST', path: '/things', headers, body });
      await stage(ctx, okNext());
      expect(ctx.payloadError).toMatchObject({ status: 413, reason: 'payload_too_large' });
      expect(ctx.closeConnection).toBe(true);
      expect(ctx.req.body).toBeUndefined();
    },
  );

  it.each([
    ['nesting deeper than the limit', '['.repeat(5) + ']'.repeat(5), 'json_too_deep'],
    ['an array longer than the limit', `[${'"",'.repeat(4)}""]`, 'json_array_too_long'],
  ])('should refuse %s before parsing it', async (_name, body, reason) => {
    const strict = parse({ bodyLimitBytes: 1000, route, jsonDepth: 4, jsonArrayItems: 4 });
    const ctx = makeCtx({ method: 'POST', path: '/things', headers: { 'content-length': String(body.length) }, body });
    await strict(ctx, okNext());
    expect(ctx.bodyError).toMatchObject({ status: 400, reason });
    expect(ctx.req.body).toBeUndefined();
  });

  it('should accept nesting and arrays at the limits, and brackets inside strings', async () => {
    const strict = parse({ bodyLimitBytes: 1000, route, jsonDepth: 4, jsonArrayItems: 4 });
    const body = '{"a":[[["[[[[,,,,,"]], 1, 2, 3]}';
    const ctx = makeCtx({ method: 'POST', path: '/things', headers: { 'content-length': String(body.length) }, body });
    await strict(ctx, okNext());
    expect(ctx.bodyError).toBeUndefined();
    expect(ctx.req.body).toEqual({ a: [[['[[[[,,,,,']], 1, 2, 3] });
  });

  it('should ignore a body, even an oversized one, on an operation that takes none', async () => {
    const ctx = makeCtx({ method: 'GET', path: '/things', headers: { 'content-length': '40' }, body: 'x'.repeat(40) });
    const next = okNext();
    await stage(ctx, next);
    expect(next.calls).toBe(1);
    expect(ctx.req.rawBody.length).toBe(0);
    expect(ctx.req.operationId).toBe('listThings');
  });

  it('should answer 404 for a path outside the base path, even one that names an operation', async () => {
    const ctx = makeCtx({ method: 'GET', path: '/things', headers: {} });
    ctx.outsideBase = true;
    await stage(ctx, okNext());
    expect(ctx.route).toBeUndefined();
    expect(ctx.routeError).toMatchObject({ status: 404, reason: 'not_found' });
  });

  it('should record malformed JSON and an unknown route for later stages, not answer them', async () => {
    const ctx = makeCtx({ method: 'POST', path: '/nowhere', headers: { 'content-length': '2' }, body: '{,' });
    const next = okNext();
    await stage(ctx, next);
    expect(next.calls).toBe(1);
    expect(ctx.bodyError).toBeUndefined(); // no operation, so the body is not decoded
    expect(ctx.routeError).toMatchObject({ status: 404 });
    const known = makeCtx({ method: 'POST', path: '/things', headers: { 'content-length': '2' }, body: '{,' });
    await stage(known, next);
    expect(known.bodyError).toMatchObject({ status: 400, reason: 'malformed_json' });
  });
});
