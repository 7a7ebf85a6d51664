import type { Exchange } from './http-client';
import { toCurl, toFailure } from './failure';

const exchange = {
  id: 1,
  checkId: 'c',
  tokenLabel: 'a',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:4010/v1/ai/mcpServers',
    path: '/ai/mcpServers',
    headers: { Authorization: 'Bearer secret', 'Content-Type': 'application/json' },
    body: { name: "it's" },
    rawBody: '{"name":"it\'s"}',
  },
  response: { status: 400, headers: {}, body: { errorMessage: 'x' }, text: '{"errorMessage":"x"}' },
  sentAt: 0,
  receivedAt: 0,
  sentTick: 1,
  receivedTick: 2,
} as Exchange;

describe('toCurl', () => {
  it('should write the suite token as a variable and quote the body for the shell', () => {
    expect(toCurl(exchange)).toBe(
      `curl -i -X POST 'http://127.0.0.1:4010/v1/ai/mcpServers' -H "Authorization: Bearer $CONFORMANCE_TOKEN" -H 'Content-Type: application/json' --data-raw '{"name":"it'\\''s"}'`,
    );
  });
});

describe('toFailure', () => {
  it('should type a failure with its rule, the exchange and a reproduction, never the token', () => {
    const failure = toFailure({ title: 'T', expected: 'e', received: 'r', exchange }, 'check-id', 'rule-id');
    expect(failure).toMatchObject({
      ruleId: 'rule-id',
      checkId: 'check-id',
      severity: 'failure',
      response: { status: 400 },
    });
    expect(JSON.stringify(failure)).not.toContain('secret');
    expect(failure.reproduce).toMatch(/^curl /);
  });
});
