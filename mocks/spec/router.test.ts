import { createRouter } from './router';
import type { OperationInfo } from './load';

const op = (method: string, pathTemplate: string, operationId: string) => ({ method, pathTemplate, operationId }) as OperationInfo;
const matchRoute = createRouter([
  op('POST', '/orchestration/runs', 'createRun'),
  op('GET', '/orchestration/runs/{uuid}', 'getRun'),
  op('POST', '/orchestration/runs/download', 'downloadRuns'),
  op('POST', '/orchestration/runs/{uuid}/cancel', 'cancelRun'),
]);

describe('router', () => {
  it.each([
    ['POST', '/orchestration/runs', 'createRun', {}],
    ['POST', '/orchestration/runs/', 'createRun', {}],
    ['GET', '/orchestration/runs/abc', 'getRun', { uuid: 'abc' }],
    ['POST', '/orchestration/runs/download', 'downloadRuns', {}],
    ['POST', '/orchestration/runs/a%20b/cancel', 'cancelRun', { uuid: 'a b' }],
  ])('should route %s %s to %s', (method, path, operationId, params) => {
    const match = matchRoute(method, path);
    expect(match.operation.operationId).toBe(operationId);
    expect(match.params).toEqual(params);
  });

  it('should answer 404 for an unknown path and 405 with Allow for an undeclared method', () => {
    expect(() => matchRoute('GET', '/nothing')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => matchRoute('DELETE', '/orchestration/runs')).toThrow(expect.objectContaining({ status: 405, headers: { allow: 'POST' } }));
  });
});
