/**
 * The shape of a fixture document (`POST /__mock/fixtures`, `MOCK_FIXTURES`), as the mock accepts it: every item
 * is the contract's schema, its required fields required, except what the mock fills in when an item leaves it
 * out (its `uuid`, and the `workspaceUuid` of the workspace it is loaded into). Standalone (it imports only the
 * generated types), so the package can export it as `./fixtures`.
 */
import type { components } from '../../generators/generated/openapi';

type Schemas = components['schemas'];

/** The recipe filters of listRecipes (uiTypes, categories) read these two fields. */
export const RECIPE_UI_TYPES = ['ai', 'js'] as const;
export const RECIPE_CATEGORIES = [
  'other',
  'classification',
  'cleaning',
  'marketing',
  'sales',
  'event',
  'copywriting',
] as const;

/** `T` with the fields `K` optional: those the mock fills in when a fixture item leaves them out. */
export type FixtureItem<T, K extends PropertyKey> = Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>>;

/** An item of a collection the workspace owns by `workspaceUuid`: both it and `uuid` may be left out. */
type Owned<T> = FixtureItem<T, 'uuid' | 'workspaceUuid'>;

export type WorkspaceFixtures = {
  /** Fields of the workspace itself; its `uuid` is the workspace's. */
  workspace?: FixtureItem<Schemas['Workspace'], 'uuid'>;
  suppressions?: Owned<Schemas['Suppression']>[];
  mcpServers?: Owned<Schemas['McpServer']>[];
  workflows?: Owned<Schemas['Workflow']>[];
  models?: Owned<Schemas['Model']>[];
  domains?: Owned<Schemas['Domain']>[];
  /** `territoryUuid`: the allocation's territory, which the list's filter reads. */
  allocations?: (Owned<Schemas['Allocation']> & { territoryUuid?: string })[];
  envVars?: FixtureItem<Schemas['EnvironmentVariable'], 'uuid'>[];
  /** `uiType` (default `js`) and `category` (default `other`): what the list's filters read. */
  recipes?: (Owned<Schemas['Recipe']> & {
    uiType?: (typeof RECIPE_UI_TYPES)[number];
    category?: (typeof RECIPE_CATEGORIES)[number];
  })[];
  /** Runs keep the status given (default `success`). */
  runs?: FixtureItem<Schemas['Run'], 'uuid'>[];
  batches?: FixtureItem<Schemas['Batch'], 'uuid'>[];
};

/** Workspaces by token (`mock-token-a`) or uuid; each collection given replaces the seeded one. */
export type Fixtures = { workspaces: Record<string, WorkspaceFixtures> };
