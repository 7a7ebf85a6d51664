/**
 * Keys of the mock's state in the storage port. Every key of a workspace begins with `ws:<uuid>:`, so one
 * workspace never reaches another's data (x-rules workspace-scoping); a workspace is seeded behind its marker.
 */
export const WORKSPACE_PREFIX = 'ws:';
export const DOWNLOAD_PREFIX = 'download';

/** Workspaces whose keys are remembered at once, at most (all are forgotten when one more comes). */
const WORKSPACES_KEYED = 4096;
/**
 * Each workspace's keys as made once: every request names a few (its parts, its seed marker), and a key made
 * afresh is a text to join, flatten and hash again before the store can look it up.
 */
const keysOf = new Map<string, Map<string, string>>();

/** The key of one part of a workspace's state (`runs`, `logs`, `runs-created`, …). */
export function workspaceKey(workspaceUuid: string, part: string): string {
  let keys = keysOf.get(workspaceUuid);
  if (keys === undefined) {
    if (keysOf.size >= WORKSPACES_KEYED) keysOf.clear();
    keysOf.set(workspaceUuid, (keys = new Map()));
  }
  let key = keys.get(part);
  if (key === undefined) {
    key = `${WORKSPACE_PREFIX}${workspaceUuid}:${part}`;
    key.charCodeAt(0); // kept flat (a joined text is a tree of parts until read)
    keys.set(part, key);
  }
  return key;
}

/** The seed marker: present once the workspace is seeded; it holds the seed and the workspace's user. */
export const markerKey = (workspaceUuid: string) => workspaceKey(workspaceUuid, 'seeded');

/** The part of a workspace's key (`runs` of `ws:<uuid>:runs`), or undefined for a key of another workspace. */
export function partOfKey(workspaceUuid: string, key: string): string | undefined {
  // Compared in place: no prefix built per call (every commit of a workspace asks for each of its writes).
  const at = WORKSPACE_PREFIX.length + workspaceUuid.length;
  if (!key.startsWith(WORKSPACE_PREFIX) || !key.startsWith(workspaceUuid, WORKSPACE_PREFIX.length)) return undefined;
  return key.charCodeAt(at) === 58 /* : */ ? key.slice(at + 1) : undefined;
}

export const downloadKey = (id: string) => `${DOWNLOAD_PREFIX}:${id}`;
