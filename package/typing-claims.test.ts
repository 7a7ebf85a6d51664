/**
 * The README's claims about what fails to compile with openapi-fetch and the generated types, each as written
 * there: a line under `@ts-expect-error` fails the compile (`npm run typecheck`) if it ever compiles, and a line
 * without one fails it if it stops compiling, so the README is told when openapi-fetch's checks change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import type { components, operations, paths } from '../generators/generated/openapi';

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1', headers: { Authorization: 'Bearer t' } });

export const failsToCompile = {
  // @ts-expect-error a wrong path
  path: () => api.GET('/mailboxManagement/supressions'),
  // @ts-expect-error a misspelled key of params
  paramsKey: () => api.GET('/mailboxManagement/suppressions', { params: { qeury: { limit: 10 } } }),
  // @ts-expect-error a body field misspelled, standing alone
  bodyAlone: () => api.PUT('/workspaceManagement/workspaces/current', { body: { nmae: 'Acme' } }),
  // @ts-expect-error a query parameter misspelled, standing alone
  queryAlone: () => api.GET('/mailboxManagement/suppressions', { params: { query: { limti: 10 } } }),
  // @ts-expect-error a value of the wrong type
  wrongType: () => api.GET('/mailboxManagement/suppressions', { params: { query: { limit: '5' } } }),
  // @ts-expect-error a value outside its enum
  outsideEnum: () => api.GET('/mailboxManagement/suppressions', { params: { query: { reasons: ['manul'] } } }),
  responseField: async () => {
    const { data } = await api.GET('/mailboxManagement/suppressions');
    // @ts-expect-error a response field that does not exist
    return data?.supressions;
  },
  bodySatisfies: () =>
    api.PUT('/workspaceManagement/workspaces/current', {
      // @ts-expect-error beside a correct field, with satisfies
      body: { name: 'Acme', nmae: 'x' } satisfies components['schemas']['UpdateWorkspaceRequest'],
    }),
  querySatisfies: () =>
    api.GET('/mailboxManagement/suppressions', {
      // @ts-expect-error beside a correct parameter, with satisfies
      params: { query: { limit: 10, limti: 5 } satisfies operations['listSuppressions']['parameters']['query'] },
    }),
};

export const stillCompiles = {
  // A misspelled field or parameter beside a correct one: openapi-fetch infers the options from the argument.
  bodyBeside: () => api.PUT('/workspaceManagement/workspaces/current', { body: { name: 'Acme', nmae: 'x' } }),
  queryBeside: () => api.GET('/mailboxManagement/suppressions', { params: { query: { limit: 10, limti: 5 } } }),
};

describe("the README's typing claims", () => {
  it('should name this file beside the claims, and quote the cases compiled here', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain('`package/typing-claims.test.ts` compiles each of these cases');
    for (const quoted of [
      "`{ nmae: 'Acme' }`",
      '`{ limti: 10 }`',
      "`limit: '5'`",
      "`reasons: ['manul']`",
      '`data.supressions`',
      "`{ name: 'Acme', nmae: 'x' }`",
      '`{ limit: 10, limti: 5 }`',
      "`satisfies operations['listSuppressions']['parameters']['query']`",
      "`satisfies components['schemas']['UpdateWorkspaceRequest']`",
      '`qeury`',
    ])
      expect(readme).toContain(quoted);
    expect(Object.keys(failsToCompile)).toHaveLength(9);
    expect(Object.keys(stillCompiles)).toHaveLength(2);
  });
});
