import { loadContract } from '../../../spec/lib';
import type { RouteMatch } from '../../context';
import { makeCtx, okNext } from '../../testing/ctx';
import { validateRequest } from '.';

async function setup() {
  const contract = loadContract();
  const stage = validateRequest({ params: contract.schemas({ coerce: true }), body: contract.schemas() });
  const matchRoute = (method: string, path: string): RouteMatch | undefined => {
    const found = contract.route(method, path);
    return found.kind === 'match' ? found : undefined;
  };
  return (method: string, path: string, init: { query?: string; body?: unknown } = {}) => {
    const ctx = makeCtx({ method, path, query: init.query });
    ctx.route = matchRoute(method, path);
    ctx.req.body = init.body;
    return stage(ctx, okNext()).then(
      () => ctx,
      (error) => Promise.reject(error),
    );
  };
}

describe('validate-request stage (x-rules request-validation)', () => {
  let run: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    run = await setup();
  });

  it.each([
    [
      'limit above its maximum',
      'GET',
      '/mailboxManagement/suppressions',
      { query: 'limit=1001' },
      'limit: must be <= 1000',
    ],
    ['limit of 0', 'GET', '/mailboxManagement/suppressions', { query: 'limit=0' }, 'limit: must be >= 1'],
    [
      'offset past 2^53-1',
      'GET',
      '/mailboxManagement/suppressions',
      { query: 'offset=9007199254740992' },
      'offset: must be <= 9007199254740991',
    ],
    [
      'an unknown reason',
      'GET',
      '/mailboxManagement/suppressions',
      { query: 'reasons=lost' },
      'reasons.0: must be equal to one of the allowed values',
    ],
    [
      'an unknown tab',
      'GET',
      '/expression/recipes/list',
      { query: 'tab=mine' },
      'tab: must be equal to one of the allowed values',
    ],
    [
      'a name of 256 characters',
      'POST',
      '/ai/mcpServers',
      { body: { name: 'n'.repeat(256) } },
      'body.name: must NOT have more than 255 characters',
    ],
    [
      'an empty description',
      'POST',
      '/ai/mcpServers',
      { body: { description: '' } },
      'body.description: must NOT have fewer than 1 characters',
    ],
    ['a missing query', 'POST', '/orchestration/query', { body: {} }, 'body.query: is required'],
    ['a non-UUID path parameter', 'GET', '/storage/models/123', {}, 'uuid: must match pattern'],
    ['a missing body', 'POST', '/orchestration/query', {}, 'body: is required'],
  ])('should answer 400 naming the field for %s', async (_name, method, path, init, message) => {
    await expect(run(method, path, init)).rejects.toMatchObject({
      status: 400,
      reason: 'invalid_request',
      message: expect.stringContaining(message),
    });
  });

  it('should coerce query values to their declared types and ignore unknown parameters', async () => {
    const ctx = await run('GET', '/mailboxManagement/suppressions', {
      query: 'limit=5&offset=2&reasons=bounced&extra=1',
    });
    expect(ctx.input!.query).toEqual({ limit: 5, offset: 2, reasons: ['bounced'] });
  });

  it('should accept unknown body fields (objects are open)', async () => {
    await expect(run('POST', '/ai/mcpServers', { body: { name: 'ok', somethingNew: true } })).resolves.toBeDefined();
  });
});
