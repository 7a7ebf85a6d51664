import { ApiError } from '../../errors';
import { makeCtx, okNext } from '../../testing/ctx';
import { requireCredential } from '.';

describe('require-credential stage', () => {
  it('should answer the recorded 401 when no caller was found', async () => {
    const ctx = makeCtx();
    ctx.authError = new ApiError(401, 'unauthorized', 'Authorization: header is missing.');
    await expect(requireCredential()(ctx, okNext())).rejects.toBe(ctx.authError);
  });

  it('should pass on for an authenticated caller', async () => {
    const ctx = makeCtx();
    ctx.caller = { workspaceUuid: 'ws', via: 'token' };
    await expect(requireCredential()(ctx, okNext())).resolves.toMatchObject({ status: 200 });
  });
});
