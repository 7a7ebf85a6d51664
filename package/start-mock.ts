/**
 * `startMock()`: the mock in this process for a test runner's global set-up, configured from the environment
 * exactly as the `workspace-api-mock` command reads it (PORT=0 for a free port). It resolves once the mock
 * answers, and rejects with the mock's own error when it cannot start (a bad MOCK_* setting, fixtures that break
 * the contract, a port in use), so the test run fails saying why instead of waiting for output that never comes.
 */
import { startMock as startMockServer } from '../mocks/app';
import { readConfigFromEnv } from '../mocks/config';
import type { UsageReport } from '../mocks/control/usage';

export type StartedMock = {
  /** e.g. http://127.0.0.1:39123: the control plane is at `${origin}/__mock`, OAuth at `${origin}/auth`. */
  origin: string;
  /** The API's base URL: `${origin}/v1`. */
  url: string;
  /** What the API answered (`GET /__mock/usage`), of one workspace or of all. */
  usage(workspaceUuid?: string): UsageReport;
  /**
   * Stops the mock: no new connections, requests in flight get `graceMs` (default 1000) to finish, then the port
   * is free; with MOCK_USAGE_REPORT set, the usage report is written.
   */
  close(options?: { graceMs?: number }): Promise<void>;
};

/** The mock could not start: its own message (which setting, which file, which port), the cause attached. */
export class MockStartError extends Error {
  constructor(cause: unknown) {
    super(`workspace-api-mock failed to start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MockStartError';
  }
}

/**
 * Starts the mock with the settings of `env` (default `process.env`; e.g. `{ ...process.env, PORT: '0' }`), as
 * the command does: the same variables, defaults and refusals; MOCK_CHECK_RESPONSES=1 logs to stderr.
 */
export async function startMock(env: Record<string, string | undefined> = process.env): Promise<StartedMock> {
  try {
    const config = readConfigFromEnv(env);
    const onContractViolation =
      env.MOCK_CHECK_RESPONSES === '1'
        ? (violations: string[]) =>
            process.stderr.write(`mock: response breaks the contract:\n  ${violations.join('\n  ')}\n`)
        : undefined;
    const mock = await startMockServer({ ...config, onContractViolation });
    return {
      origin: mock.origin,
      url: mock.url,
      usage: (workspaceUuid) => mock.usage(workspaceUuid),
      close: (options = {}) => mock.close({ graceMs: options.graceMs ?? 1_000 }),
    };
  } catch (error) {
    throw new MockStartError(error);
  }
}
