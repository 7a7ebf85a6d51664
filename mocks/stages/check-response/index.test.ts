import { makeCtx } from '../../testing/ctx';
import { checkResponse } from '.';

describe('check-response stage', () => {
  it('should report violations and pass the response on unchanged', async () => {
    const reported: string[][] = [];
    const validate = ({ status }: { status: number }) => (status === 200 ? [] : [`status ${status} is not declared`]);
    const stage = checkResponse({ validate: validate as never, report: (v) => reported.push(v) });
    const teapot = { status: 418, headers: {}, body: { errorMessage: 'x' } };
    await expect(stage(makeCtx(), async () => teapot)).resolves.toBe(teapot);
    await stage(makeCtx(), async () => ({ status: 200, headers: {}, body: {} }));
    expect(reported).toEqual([['status 418 is not declared']]);
  });
});
