import { makeCtx } from '../../testing/ctx';
import { handle } from '.';

function setup() {
  const used: string[] = [];
  const prism = {
    warm: async () => undefined,
    respond: async () => (used.push('prism'), { status: 418, headers: {}, body: {} }),
  };
  const handlers = { listSuppressions: () => (used.push('handler'), { status: 200, headers: {}, body: {} }) };
  const stage = handle({ handlers, prism });
  const ctx = (operationId: string, prefer?: string) =>
    Object.assign(makeCtx({ headers: prefer ? { prefer } : {} }), {
      route: { operation: { operationId } as never, params: {} },
      caller: { workspaceUuid: 'ws', via: 'token' as const },
      input: { query: {}, path: {} },
    });
  return { stage, ctx, used };
}

describe('handle stage', () => {
  it.each([
    ['state for an operation with a handler', 'listSuppressions', undefined, 'handler'],
    ['Prism for Prefer: code', 'listSuppressions', 'code=404', 'prism'],
    ['Prism for Prefer: example', 'listSuppressions', 'example=empty', 'prism'],
    ['Prism for Prefer: dynamic=true', 'listSuppressions', 'dynamic=true', 'prism'],
    ['state when Prefer asks only for latency', 'listSuppressions', 'latency=10', 'handler'],
    ['Prism for an operation without a handler', 'otherThing', undefined, 'prism'],
  ])('should use %s', async (_name, operationId, prefer, want) => {
    const { stage, ctx, used } = setup();
    await stage(ctx(operationId, prefer), async () => ({ status: 0, headers: {}, body: undefined }));
    expect(used).toEqual([want]);
  });
});
