import { workspaceKey } from '../keys';
import type { Write } from '../port';
import type { WorkspaceFixture } from '../types';
import { encodeEntry } from '../stored-form';
import { FIXED_LISTS, HASH_COLLECTIONS, type WorkspaceSlice } from './workspace-slice';

/** Collections whose created entries are listed: a fixture that replaces them forgets what was created. */
const LISTED = new Set<string>(['mcpServers', 'runs', 'batches']);

/** The writes that replace the given collections of one workspace (serialised here, before any commit). */
function fixtureWrites(workspaceUuid: string, fixture: WorkspaceFixture): Write[] {
  const at = (part: string) => workspaceKey(workspaceUuid, part);
  const writes: Write[] = [];
  if (fixture.workspace)
    writes.push({
      op: 'set',
      key: at('workspace'),
      value: JSON.stringify({ ...fixture.workspace, uuid: workspaceUuid }),
    });
  for (const list of FIXED_LISTS)
    if (fixture[list]) writes.push({ op: 'set', key: at(list), value: JSON.stringify(fixture[list]) });
  for (const collection of HASH_COLLECTIONS) {
    const entries = fixture[collection] as Map<string, unknown> | undefined;
    if (!entries) continue;
    writes.push({ op: 'delete', key: at(collection) });
    if (LISTED.has(collection)) writes.push({ op: 'delete', key: at(`${collection}-created`) });
    for (const [uuid, value] of entries)
      writes.push({
        op: 'hset',
        key: at(collection),
        field: uuid,
        value: encodeEntry(collection, value, workspaceUuid, uuid),
      });
  }
  return writes;
}

/** A fixture whose data cannot be stored (nested deeper than serialising goes): nothing of its set was applied. */
export class UnstorableFixtureError extends Error {
  constructor(workspaceUuid: string, cause: unknown) {
    super(
      `workspaces.${workspaceUuid}: cannot be stored (${cause instanceof Error ? cause.message : String(cause)}); nothing was loaded.`,
    );
    this.name = 'UnstorableFixtureError';
  }
}

/**
 * Fixtures: what a fixture holds is seeded data (not listed as created; the caps on created entries never drop
 * it). A set of workspaces is applied all or nothing: every workspace's writes are built (and serialised) before
 * anything is written, then committed in one guarded commit over all of them, so a set that cannot be stored
 * whole, or a store that fails on the way, leaves every workspace as it was.
 */
export function createFixtureRepository(slice: WorkspaceSlice) {
  const applyFixtures = async (fixtures: ReadonlyMap<string, WorkspaceFixture>): Promise<void> => {
    const changes = new Map<string, Write[]>();
    for (const [workspaceUuid, fixture] of fixtures) {
      try {
        changes.set(workspaceUuid, fixtureWrites(workspaceUuid, fixture));
      } catch (error) {
        throw new UnstorableFixtureError(workspaceUuid, error);
      }
    }
    if (changes.size === 0) return;
    await slice.ensureSeeded(changes.keys());
    if (!(await slice.commitWorkspaces(changes))) throw new Error('applyFixtures: the workspaces changed meanwhile');
  };
  return {
    applyFixtures,
    /** Replaces the given collections of one workspace in one commit. */
    applyFixture: (workspaceUuid: string, fixture: WorkspaceFixture) =>
      applyFixtures(new Map([[workspaceUuid, fixture]])),
  };
}
