import { makeCtx, okNext } from '../../testing/ctx';
import { authenticate, identifyCaller, unauthorized } from '.';

const deps = {
  tokens: { 'mock-token-a': 'ws-a' },
  verifyAccessToken: async (token: string) =>
    token === 'jwt.ok.sig' ? { workspaceUuid: 'ws-oauth', sub: 'user-1' } : null,
};

describe('identifyCaller', () => {
  it.each([
    ['a static token', 'Bearer mock-token-a', { workspaceUuid: 'ws-a', via: 'token' }],
    ['a lowercase scheme', 'bearer mock-token-a', { workspaceUuid: 'ws-a', via: 'token' }],
    ['an OAuth access token', 'Bearer jwt.ok.sig', { workspaceUuid: 'ws-oauth', sub: 'user-1', via: 'oauth' }],
  ])('should accept %s', async (_name, header, want) => {
    expect(await identifyCaller(header, deps)).toEqual({ caller: want });
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic abc'],
    ['a scheme alone', 'Bearer'],
    ['two tokens', 'Bearer a b'],
    ['an unknown token', 'Bearer nope'],
  ])('should find no caller with %s, saying why (the 401 it gets)', async (_name, header) => {
    const result = await identifyCaller(header, deps);
    expect(result).toEqual({ unidentified: expect.stringMatching(/^Authorization: /) });
    if (!('unidentified' in result)) return;
    expect(unauthorized(result.unidentified)).toMatchObject({ status: 401, reason: 'unauthorized' });
  });
});

describe('authenticate stage', () => {
  it('should hand on why there is no caller as its result, so the request is still counted', async () => {
    const ctx = makeCtx();
    const next = okNext();
    await authenticate(deps)(ctx, next);
    expect(next.calls).toBe(1);
    expect(ctx.caller).toBeUndefined();
    expect(ctx.identity).toEqual({ unidentified: expect.stringMatching(/^Authorization: /) });
  });

  it('should name the caller of the token', async () => {
    const ctx = makeCtx({ headers: { authorization: 'Bearer mock-token-a' } });
    await authenticate(deps)(ctx, okNext());
    expect(ctx.identity).toEqual({ caller: { workspaceUuid: 'ws-a', via: 'token' } });
  });
});
