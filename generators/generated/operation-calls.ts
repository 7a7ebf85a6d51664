/**
 * Generated from spec/openapi.yaml by `npm run generate` (generators/operation-calls.ts). Do not edit.
 * One call per operation through openapi-fetch, its path, required parameters and body typed against
 * ./openapi: `npm run typecheck` proves every operation callable, and the table misses none (typed over
 * `operations`). generators/typed-client.ts runs them.
 */
import type createClient from 'openapi-fetch';
import type { operations, paths } from './openapi';

type Client = ReturnType<typeof createClient<paths>>;

const ID = "3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b";

/** Each operation called once with what it requires; resolves to the response. */
export const OPERATION_CALLS: { [K in keyof operations]: (client: Client) => Promise<Response> } = {
  listSuppressions: async (client) => (await client.GET("/mailboxManagement/suppressions")).response,
  createMcpServer: async (client) => (await client.POST("/ai/mcpServers", { body: {} })).response,
  downloadRuns: async (client) => (await client.POST("/orchestration/runs/download", { body: {} })).response,
  updateCurrentWorkspace: async (client) => (await client.PUT("/workspaceManagement/workspaces/current", { body: {} })).response,
  executeQuery: async (client) => (await client.POST("/orchestration/query", { body: { query: '' } })).response,
  getWorkflow: async (client) => (await client.GET("/orchestration/workflows/{uuid}", { params: { path: { uuid: ID } } })).response,
  getModel: async (client) => (await client.GET("/storage/models/{uuid}", { params: { path: { uuid: ID } } })).response,
  cancelDomain: async (client) => (await client.DELETE("/domainManagement/domains/{uuid}", { params: { path: { uuid: ID } } })).response,
  listAllocations: async (client) => (await client.GET("/revenueOrganization/allocations/list")).response,
  removeEnvironmentVariable: async (client) => (await client.DELETE("/workspaceManagement/env-vars/{uuid}", { params: { path: { uuid: ID } } })).response,
  listRecipes: async (client) => (await client.GET("/expression/recipes/list")).response,
  createRun: async (client) => (await client.POST("/orchestration/runs", { body: {} })).response,
  getRun: async (client) => (await client.GET("/orchestration/runs/{uuid}", { params: { path: { uuid: ID } } })).response,
  cancelRun: async (client) => (await client.POST("/orchestration/runs/{uuid}/cancel", { params: { path: { uuid: ID } } })).response,
  createBatch: async (client) => (await client.POST("/orchestration/batches", { body: {} })).response,
  getBatch: async (client) => (await client.GET("/orchestration/batches/{uuid}", { params: { path: { uuid: ID } } })).response,
};
