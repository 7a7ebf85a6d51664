import { join } from 'node:path';
import { safeDict } from '../safety/dict';
import { startMock, type MockOptions, type RunningMock } from '../app';
import { formatViolation, loadContract } from '../../spec/lib';

export const SPEC_PATH = join(__dirname, '..', '..', 'spec', 'openapi.yaml');

export type CallOptions = {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: string;
};
// `any`: tests read the answer's JSON by its paths (`body.runs[0].uuid`); the client has already validated it
// against the contract's schema for its status, so a wrong shape fails there, not as a type error here.
export type CallResult = { status: number; headers: Record<string, string>; body: any };

/**
 * Starts a mock on an ephemeral port and returns a client whose every response is checked against the spec;
 * a violation throws, so the test that received it fails (x-rules response-conformance).
 */
export async function startCheckedMock(options: MockOptions = {}) {
  const contract = loadContract(SPEC_PATH);
  // The mock checks its own answers too (check-response stage), so a violation the client cannot see still fails.
  const serverViolations: string[] = [];
  const mock: RunningMock = await startMock({
    port: 0,
    onContractViolation: (v) => serverViolations.push(...v),
    ...options,
  });

  async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? 'mock-token-a' : options.token;
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = `${mock.url}${path}${options.query ? `?${options.query}` : ''}`;
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    const result: CallResult = {
      status: response.status,
      headers: readHeaders(response.headers),
      body: text ? JSON.parse(text) : undefined,
    };
    const observed = { method, path, status: result.status, headers: result.headers, body: result.body };
    const violations = contract.validateResponse(observed).map((v) => formatViolation(observed, v));
    if (violations.length > 0) throw new Error(`response breaks the contract:\n${violations.join('\n')}`);
    return result;
  }

  const close = async () => {
    await mock.close();
    if (serverViolations.length > 0)
      throw new Error(`the mock sent responses that break the contract:\n${serverViolations.join('\n')}`);
  };
  return { mock, call, close };
}

function readHeaders(headers: Headers): Record<string, string> {
  const out = safeDict<string>();
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
