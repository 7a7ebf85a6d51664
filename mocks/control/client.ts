/**
 * A typed client of the mock's control plane for test suites (Playwright, Cypress, Vitest, Jest set-ups). Plain
 * `fetch`, no Node built-ins, so it runs in a browser as well as in Node 18+.
 *
 * Each tenant steers its own workspace with its own token (a token of the mock or an OAuth access token): a
 * team sharing one mock cannot touch another's state. The admin token (MOCK_ADMIN_TOKEN) steers every workspace.
 *
 * ```ts
 * import { createMockControl } from 'workspace-automation-api-contract/control';
 * const mock = createMockControl({ url: 'http://127.0.0.1:4010', token: 'mock-token-a' });
 * beforeEach(() => mock.reset()); // this token's workspace only
 * await mock.loadFixtures({ workspaces: { 'mock-token-a': { suppressions: [] } } });
 * await mock.forceOutcome('error');
 * ```
 */
// Standalone: it imports only types that import nothing (the fixture document's shape, and through it the
// generated types), so the package exports it as `./control` without the mock's dependencies.
import type { components, operations } from '../../generators/generated/openapi';
import type { Fixtures, WorkspaceFixtures } from './fixture-types';
import type { UsageReport } from './usage-report';

export type { Fixtures, WorkspaceFixtures };
export type { UsageGap, UsageReport, UsageRow } from './usage-report';
export { formatUsageMarkdown } from './usage-report';
export {
  pollBatch,
  PollError,
  pollLocation,
  pollRun,
  readBatchLocation,
  readRunLocation,
  TERMINAL_JOB_STATUSES,
  type Batch,
  type JobLocation,
  type PollOptions,
  type Run,
} from './poll';

/** An operation of the contract by its `operationId` (the generated `operations`): a misspelled one does not compile. */
export type OperationId = keyof operations & string;
/** Outcomes a created run can be told to end in (the terminal run statuses). */
export type Outcome = components['schemas']['TerminalRunStatus'];
/** Network faults: reset (TCP RST), empty (closed, no bytes), truncated, malformed-json, hang. */
export type Fault = 'reset' | 'empty' | 'truncated' | 'malformed-json' | 'hang';
/** A fault for a share of the requests of one operation (all operations when none is named), in one workspace or all. */
export type FaultSetting = { operation?: OperationId; fault: Fault; share: number; workspace?: string };
/** A workspace's own settings, over the defaults (its fault rules are listed in `faults` of its view). */
export type WorkspaceSettings = {
  outcome?: Outcome;
  runDurationMs?: number;
  rateLimit?: number;
  latencyMs?: number;
  hangMs?: number;
};

/**
 * What the control plane changes while the mock runs (`GET /__mock/settings`): with a tenant's token, what steers
 * its workspace (its own settings over the defaults, the fault rules that apply to it); with the admin token, the
 * defaults and every workspace's own settings.
 */
export type MockSettings = {
  rateLimit: number;
  /** Requests per window to the OAuth endpoints, per client address. */
  authRateLimit: number;
  latencyMs: number;
  runDurationMs: number;
  /** How long `fault=hang` holds the connection before dropping it. */
  hangMs: number;
  /** Per workspace uuid: the outcome and duration of the runs it creates. */
  workspaces: Record<string, WorkspaceSettings>;
  faults: FaultSetting[];
};

/**
 * A change. With a tenant's token: its own workspace's rateLimit, latencyMs, runDurationMs, hangMs, outcome and
 * faults. With the admin token: the defaults for everyone (and authRateLimit), workspaces by token or uuid (null
 * clears one, a null field clears it). Fault rules have `share` 1 by default.
 */
export type SettingsChange = Partial<Omit<MockSettings, 'workspaces' | 'faults'>> & {
  outcome?: Outcome | null;
  workspaces?: Record<string, { outcome?: Outcome | null; runDurationMs?: number | null } | null>;
  faults?: FaultRule[];
};
/** A fault rule as set: `share` is 1 (every request) when left out. */
export type FaultRule = Omit<FaultSetting, 'share'> & { share?: number };

export type CreatedEntry = {
  kind: 'mcpServer' | 'run' | 'batch' | 'download';
  uuid: string;
  workspaceUuid: string;
  createdAt: string | null;
  status?: string;
};

export type MockControlOptions = {
  /** The mock's origin or its API URL (`…/v1` is dropped); default `MOCK_URL` or http://127.0.0.1:4010. */
  url?: string;
  /** The tenant's token (default `MOCK_TOKEN`): the client steers that token's workspace. */
  token?: string;
  /** The mock's MOCK_ADMIN_TOKEN, for a client that steers every workspace (sent instead of `token`). */
  adminToken?: string;
  fetch?: typeof fetch;
};

/** A control-plane answer that was not 2xx: the mock's error body, with its `problems` when it lists them. */
export class MockControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: { errorMessage?: string; reason?: string; problems?: string[] },
  ) {
    super(
      `mock control: ${status} ${body.reason ?? ''}: ${body.errorMessage ?? ''}${body.problems ? `\n  ${body.problems.join('\n  ')}` : ''}`,
    );
    this.name = 'MockControlError';
  }
}

// dictionary-lookup: names are the two constants below
const env = (name: string): string | undefined => (typeof process !== 'undefined' ? process.env?.[name] : undefined);

export function createMockControl(options: MockControlOptions = {}) {
  const origin = (options.url ?? env('MOCK_URL') ?? 'http://127.0.0.1:4010').replace(/\/+$/, '').replace(/\/v1$/, '');
  const adminToken = options.adminToken;
  const token = options.token ?? env('MOCK_TOKEN');
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const headers: Record<string, string> = {};
    if (adminToken) headers['x-mock-admin-token'] = adminToken;
    else if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = contentType;
    const response = await doFetch(`${origin}/__mock${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : {};
    if (!response.ok) throw new MockControlError(response.status, parsed);
    return parsed as T;
  }

  return {
    /**
     * Back to the seed (and MOCK_FIXTURES): state, idempotency keys, rate-limit window and settings of the token's
     * workspace. The admin client resets every workspace, or the one named.
     */
    reset: (workspace?: string) => call<{ reset: string }>('POST', '/reset', workspace ? { workspace } : {}),
    /** Every workspace and the defaults back to the start (the admin token only). */
    resetAll: () => call<{ reset: string }>('POST', '/reset', { all: true }),
    /** Replaces the given collections of each workspace; nothing loads unless every item matches the contract. A string is sent as YAML. */
    loadFixtures: (fixtures: Fixtures | string) =>
      call<{ loaded: Record<string, Record<string, number>> }>(
        'POST',
        '/fixtures',
        fixtures,
        typeof fixtures === 'string' ? 'application/yaml' : 'application/json',
      ),
    /** What the token's workspace created since start or its last reset (the admin: every workspace's), every page. */
    created: async (workspace?: string) => {
      const all: CreatedEntry[] = [];
      for (let cursor: string | undefined = ''; cursor !== undefined;) {
        const query = new URLSearchParams({ ...(workspace ? { workspace } : {}), ...(cursor ? { cursor } : {}) });
        const page: { created: CreatedEntry[]; next?: string } = await call('GET', `/created?${query}`);
        all.push(...page.created);
        cursor = page.next;
      }
      return all;
    },
    /**
     * What the API answered the token's workspace since start (and requests without a credential): counts per
     * operation × status × outcome, and per operation the stated statuses and job outcomes no answer met. The
     * admin client: every workspace's, or the one named. `formatUsageMarkdown(report)` renders it.
     */
    usage: async (workspace?: string) =>
      (await call<{ usage: UsageReport }>('GET', `/usage${workspace ? `?${new URLSearchParams({ workspace })}` : ''}`))
        .usage,
    /** Counts the token's workspace's answers afresh (the admin client: every workspace's, or the one named). */
    resetUsage: (workspace?: string) => call<{ reset: string }>('POST', '/usage/reset', workspace ? { workspace } : {}),
    settings: async () => (await call<{ settings: MockSettings }>('GET', '/settings')).settings,
    updateSettings: async (change: SettingsChange) =>
      (await call<{ settings: MockSettings }>('PATCH', '/settings', change)).settings,
    /**
     * Runs and batches the token's workspace creates from now on end in `outcome` (after `runDurationMs`, when
     * given); null forgets it. The admin client names the workspace.
     */
    forceOutcome: (outcome: Outcome | null, options: { runDurationMs?: number; workspace?: string } = {}) => {
      const { workspace, runDurationMs } = options;
      const change = { outcome, ...(runDurationMs === undefined ? {} : { runDurationMs }) };
      return call<{ settings: MockSettings }>(
        'PATCH',
        '/settings',
        workspace ? { workspaces: { [workspace]: change } } : change,
      );
    },
    /**
     * Faults for a share of the token's workspace's requests (e.g. `{ operation: 'getRun', fault: 'reset',
     * share: 0.5 }`); replaces its rules. The admin client's rules are the defaults, for every workspace.
     */
    setFaults: (rules: FaultRule[]) => call<{ settings: MockSettings }>('PATCH', '/settings', { faults: rules }),
  };
}

export type MockControl = ReturnType<typeof createMockControl>;

/** One-line set-ups: `beforeEach(() => resetMock(undefined, { token: 'mock-token-a' }))`. */
export const resetMock = (workspace?: string, options?: MockControlOptions) =>
  createMockControl(options).reset(workspace);
export const loadFixtures = (fixtures: Fixtures | string, options?: MockControlOptions) =>
  createMockControl(options).loadFixtures(fixtures);
