import { ApiError } from '../../errors';
import { makeCtx, okNext } from '../../testing/ctx';
import { requireCredential } from '.';

describe('require-credential stage', () => {
  it('should answer 401 saying why, when authenticate found no caller', async () => {
    const ctx = makeCtx();
    ctx.identity = { unidentified: 'Authorization: header is missing.' };
    const answer = requireCredential()(ctx, okNext());
    await expect(answer).rejects.toBeInstanceOf(ApiError);
    await expect(answer).rejects.toMatchObject({
      status: 401,
      reason: 'unauthorized',
      message: 'Authorization: header is missing.',
      headers: { 'www-authenticate': 'Bearer realm="api"' },
    });
  });

  it('should pass on for an authenticated caller, scoping the request to its workspace', async () => {
    const ctx = makeCtx();
    ctx.identity = { caller: { workspaceUuid: 'ws', via: 'token' } };
    await expect(requireCredential()(ctx, okNext())).resolves.toMatchObject({ status: 200 });
    expect([ctx.caller?.workspaceUuid, ctx.req.workspaceUuid]).toEqual(['ws', 'ws']);
  });
});
