import type { Database } from 'sql.js';
import { track } from './apply-ops';
import {
  closeDb,
  createWorkspaceIndexes,
  createWorkspaceTables,
  messageOf,
  putRows,
  refresh,
  type WorkspaceDb,
} from './database';
import type { LoadMessage, WorkerAnswer } from './messages';

/** Databases being loaded, by workspace, with the first error met while their rows went in. */
export type Loading = Map<string, { wdb: WorkspaceDb; error?: unknown }>;

function beginLoad(open: () => Database, dbs: Map<string, WorkspaceDb>, loading: Loading, workspace: string): void {
  const previous = dbs.get(workspace) ?? loading.get(workspace)?.wdb;
  if (previous) closeDb(previous);
  dbs.delete(workspace);
  const db = open();
  const entry: { wdb: WorkspaceDb; error?: unknown } = {
    wdb: { db, workspace, clockAt: 0, created: new Map(), statements: new Map() },
  };
  loading.set(workspace, entry);
  try {
    createWorkspaceTables(db, workspace);
    db.run('BEGIN');
  } catch (error) {
    entry.error = error;
  }
}

/**
 * Builds a workspace's database from a snapshot sent in chunks (so the sending thread never stalls on one huge
 * message): the rows go in first, then the timed columns are computed and the indexes built once over them.
 * Answers the `load-end` only.
 */
export function load(
  open: () => Database,
  dbs: Map<string, WorkspaceDb>,
  loading: Loading,
  message: LoadMessage,
): WorkerAnswer | undefined {
  if (message.type === 'load-begin') {
    beginLoad(open, dbs, loading, message.workspace);
    return undefined;
  }
  const entry = loading.get(message.workspace);
  if (!entry) return message.type === 'load-end' ? { id: message.id, stale: true } : undefined;
  const { wdb } = entry;
  if (message.type === 'load-rows') {
    if (entry.error !== undefined) return undefined;
    try {
      putRows(wdb, message.table, message.rows);
    } catch (error) {
      entry.error = error;
    }
    return undefined;
  }
  loading.delete(message.workspace);
  try {
    if (entry.error !== undefined) throw entry.error;
    for (const [list, uuids] of Object.entries(message.created || {})) track(wdb, list, uuids, undefined);
    wdb.clockAt = message.now;
    refresh(wdb, message.now, true);
    createWorkspaceIndexes(wdb.db);
    wdb.db.run('COMMIT');
  } catch (error) {
    closeDb(wdb);
    return { id: message.id, ok: false, reason: 'internal_error', message: messageOf(error) };
  }
  dbs.set(message.workspace, wdb);
  return { id: message.id, loaded: true };
}
