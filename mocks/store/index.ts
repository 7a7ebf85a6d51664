import { randomUUID } from 'node:crypto';
import { seedWorkspace } from './seed';
import { runsOfBatch, viewBatch, viewRun, type RunView } from './runs';
import type { WorkspaceState } from './types';

export type QueryTablesRows = { runs: object[]; batches: object[]; logs: object[]; records: object[]; spans: object[] };
export type Download = { workspaceUuid: string; runs: RunView[]; createdAtMs: number };

/** Downloads kept at once; the oldest go first, so the store stays bounded. */
const DOWNLOAD_CAP = 1_000;

/**
 * Plain in-memory state, one slice per workspace, seeded from MOCK_SEED on first use. Every read and write
 * goes through `workspace(uuid)`, so one workspace never reaches another's data (x-rules workspace-scoping).
 */
export function createStore(options: { seed: number; now: () => number }) {
  const workspaces = new Map<string, WorkspaceState>();
  const downloads = new Map<string, Download>();

  const workspace = (workspaceUuid: string): WorkspaceState => {
    let state = workspaces.get(workspaceUuid);
    if (!state) workspaces.set(workspaceUuid, (state = seedWorkspace(workspaceUuid, options.seed)));
    return state;
  };

  return {
    workspace,
    /** Rows for the SQL engine: one per entity, camelCase columns, booleans as 0/1, statuses as of now. */
    readQueryTables(workspaceUuid: string): QueryTablesRows {
      const state = workspace(workspaceUuid);
      const now = options.now();
      return {
        runs: [...state.runs.values()].map((run) => {
          const view = viewRun(run, now);
          return { ...view, isGroupParent: view.isGroupParent ? 1 : 0 };
        }),
        batches: [...state.batches.values()].map((batch) => {
          const { errorMessage: _ignored, ...row } = viewBatch(batch, now, runsOfBatch(state, batch));
          return row;
        }),
        logs: state.logs,
        records: state.records,
        spans: state.spans,
      };
    },
    saveDownload(download: Download): string {
      const id = randomUUID();
      downloads.set(id, download);
      for (const key of downloads.keys()) {
        if (downloads.size <= DOWNLOAD_CAP) break;
        downloads.delete(key);
      }
      return id;
    },
    getDownload(id: string): Download | undefined {
      return downloads.get(id);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
