import { ApiError } from '../../errors';
import { makeCtx, okNext } from '../../testing/ctx';
import { requireCredential } from '.';

describe('require-credential stage', () => {
  it("should answer authenticate's 401 when no caller was found", async () => {
    const ctx = makeCtx();
    const refusal = new ApiError(401, 'unauthorized', 'Authorization: header is missing.');
    ctx.identity = { refusal };
    await expect(requireCredential()(ctx, okNext())).rejects.toBe(refusal);
  });

  it('should pass on for an authenticated caller, scoping the request to its workspace', async () => {
    const ctx = makeCtx();
    ctx.identity = { caller: { workspaceUuid: 'ws', via: 'token' } };
    await expect(requireCredential()(ctx, okNext())).resolves.toMatchObject({ status: 200 });
    expect([ctx.caller?.workspaceUuid, ctx.req.workspaceUuid]).toEqual(['ws', 'ws']);
  });
});
