/**
 * The README's frontend flows, as a frontend runs them with openapi-fetch and the control client: a keyed create
 * and its replay, a run polled to its terminal status, an outcome forced through the control object, and a 429
 * with Retry-After. `setup-server.spec.ts` (Vitest, `setupServer`) and the browser app (`browser/`,
 * `setupWorker`) run these same flows against the in-process engine.
 */
import createClient from 'openapi-fetch';
import type { paths } from 'workspace-automation-api-contract/types';
import type { createMockControl } from 'workspace-automation-api-contract/control';

type MockControl = ReturnType<typeof createMockControl>;
type Api = ReturnType<typeof createClient<paths>>;

export type FlowResults = {
  keyedCreate: { status: number; replayStatus: number; sameServer: boolean };
  polledRun: { status: number; location: string; seen: string[]; final: string };
  forcedOutcome: { final: string };
  rateLimited: { status: number; retryAfter: string | null; bodyRetryAfter: unknown; reason: unknown };
};

const TERMINAL = new Set(['success', 'error', 'cancelled', 'skipped']);

/** GET the run until its status is terminal (every `pollMs`), listing the statuses seen. */
async function pollRun(api: Api, uuid: string, pollMs: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 200; i++) {
    const { data } = await api.GET('/orchestration/runs/{uuid}', { params: { path: { uuid } } });
    const status = data?.run?.status ?? 'unknown';
    if (seen.at(-1) !== status) seen.push(status);
    if (TERMINAL.has(status)) return seen;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`run ${uuid} never ended: ${seen.join(' → ')}`);
}

export async function runFrontendFlows(baseUrl: string, control: MockControl, pollMs = 25): Promise<FlowResults> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer mock-token-a' } });
  await control.reset();

  // A keyed create, then the same request again (a retry after a lost answer): the first answer replayed.
  const key = `create-${Date.now()}`;
  const body = { name: 'docs', description: 'The docs server', url: 'https://mcp.example.com/docs' };
  const first = await api.POST('/ai/mcpServers', { body, params: { header: { 'Idempotency-Key': key } } });
  const replay = await api.POST('/ai/mcpServers', { body, params: { header: { 'Idempotency-Key': key } } });
  const keyedCreate = {
    status: first.response.status,
    replayStatus: replay.response.status,
    sameServer: first.data?.mcpServer?.uuid !== undefined && first.data.mcpServer.uuid === replay.data?.mcpServer?.uuid,
  };

  // A run: 202 with a Location, polled to its terminal status.
  const created = await api.POST('/orchestration/runs', { body: {} });
  const uuid = created.data?.run?.uuid ?? '';
  const seen = await pollRun(api, uuid, pollMs);
  const polledRun = {
    status: created.response.status,
    location: created.response.headers.get('location') ?? '',
    seen,
    final: seen.at(-1) ?? '',
  };

  // The control object forces the outcome of the runs this workspace creates next.
  await control.forceOutcome('error');
  const forced = await api.POST('/orchestration/runs', { body: {} });
  const forcedOutcome = { final: (await pollRun(api, forced.data?.run?.uuid ?? '', pollMs)).at(-1) ?? '' };
  await control.forceOutcome(null);

  // Past the workspace's limit: 429 with Retry-After (and retryAfter in the error body).
  let rateLimited: FlowResults['rateLimited'] = { status: 0, retryAfter: null, bodyRetryAfter: null, reason: null };
  for (let i = 0; i < 100 && rateLimited.status !== 429; i++) {
    const { response, error } = await api.GET('/mailboxManagement/suppressions');
    const refusal = error as { retryAfter?: unknown; reason?: unknown } | undefined;
    rateLimited = {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      bodyRetryAfter: refusal?.retryAfter ?? null,
      reason: refusal?.reason ?? null,
    };
  }
  await control.reset(); // the window starts again for whatever runs next
  return { keyedCreate, polledRun, forcedOutcome, rateLimited };
}
