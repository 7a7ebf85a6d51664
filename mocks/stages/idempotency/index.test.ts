import { ApiError } from '../../errors';
import { makeCtx } from '../../testing/ctx';
import type { MockResponse } from '../../types';
import { canonicalJson, fingerprintRequest, idempotency, readIdempotencyKey } from '.';
import { loadContract } from '../../../spec/lib';
import { createMemoryPort } from '../../store/adapters/memory';
import { createIdempotencyStore } from '../../store/repositories/idempotency';
import { createFailingPort, storesIdempotentAnswer } from '../../testing/failing-port';

const DAY = 24 * 60 * 60 * 1000;
/** The bounds the mock takes from the contract's IdempotencyKey parameter schema. */
const { idempotencyKeyMinLength, idempotencyKeyMaxLength } = loadContract().constants;
const keyLength = { min: idempotencyKeyMinLength, max: idempotencyKeyMaxLength };

function post(body: unknown, key = 'k', workspaceUuid = 'ws', extraHeaders: Record<string, string> = {}) {
  const ctx = makeCtx({
    method: 'POST',
    path: '/things',
    headers: { 'idempotency-key': key, 'content-type': 'application/json', ...extraHeaders },
  });
  ctx.req = { ...ctx.req, body: body };
  ctx.caller = { workspaceUuid, via: 'token' };
  return ctx;
}

function setup(cap = 100) {
  let now = 0;
  const store = createIdempotencyStore({
    port: createMemoryPort({ now: () => now }),
    ttlMs: DAY,
    capPerWorkspace: cap,
    now: () => now,
  });
  let created = 0;
  const handler = async (): Promise<MockResponse> => ({
    status: 201,
    headers: { location: `/things/${++created}`, 'x-other': 'y' },
    body: { n: created },
  });
  return {
    stage: idempotency({ store, keyLength }),
    handler,
    created: () => created,
    advance: (ms: number) => (now += ms),
    store,
  };
}

describe('idempotency', () => {
  it('should treat bodies with reordered keys as the same request', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(fingerprintRequest(post({ a: 1, b: 2 }).req)).toBe(fingerprintRequest(post({ b: 2, a: 1 }).req));
  });

  it('should replay status, body and meaningful headers without a second call (x-rules idempotency-replay)', async () => {
    const { stage, handler, created } = setup();
    const first = await stage(post({ a: 1 }), handler);
    const second = await stage(post({ a: 1 }), handler);
    expect(created()).toBe(1);
    expect(second).toEqual({ status: 201, headers: { location: '/things/1' }, body: first.body });
  });

  it('should answer 422 for the same key with another request, and keep keys per workspace', async () => {
    const { stage, handler } = setup();
    await stage(post({ a: 1 }), handler);
    await expect(stage(post({ a: 2 }), handler)).rejects.toMatchObject({
      status: 422,
      reason: 'idempotency_key_reused',
    });
    await expect(stage(post({ a: 2 }, 'k', 'other-ws'), handler)).resolves.toMatchObject({ status: 201 });
  });

  it('should answer 409 to a retry while the first is still running', async () => {
    const { stage } = setup();
    let finish!: () => void;
    const slow = () =>
      new Promise<MockResponse>((resolve) => (finish = () => resolve({ status: 201, headers: {}, body: {} })));
    const first = stage(post({ a: 1 }), slow);
    await expect(stage(post({ a: 1 }), slow)).rejects.toMatchObject({ status: 409 });
    finish();
    await expect(first).resolves.toMatchObject({ status: 201 });
  });

  it('should forget keys after 24 hours (x-rules idempotency-key-expiry)', async () => {
    const { stage, handler, created, advance } = setup();
    await stage(post({ a: 1 }), handler);
    advance(DAY - 1);
    await stage(post({ a: 1 }), handler);
    expect(created()).toBe(1);
    advance(1);
    await stage(post({ a: 1 }), handler);
    expect(created()).toBe(2);
  });

  it('should keep at most the cap of keys per workspace', async () => {
    const { stage, handler, store } = setup(3);
    for (let i = 0; i < 10; i++) await stage(post({ i }, `k${i}`), handler);
    expect(await store.size()).toBe(3);
  });

  it('should keep at most the byte budget of answers per workspace, oldest out first, and others untouched', async () => {
    let now = 0;
    const store = createIdempotencyStore({
      port: createMemoryPort({ now: () => now }),
      ttlMs: DAY,
      capPerWorkspace: 1000,
      bytesPerWorkspace: 50_000,
      now: () => now,
    });
    const stage = idempotency({ store, keyLength });
    const big = async (): Promise<MockResponse> => ({ status: 200, headers: {}, body: { blob: 'x'.repeat(10_000) } });
    await stage(post({ other: 1 }, 'k', 'other-ws'), big);
    for (let i = 0; i < 20; i++) await stage(post({ i }, `k${i}`), big);
    expect(store.bytes('ws')).toBeLessThanOrEqual(50_000);
    expect(store.bytes('other-ws')).toBeGreaterThan(10_000);
    expect(await store.claim('ws', 'k0', 'x')).toMatchObject({ kind: 'new' });
    expect(await store.claim('ws', 'k19', fingerprintRequest(post({ i: 19 }, 'k19').req))).toMatchObject({
      kind: 'done',
      sameRequest: true,
    });
    now += 1;
  });

  it('should keep an answer and release the oldest over the byte budget in one commit, or change nothing', async () => {
    const failing = createFailingPort(createMemoryPort({ now: () => 0 }));
    const store = createIdempotencyStore({
      port: failing.port,
      ttlMs: DAY,
      capPerWorkspace: 1000,
      bytesPerWorkspace: 25_000,
      now: () => 0,
    });
    const stage = idempotency({ store, keyLength });
    const big = async (): Promise<MockResponse> => ({ status: 200, headers: {}, body: { blob: 'x'.repeat(10_000) } });
    await stage(post({ i: 0 }, 'k0'), big);
    await stage(post({ i: 1 }, 'k1'), big);
    const bytes = store.bytes('ws');
    failing.failNext(storesIdempotentAnswer);
    await expect(stage(post({ i: 2 }, 'k2'), big)).rejects.toThrow();
    expect(store.bytes('ws')).toBe(bytes);
    expect(await store.claim('ws', 'k0', fingerprintRequest(post({ i: 0 }, 'k0').req))).toMatchObject({ kind: 'done' });
    expect(await store.claim('ws', 'k2', 'x')).toMatchObject({ kind: 'new' });
    const commits = failing.calls.filter((c) => c.method === 'commit').length;
    await stage(post({ i: 3 }, 'k3'), big);
    expect(failing.calls.filter((c) => c.method === 'commit').length).toBe(commits + 1);
    expect(await store.claim('ws', 'k0', 'y')).toMatchObject({ kind: 'new' });
  });

  it('should release the key when the answer cannot be kept (all or nothing)', async () => {
    const { stage, store } = setup();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(stage(post({ a: 1 }), async () => ({ status: 200, headers: {}, body: circular }))).rejects.toThrow();
    expect(await store.size()).toBe(0);
  });

  it('should leave no trace of a failed request, so it can be retried with the same key', async () => {
    const { stage, handler, created } = setup();
    await expect(
      stage(post({ a: 1 }), async () => Promise.reject(new ApiError(400, 'invalid_request', 'x'))),
    ).rejects.toBeInstanceOf(ApiError);
    await stage(post({ a: 1 }), handler);
    expect(created()).toBe(1);
  });

  it.each([
    ['an empty key', '', {}],
    ['a key over 255 characters', 'k'.repeat(256), {}],
    ['a multipart request', 'k', { 'content-type': 'multipart/form-data; boundary=x' }],
  ])('should answer 400 for %s', async (_name, key, headers) => {
    const { stage, handler } = setup();
    await expect(stage(post({}, key, 'ws', headers), handler)).rejects.toMatchObject({ status: 400 });
  });

  it('should count the key in characters as the schema maxLength does: 255 emoji pass, 256 do not', async () => {
    expect(idempotencyKeyMaxLength).toBe(255);
    const { stage, handler, created } = setup();
    const emoji = '\u{1F600}';
    await expect(stage(post({}, emoji.repeat(255)), handler)).resolves.toMatchObject({ status: 201 });
    await expect(stage(post({}, emoji.repeat(256)), handler)).rejects.toMatchObject({
      status: 400,
      reason: 'invalid_idempotency_key',
      message: expect.stringContaining('got 256'),
    });
    // As Node hands the header over: its UTF-8 bytes one latin1 character each (1020 of them for 255 emoji),
    // read as the same key (a replay, nothing created).
    const asSent = Buffer.from(emoji.repeat(255), 'utf8').toString('latin1');
    const ctx = post({}, asSent);
    await expect(stage(ctx, handler)).resolves.toMatchObject({ status: 201 });
    expect(created()).toBe(1);
    expect(ctx.req.headers['idempotency-key']).toBe(emoji.repeat(255));
    const over = Buffer.from(emoji.repeat(256), 'utf8').toString('latin1');
    await expect(stage(post({ c: 1 }, over), handler)).rejects.toMatchObject({ status: 400 });
  });

  it.each([
    ['plain ASCII', 'abc-123', 'abc-123'],
    ['UTF-8 bytes', Buffer.from('clé-\u{1F600}', 'utf8').toString('latin1'), 'clé-\u{1F600}'],
    ['bytes that are not UTF-8', '\xe9t\xe9', '\xe9t\xe9'],
    ['text already decoded', 'clé-\u{1F600}', 'clé-\u{1F600}'],
  ])('should read the key of %s as the characters it spells', (_name, sent, want) => {
    expect(readIdempotencyKey(sent)).toBe(want);
  });

  it('should accept a key of exactly 255 characters and ignore GET', async () => {
    const { stage, handler } = setup();
    await expect(stage(post({}, 'k'.repeat(255)), handler)).resolves.toMatchObject({ status: 201 });
    const get = makeCtx({ headers: { 'idempotency-key': 'k'.repeat(300) } });
    await expect(stage(get, handler)).resolves.toMatchObject({ status: 201 });
  });
});
