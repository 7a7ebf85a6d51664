import { markerKey, WORKSPACE_PREFIX, workspaceKey } from '../keys';
import type { Read } from '../port';
import { OldestFirst } from '../oldest-first';
import { rowsOfListedRuns } from '../runs';
import { decodeEntry, decodeRow } from '../stored-form';
import type { Collection, LogRow, RecordRow, SpanRow, WorkspaceState } from '../types';
import { FIXED_LISTS, HASH_COLLECTIONS, type WorkspaceSlice } from './workspace-slice';

/** Workspaces whose user (see `userUuid`) is remembered at once, at most. */
const KNOWN_USERS = 1024;

/** Workspaces as wholes: who they act as, a copy of their state, and forgetting them (back to the seed). */
export function createWorkspaceRepository(slice: WorkspaceSlice, now: () => number) {
  const { port, readWorkspace } = slice;
  // The user is written with the seed and a reset seeds the same again, so once read it is remembered: a
  // create that names it costs no read.
  const users = new OldestFirst<string>();

  /** Reads of a whole workspace, in one consistent round trip. */
  const wholeReads = (workspaceUuid: string): Read[] => {
    const at = (part: string) => workspaceKey(workspaceUuid, part);
    return [
      { op: 'get', key: at('workspace') },
      ...FIXED_LISTS.map((list): Read => ({ op: 'get', key: at(list) })),
      ...HASH_COLLECTIONS.map((collection): Read => ({ op: 'hgetall', key: at(collection) })),
      ...(['logs', 'records', 'spans', 'runs-created'] as const).map((rows): Read => ({ op: 'list', key: at(rows) })),
    ];
  };

  return {
    /** The user the workspace's static tokens act as, when it is known without a read (read once already). */
    userUuidKnown(workspaceUuid: string): string | undefined {
      return users.get(workspaceUuid);
    },

    /** The user the workspace's static tokens act as. */
    async userUuid(workspaceUuid: string): Promise<string> {
      const known = users.get(workspaceUuid);
      if (known !== undefined) return known;
      const { marker } = await readWorkspace(workspaceUuid, []);
      const user = slice.parseCached<{ userUuid: string }>(markerKey(workspaceUuid), marker).userUuid;
      if (users.size >= KNOWN_USERS) users.dropOldest();
      users.set(workspaceUuid, user);
      return user;
    },

    /** A copy of a workspace's whole state (tests, diagnostics); changing it changes nothing stored. */
    async snapshot(workspaceUuid: string): Promise<WorkspaceState> {
      const { marker, values } = await readWorkspace(workspaceUuid, wholeReads(workspaceUuid));
      const [workspace, ...rest] = values as unknown[];
      const lists = rest.slice(0, FIXED_LISTS.length) as (string | null)[];
      const hashes = rest.slice(FIXED_LISTS.length, FIXED_LISTS.length + HASH_COLLECTIONS.length) as Record<
        string,
        string
      >[];
      const [logs, records, spans, listed] = rest.slice(FIXED_LISTS.length + HASH_COLLECTIONS.length) as string[][];
      const parse = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));
      const hash = (collection: Collection, texts: Record<string, string>) =>
        new Map(
          Object.entries(texts).map(([uuid, text]) => [uuid, decodeEntry(collection, text, workspaceUuid, uuid)]),
        );
      const state = {
        workspaceUuid,
        userUuid: (JSON.parse(marker) as { userUuid: string }).userUuid,
        workspace: parse(workspace as string | null, {}),
        records: records.map((text) => decodeRow<RecordRow>(text, workspaceUuid, 'records')),
      } as WorkspaceState;
      FIXED_LISTS.forEach((list, i) => Object.assign(state, { [list]: parse(lists[i], []) }));
      HASH_COLLECTIONS.forEach((collection, i) => Object.assign(state, { [collection]: hash(collection, hashes[i]) }));
      // The rows kept, then those the created runs show (derived from them, as the SQL tables show them).
      const created = rowsOfListedRuns(listed, state.runs);
      state.logs = [...logs.map((text) => decodeRow<LogRow>(text, workspaceUuid, 'logs')), ...created.logs];
      state.spans = [...spans.map((text) => decodeRow<SpanRow>(text, workspaceUuid, 'spans')), ...created.spans];
      return state;
    },

    /** True for the first caller with this name on the whole store (every replica), false for the others. */
    async markOnce(name: string): Promise<boolean> {
      return port.commit(
        [{ op: 'set', key: `once:${name}`, value: String(now()) }],
        [{ key: `once:${name}`, is: 'absent' }],
      );
    },

    /** Forgets a workspace (or all of them); the next request seeds it afresh. */
    async forgetWorkspace(workspaceUuid?: string): Promise<void> {
      if (workspaceUuid === undefined) users.clear();
      else users.delete(workspaceUuid);
      await port.deleteByPrefix(workspaceUuid === undefined ? WORKSPACE_PREFIX : workspaceKey(workspaceUuid, ''));
    },
  };
}
