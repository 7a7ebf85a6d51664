import type { RouteResult } from '../../../spec/lib';
import { makeCtx, okNext } from '../../testing/ctx';
import { outsideBase, route } from '.';
import { findInTable } from './table';
import { ApiError } from '../../errors';

const router = (method: string, path: string): RouteResult => {
  if (path !== '/things') return { kind: 'not-found' };
  if (method === 'GET') return { kind: 'match', operation: { operationId: 'listThings' } as never, params: {} };
  return { kind: 'method-not-allowed', allow: ['GET'] };
};

describe('route stage', () => {
  it('should find the operation, routing HEAD like GET', async () => {
    for (const method of ['GET', 'HEAD']) {
      const ctx = makeCtx({ method, path: '/things' });
      await route({ route: router })(ctx, okNext());
      expect([method, ctx.req.operationId]).toEqual([method, 'listThings']);
    }
  });

  it.each([
    ['an unknown path', 'GET', '/nowhere', 404, 'not_found', undefined],
    ['an undeclared method', 'DELETE', '/things', 405, 'method_not_allowed', 'GET'],
  ])('should answer %s at once', async (_name, method, path, status, reason, allow) => {
    const answer = route({ route: router })(makeCtx({ method, path }), okNext());
    await expect(answer).rejects.toMatchObject({ status, reason, headers: allow ? { allow } : {} });
  });

  it('should answer 404 for a path outside the base path, even one that names an operation', async () => {
    await expect(outsideBase('/v1')(makeCtx({ path: '/things' }), okNext())).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('/v1'),
    });
  });

  it('should answer the small mounts the same way (404, 405 with Allow, a trailing slash ignored)', () => {
    const table = new Map([['/__mock/reset', new Map([['POST', 'reset']])]]);
    const notFound = () => new ApiError(404, 'not_found', 'none');
    expect(findInTable(table, 'POST', '/__mock/reset/', notFound)).toBe('reset');
    expect(() => findInTable(table, 'GET', '/__mock/x', notFound)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => findInTable(table, 'GET', '/__mock/reset', notFound)).toThrow(
      expect.objectContaining({ status: 405, headers: { allow: 'POST' } }),
    );
  });
});
