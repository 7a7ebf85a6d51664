import { jsonContent, loadContract, type JsonObject } from '../../../spec/lib';
import type { RouteMatch } from '../../context';
import { makeCtx, okNext } from '../../testing/ctx';
import { validateRequest } from '.';
import { defined } from '../../testing/defined';

async function setup() {
  const contract = loadContract();
  const stage = validateRequest({
    params: contract.schemas({ coerce: true, allErrors: true }),
    body: contract.schemas({ allErrors: true }),
  });
  const matchRoute = (method: string, path: string): RouteMatch | undefined => {
    const found = contract.route(method, path);
    return found.kind === 'match' ? found : undefined;
  };
  return (method: string, path: string, init: { query?: string; body?: unknown } = {}) => {
    const ctx = makeCtx({ method, path, query: init.query });
    ctx.route = matchRoute(method, path);
    ctx.req = { ...ctx.req, body: init.body };
    return Promise.resolve(stage(ctx, okNext())).then(
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
      'limit: must be at most 1000',
    ],
    ['limit of 0', 'GET', '/mailboxManagement/suppressions', { query: 'limit=0' }, 'limit: must be at least 1'],
    [
      'offset past 2^53-1',
      'GET',
      '/mailboxManagement/suppressions',
      { query: 'offset=9007199254740992' },
      'offset: must be at most 9007199254740991',
    ],
    [
      'an unknown reason',
      'GET',
      '/mailboxManagement/suppressions',
      { query: 'reasons=lost' },
      'reasons/0: must be one of: "unsubscribed", "bounced"',
    ],
    ['an unknown tab', 'GET', '/expression/recipes/list', { query: 'tab=mine' }, 'tab: must be one of: '],
    [
      'a name of 256 characters',
      'POST',
      '/ai/mcpServers',
      { body: { name: 'n'.repeat(256) } },
      'body/name: must have at most 255 characters',
    ],
    [
      'an empty description',
      'POST',
      '/ai/mcpServers',
      { body: { description: '' } },
      'body/description: must have at least 1 character',
    ],
    ['a missing query', 'POST', '/orchestration/query', { body: {} }, 'body/query: is required'],
    ['a non-UUID path parameter', 'GET', '/storage/models/123', {}, 'uuid: must be a UUID (versions 1–8'],
    ['a missing body', 'POST', '/orchestration/query', {}, 'body: is required'],
  ])('should answer 400 naming the field for %s', async (_name, method, path, init, message) => {
    await expect(run(method, path, init)).rejects.toMatchObject({
      status: 400,
      reason: 'invalid_request',
      message: expect.stringContaining(message),
    });
  });

  it('should list every problem of a request once, each with its part and JSON pointer', async () => {
    const error = await run('POST', '/ai/mcpServers', {
      query: '',
      body: { name: 'n'.repeat(256), description: '' },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      reason: 'invalid_request',
      message: 'body/name: must have at most 255 characters; body/description: must have at least 1 character',
      extra: {
        location: 'body',
        problems: [
          { in: 'body', pointer: '/name', message: 'must have at most 255 characters' },
          { in: 'body', pointer: '/description', message: 'must have at least 1 character' },
        ],
      },
    });
  });

  it('should list every problem of the parameters, a repeated one included, and name the UUID rule', async () => {
    const error = (await run('GET', '/mailboxManagement/suppressions', {
      query: 'limit=0&offset=-1&reasons=lost&limit=3',
    }).catch((e: unknown) => e)) as { extra: { problems: { in: string; pointer: string; message: string }[] } };
    expect(error.extra.problems).toEqual([
      { in: 'query', pointer: '/limit', message: 'must be given once, got 2 values' },
      { in: 'query', pointer: '/reasons/0', message: expect.stringMatching(/^must be one of: /) },
      { in: 'query', pointer: '/offset', message: 'must be at least 0' },
    ]);
    const uuid = (await run('GET', '/storage/models/123').catch((e: unknown) => e)) as { message: string };
    expect(uuid.message).not.toMatch(/\[0-9a-fA-F\]/);
  });

  it('should answer every operation with a JSON body: each wrong field once, at its pointer, its rule in words', async () => {
    const contract = loadContract();
    const uuid = '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b';
    let checked = 0;
    for (const op of contract.operations) {
      const json = jsonContent(op.requestBody?.content);
      if (!json?.schemaPointer) continue;
      const properties = Object.keys((contract.resolve(json.schemaPointer) as JsonObject).properties ?? {});
      if (properties.length === 0) continue;
      // 12.5 breaks every type but number; a string with `<` breaks every uuid, enum, format and pattern.
      for (const wrong of [12.5, '<not-a-uuid>']) {
        const body = Object.fromEntries(properties.map((name) => [name, wrong]));
        const path = op.path.replace(/\{[^}]+\}/g, uuid);
        const error = (await run(op.method, path, { body }).then(
          () => undefined,
          (e: unknown) => e,
        )) as { message: string; extra: { problems: { in: string; pointer: string; message: string }[] } } | undefined;
        const problems = error?.extra.problems ?? [];
        if (typeof wrong === 'number') expect(problems.length).toBeGreaterThan(0);
        const pointers = problems.map((p) => `${p.in} ${p.pointer}`);
        expect(new Set(pointers).size).toBe(pointers.length);
        for (const problem of problems) {
          expect(problem).toMatchObject({ in: 'body', pointer: expect.stringMatching(/^\/[^/]+$/) });
          expect(problem.message).not.toMatch(/must NOT|must match pattern|must match a schema|\[0-9a-fA-F\]|\{8\}/);
        }
        if (error) expect(error.message.length).toBeLessThan(200 * problems.length);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('should coerce query values to their declared types and ignore unknown parameters', async () => {
    const ctx = await run('GET', '/mailboxManagement/suppressions', {
      query: 'limit=5&offset=2&reasons=bounced&extra=1',
    });
    expect(defined(ctx.input, 'ctx.input').query).toEqual({ limit: 5, offset: 2, reasons: ['bounced'] });
  });

  it('should accept unknown body fields (objects are open)', async () => {
    await expect(run('POST', '/ai/mcpServers', { body: { name: 'ok', somethingNew: true } })).resolves.toBeDefined();
  });
});
