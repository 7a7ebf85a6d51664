/**
 * Keys of the mock's state in the storage port. Every key of a workspace begins with `ws:<uuid>:`, so one
 * workspace never reaches another's data (x-rules workspace-scoping); a workspace is seeded behind its marker.
 */
export const WORKSPACE_PREFIX = 'ws:';
export const DOWNLOAD_PREFIX = 'download';
/** Each workspace's claim index of downloads (`downloads:<uuid>:`). */
export const DOWNLOAD_INDEX_PREFIX = 'downloads:';

/** Workspaces a `perWorkspace` value is remembered for at once, at most (all are forgotten when one more comes). */
const WORKSPACES_REMEMBERED = 4096;

/**
 * `make(workspaceUuid)`, made once per workspace and remembered (for at most 4 096 workspaces at once): the keys
 * and names every request of a workspace uses. A text made afresh is joined, flattened and hashed again before a
 * map can look it up; one made once is hashed once.
 */
export function perWorkspace<V>(make: (workspaceUuid: string) => V): (workspaceUuid: string) => V {
  const made = new Map<string, V>();
  return (workspaceUuid) => {
    let value = made.get(workspaceUuid);
    if (value === undefined) {
      if (made.size >= WORKSPACES_REMEMBERED) made.clear();
      made.set(workspaceUuid, (value = make(workspaceUuid)));
    }
    return value;
  };
}

/** Each workspace's keys as made once (`perWorkspace`): every request names a few (its parts, its seed marker). */
const keysOf = perWorkspace(() => new Map<string, string>());

/** The key of one part of a workspace's state (`runs`, `logs`, `runs-created`, …). */
export function workspaceKey(workspaceUuid: string, part: string): string {
  const keys = keysOf(workspaceUuid);
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

/** Where a workspace's export is stored: under the workspace, so one is found only by its owner and reset with it. */
export const downloadKey = (workspaceUuid: string, id: string) => `${DOWNLOAD_PREFIX}:${workspaceUuid}:${id}`;
