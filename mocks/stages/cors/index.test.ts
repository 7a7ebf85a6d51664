import { makeCtx, okNext } from '../../testing/ctx';
import { loadContract } from '../../../spec/lib';
import { API_CORS, AUTH_CORS, CONTROL_CORS, EXPOSED_HEADERS, answerPreflight, type CorsPolicy } from '.';

describe('CORS per mount', () => {
  it.each([
    ['API', API_CORS, 'DELETE', 'true'],
    ['OAuth', AUTH_CORS, undefined, undefined],
    ['control plane', CONTROL_CORS, 'PATCH', undefined],
  ] as [string, CorsPolicy, string | undefined, string | undefined][])(
    'should answer a preflight of the %s with its own policy, without going further',
    async (_name, policy, method, privateNetwork) => {
      const ctx = makeCtx({
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'POST', 'access-control-request-private-network': 'true' },
      });
      const next = okNext();
      const answer = await answerPreflight(policy)(ctx, next);
      expect([answer.status, next.calls]).toEqual([204, 0]);
      expect(answer.headers['access-control-allow-methods']).toBe(policy.allowMethods);
      if (method) expect(answer.headers['access-control-allow-methods']).toContain(method);
      expect(answer.headers['access-control-allow-private-network']).toBe(privateNetwork);
    },
  );

  it('should pass on an OPTIONS that is not a preflight, and every other method', async () => {
    for (const ctx of [makeCtx({ method: 'OPTIONS' }), makeCtx({ method: 'GET' })]) {
      const next = okNext();
      await answerPreflight(API_CORS)(ctx, next);
      expect(next.calls).toBe(1);
    }
  });
});

describe('exposed headers (x-rules: ratelimit-headers-every-response)', () => {
  it('should expose to browser scripts every response header the contract declares, on every mount', () => {
    const declared = new Set(
      loadContract().operations.flatMap((op) =>
        Object.values(op.responses).flatMap((response) => Object.keys(response.headers)),
      ),
    );
    expect(declared.size).toBeGreaterThan(5);
    for (const policy of [API_CORS, AUTH_CORS, CONTROL_CORS]) {
      const exposed = policy.exposeHeaders.toLowerCase().split(', ');
      for (const name of [...declared, 'WWW-Authenticate', 'Allow']) expect(exposed).toContain(name.toLowerCase());
      expect(exposed).toEqual(EXPOSED_HEADERS.map((name) => name.toLowerCase()));
    }
  });
});
