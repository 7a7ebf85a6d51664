import { STORE_LIMITS } from '../limits';
import { createQueryChangeFeed, createQueryTablesReader } from './change-feed';
import type { StoragePort } from './port';
import { createCreatedListing } from './repositories/created';
import { createDownloadRepository } from './repositories/downloads';
import { createFixtureRepository } from './repositories/fixtures';
import { createResourceRepository } from './repositories/resources';
import { createRunExpiry } from './repositories/run-expiry';
import { createRunRepository } from './repositories/runs-and-batches';
import { createWorkspaceRepository } from './repositories/workspaces';
import { createWorkspaceSlice } from './repositories/workspace-slice';
import type { StoreLimits } from './types';

export type { QueryChangeListener, QueryTablesRows } from './change-feed';
export type { CreatedEntry, CreatedPage } from './repositories/created';
export { CREATED_PAGE, parseCreatedCursor } from './repositories/created';
export type { Download } from './repositories/downloads';
export { UnstorableFixtureError } from './repositories/fixtures';
export type { Collection, StoreLimits, WorkspaceFixture } from './types';

export const DEFAULT_STORE_LIMITS: StoreLimits = {
  runsPerWorkspace: 100_000,
  batchesPerWorkspace: 10_000,
  runTtlMs: 24 * 60 * 60 * 1000,
  mcpServersPerWorkspace: 1_000,
  downloadsPerWorkspace: 1_000,
  downloadTtlMs: 60 * 60 * 1000,
  downloadBytesPerWorkspace: STORE_LIMITS.downloadBytesPerWorkspace,
  mcpServerBytesPerWorkspace: STORE_LIMITS.mcpServerBytesPerWorkspace,
};

/**
 * The mock's state, one slice per workspace, kept in the storage port (memory or Redis) so every replica sees
 * the same, in rooms: one repository per aggregate (`repositories/`: workspaces, resources, runs and batches
 * with their age bound, downloads, fixtures, the created listing) over one workspace slice (seed on first read,
 * guarded commits), whose commits pass through the SQL change feed (`mocks/store/change-feed.ts`). Changes are
 * atomic in the port: new entries in one guarded batch, edits by compare-and-set, removals guarded by presence.
 * This function only wires the rooms together; the store it returns is their union.
 */
export function createStore(options: {
  port: StoragePort;
  seed: number;
  now: () => number;
  limits?: Partial<StoreLimits>;
}) {
  const { port, now } = options;
  const limits: StoreLimits = { ...DEFAULT_STORE_LIMITS, ...options.limits };
  const feed = createQueryChangeFeed();
  const expiry = createRunExpiry({
    port,
    now,
    runTtlMs: limits.runTtlMs,
    commitAnnounced: (workspaceUuid, changes, guards) => slice.commitAnnounced(workspaceUuid, changes, guards),
  });
  const slice = createWorkspaceSlice({
    port,
    seed: options.seed,
    announce: feed.announce,
    beforeRead: expiry.expireDue,
  });
  const workspaces = createWorkspaceRepository(slice, now);
  const downloads = createDownloadRepository(port, limits);
  const resources = createResourceRepository(slice, limits);
  return {
    port,
    ...workspaces,
    ...resources,
    ...createRunRepository(slice, limits),
    ...createFixtureRepository(slice),
    ...createCreatedListing(slice, now),
    ...downloads,
    ...createQueryTablesReader({ readWorkspace: slice.readWorkspace, now, feed }),

    /** Back to the seed: one workspace with its downloads, or every workspace and download. */
    async reset(workspaceUuid?: string): Promise<void> {
      await workspaces.forgetWorkspace(workspaceUuid);
      resources.forgetMcpServerBytes(workspaceUuid);
      await downloads.clearDownloads(workspaceUuid);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
