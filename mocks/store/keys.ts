/**
 * Keys of the mock's state in the storage port. Every key of a workspace begins with `ws:<uuid>:`, so one
 * workspace never reaches another's data (x-rules workspace-scoping); a workspace is seeded behind its marker.
 */
export const WORKSPACE_PREFIX = 'ws:';
export const DOWNLOAD_PREFIX = 'download';

/** The key of one part of a workspace's state (`runs`, `logs`, `runs-created`, …). */
export const workspaceKey = (workspaceUuid: string, part: string) => `${WORKSPACE_PREFIX}${workspaceUuid}:${part}`;

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
