import { makeCtx } from '../../testing/ctx';
import type { MockResponse } from '../../types';
import { allOrNothing, rollBack, undoOnFailure } from '.';

describe('all or nothing', () => {
  const answer = (status: number) => async (): Promise<MockResponse> => ({ status, headers: {}, body: {} });

  it.each([
    ['a thrown error', () => Promise.reject(new Error('late failure')), true],
    ['an error answer', answer(500), true],
    ['a 4xx answer', answer(409), true],
    ['a success', answer(201), false],
  ])('should take back the writes after %s', async (_name, rest, undone) => {
    const ctx = makeCtx({ method: 'POST' });
    const order: string[] = [];
    const next = async () => {
      undoOnFailure(ctx, async () => void order.push('first'));
      undoOnFailure(ctx, async () => void order.push('second'));
      return rest();
    };
    await Promise.resolve(allOrNothing()(ctx, next)).catch(() => undefined);
    expect(order).toEqual(undone ? ['second', 'first'] : []);
  });

  it('should run each undo once, and go on past one that fails', async () => {
    const ctx = makeCtx();
    const done: string[] = [];
    undoOnFailure(ctx, async () => void done.push('a'));
    undoOnFailure(ctx, () => Promise.reject(new Error('store down')));
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await rollBack(ctx);
    await rollBack(ctx);
    write.mockRestore();
    expect(done).toEqual(['a']);
  });
});
