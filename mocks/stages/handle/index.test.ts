import { makeCtx } from '../../testing/ctx';
import { handle } from '.';

function setup() {
  const used: string[] = [];
  const prism = { warm: async () => undefined, respond: async () => (used.push('prism'), { status: 418, headers: {}, body: {} }) };
  const handlers = { listThings: () => (used.push('handler'), { status: 200, headers: {}, body: {} }) };
  const stage = handle({ handlers, prism });
  const ctx = (operationId: string, prefer?: string) => Object.assign(makeCtx({ headers: prefer ? { prefer } : {} }), { route: { operation: { operationId } as never, params: {} } });
  return { stage, ctx, used };
}

describe('handle stage', () => {
  it.each([
    ['state for an operation with a handler', 'listThings', undefined, 'handler'],
    ['Prism for Prefer: code', 'listThings', 'code=404', 'prism'],
    ['Prism for Prefer: example', 'listThings', 'example=empty', 'prism'],
    ['Prism for Prefer: dynamic=true', 'listThings', 'dynamic=true', 'prism'],
    ['state when Prefer asks only for latency', 'listThings', 'latency=10', 'handler'],
    ['Prism for an operation without a handler', 'otherThing', undefined, 'prism'],
  ])('should use %s', async (_name, operationId, prefer, want) => {
    const { stage, ctx, used } = setup();
    await stage(ctx(operationId, prefer), async () => ({ status: 0, headers: {}, body: undefined }));
    expect(used).toEqual([want]);
  });
});
