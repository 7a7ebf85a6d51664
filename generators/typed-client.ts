/**
 * Typed calls through openapi-fetch, in two parts: by hand, a representative set whose answers are read with their
 * types (enums, nullable fields, nested arrays), and generated, one call per operation of the contract
 * (generated/operation-calls.ts, written by `npm run generate`). `tsc --noEmit` (part of `npm test`) checks both
 * against the generated types, so a spec change that breaks clients becomes a type error here; an operation added to
 * the contract is called by its generated call without an edit here.
 */
import createClient from 'openapi-fetch';
import type { operations, paths } from './generated/openapi';
import { OPERATION_CALLS } from './generated/operation-calls';

export type ApiClient = ReturnType<typeof createClient<paths>>;

export function createApiClient(baseUrl: string, token: string, fetchImpl?: typeof fetch): ApiClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` }, fetch: fetchImpl });
}

const id = '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b';

/** Statuses answered, by the contract's operation id. */
export type Statuses = Partial<Record<keyof operations, number>>;

/** The hand calls and the generated ones, each by operation id. */
export type Calls = { byHand: Statuses; generated: Statuses };

/** Calls every operation: the hand calls, then each operation's generated call. */
export async function callEveryOperation(client: ApiClient): Promise<Calls> {
  const byHand = await callWithTypedAnswers(client);
  const generated: Statuses = {};
  for (const [operationId, call] of Object.entries(OPERATION_CALLS) as Array<
    [keyof operations, (typeof OPERATION_CALLS)[keyof operations]]
  >)
    generated[operationId] = (await call(client)).status;
  return { byHand, generated };
}

/** The representative set: each call's arguments and the fields read from its answer are type-checked. */
export async function callWithTypedAnswers(client: ApiClient): Promise<Statuses> {
  const statuses: Statuses = {};
  // An operation id the contract does not have fails tsc; the test compares the ids called with the contract's.
  const record = (operationId: keyof operations, response: Response) => {
    statuses[operationId] = response.status;
  };

  const suppressions = await client.GET('/mailboxManagement/suppressions', {
    params: { query: { reasons: ['bounced', 'manual'], limit: 10, offset: 0 } },
  });
  const firstEmail: string | undefined = suppressions.data?.suppressions?.[0]?.email;
  void firstEmail;
  record('listSuppressions', suppressions.response);

  const mcp = await client.POST('/ai/mcpServers', {
    params: { header: { 'Idempotency-Key': 'typed-client-1' } },
    body: {
      name: 'typed client',
      description: 'created by the typed client check',
      actions: [{ kind: 'tool', name: 'search', waitUntilFinished: true }],
      resources: [{ kind: 'model', name: 'accounts', filter: { groups: [] } }],
      capabilities: [{ slug: 'sandbox', config: { scope: 'chat' } }],
      folderUuid: id,
    },
  });
  const mcpName: string | null | undefined = mcp.data?.mcpServer?.name;
  void mcpName;
  record('createMcpServer', mcp.response);

  const download = await client.POST('/orchestration/runs/download', {
    body: { statuses: ['success', 'error'], isFinished: true, workflowUuid: id },
  });
  const url: string | null | undefined = download.data?.url;
  void url;
  record('downloadRuns', download.response);

  const workspace = await client.PUT('/workspaceManagement/workspaces/current', {
    body: { name: 'Acme', logoBase64: null, defaultRoleUuid: null, allowedLoginProviders: ['email', 'single-sign-on'] },
  });
  const providers:
    ('email' | 'social-oauth2' | 'enterprise-directory' | 'single-sign-on' | 'agent-identity')[] | null | undefined =
    workspace.data?.workspace?.allowedLoginProviders;
  void providers;
  record('updateCurrentWorkspace', workspace.response);

  const query = await client.POST('/orchestration/query', { body: { query: 'SELECT uuid FROM runs LIMIT 1' } });
  const rows: Record<string, unknown>[] | null | undefined = query.data?.rows;
  void rows;
  record('executeQuery', query.response);

  const workflow = await client.GET('/orchestration/workflows/{uuid}', { params: { path: { uuid: id } } });
  void workflow.data?.workflow?.deployedRelease?.nodes?.[0]?.retry?.maximumAttempts;
  record('getWorkflow', workflow.response);

  const model = await client.GET('/storage/models/{uuid}', { params: { path: { uuid: id } } });
  void model.data?.model?.columns?.[0]?.slug;
  record('getModel', model.response);

  const domain = await client.DELETE('/domainManagement/domains/{uuid}', { params: { path: { uuid: id } } });
  const credits: number | null | undefined = domain.data?.domain?.priceCredits;
  void credits;
  record('cancelDomain', domain.response);

  const allocations = await client.GET('/revenueOrganization/allocations/list', {
    params: { query: { memberUuids: ['m-1'], capacityUuid: id, limit: 5, offset: 0 } },
  });
  void allocations.data?.allocations?.[0]?.allocatedBy?.allocator;
  record('listAllocations', allocations.response);

  const recipes = await client.GET('/expression/recipes/list', {
    params: {
      query: {
        uiTypes: ['ai'],
        tab: 'favorites',
        categories: ['sales', 'cleaning'],
        name: 'clean',
        limit: 5,
        offset: 0,
      },
    },
  });
  void recipes.data?.recipes?.[0]?.placeholders?.[0]?.slug;
  record('listRecipes', recipes.response);

  // Provisional operations (the async pattern).
  const created = await client.POST('/orchestration/runs', {
    params: { header: { 'Idempotency-Key': 'typed-client-run' } },
    body: { workflowUuid: id, waitUntilFinished: false },
  });
  const runStatus:
    'idle' | 'pending' | 'running' | 'success' | 'error' | 'cancelling' | 'cancelled' | 'skipped' | undefined =
    created.data?.run?.status;
  void runStatus;
  record('createRun', created.response);

  const batch = await client.POST('/orchestration/batches', { body: { workflowUuid: id, recordIds: ['r-1'] } });
  void batch.data?.batch?.status;
  record('createBatch', batch.response);

  return statuses;
}
