import { contractFromDocument } from './contract';

const op = (operationId: string) => ({ operationId, responses: {} });
const { route } = contractFromDocument({
  openapi: '3.1.0',
  paths: {
    '/runs': { post: op('createRun') },
    '/runs/{uuid}': { get: op('getRun'), delete: op('deleteRun') },
    '/runs/download': { post: op('downloadRuns') },
    '/runs/{uuid}/cancel': { post: op('cancelRun') },
    // Ties: at the first segment where they differ the literal one wins, whatever the document order.
    '/a/{x}/b': { get: op('templatedThenLiteral') },
    '/a/b/{y}': { get: op('literalThenTemplated') },
    // Same shape: document order decides.
    '/c/{first}': { get: op('firstDeclared') },
    '/c/{second}': { get: op('secondDeclared'), put: op('putSecond') },
  },
});

describe('router', () => {
  it.each([
    ['POST', '/runs', 'createRun', {}],
    ['POST', '/runs/', 'createRun', {}],
    ['post', '/runs?x=1', 'createRun', {}],
    ['GET', '/runs/abc', 'getRun', { uuid: 'abc' }],
    ['POST', '/runs/download', 'downloadRuns', {}],
    ['GET', '/runs/download', 'getRun', { uuid: 'download' }],
    ['POST', '/runs/a%20b/cancel', 'cancelRun', { uuid: 'a b' }],
    ['POST', '/runs/%E0%A4%A/cancel', 'cancelRun', { uuid: '%E0%A4%A' }],
    ['GET', '/a/b/b', 'literalThenTemplated', { y: 'b' }],
    ['GET', '/a/z/b', 'templatedThenLiteral', { x: 'z' }],
    ['GET', '/c/1', 'firstDeclared', { first: '1' }],
    ['PUT', '/c/1', 'putSecond', { second: '1' }],
  ])('should route %s %s to %s', (method, path, operationId, params) => {
    const found = route(method, path);
    expect(found.kind === 'match' && [found.operation.operationId, found.params]).toEqual([operationId, params]);
  });

  it.each([
    ['GET', '/nothing', { kind: 'not-found' }],
    ['GET', '/runs/a/b', { kind: 'not-found' }],
    ['DELETE', '/runs', { kind: 'method-not-allowed', allow: ['POST'] }],
    ['PATCH', '/runs/abc', { kind: 'method-not-allowed', allow: ['GET', 'DELETE'] }],
    // /runs/download exists for POST; GET falls to /runs/{uuid}, PUT to neither.
    ['PUT', '/runs/download', { kind: 'method-not-allowed', allow: ['POST', 'GET', 'DELETE'] }],
  ])('should answer %s %s with %j', (method, path, want) => {
    expect(route(method, path)).toEqual(want);
  });
});
