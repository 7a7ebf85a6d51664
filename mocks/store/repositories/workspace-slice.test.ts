import { createMemoryPort } from '../adapters/memory';
import { markerKey, workspaceKey } from '../keys';
import type { StoragePort } from '../port';
import { createWorkspaceSlice } from './workspace-slice';

const WORKSPACE = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

describe('workspace slice: commits on a workspace another replica seeds meanwhile', () => {
  it('should write a commit whose marker was absent at the commit and present just after (seeded elsewhere)', async () => {
    const port = createMemoryPort();
    const other = createWorkspaceSlice({
      port,
      seed: 1,
      announce: (_ws, writes) => writes,
      beforeRead: () => undefined,
    });
    // This replica's port: its first commit finds the workspace unseeded, and another replica seeds it right then.
    let raced = false;
    const racing: StoragePort = Object.create(port, {
      commit: {
        value: async (...args: Parameters<StoragePort['commit']>) => {
          const committed = await port.commit(...args);
          if (!committed && !raced) {
            raced = true;
            await other.seed(WORKSPACE);
          }
          return committed;
        },
      },
    });
    const slice = createWorkspaceSlice({
      port: racing,
      seed: 1,
      announce: (_ws, writes) => writes,
      beforeRead: () => undefined,
    });
    const key = workspaceKey(WORKSPACE, 'runs');
    expect(await slice.commitWorkspace(WORKSPACE, [{ op: 'hset', key, field: 'created', value: '{}' }])).toBe(true);
    expect(raced).toBe(true);
    const [value, marker] = await port.read([
      { op: 'hget', key, field: 'created' },
      { op: 'get', key: markerKey(WORKSPACE) },
    ] as const);
    expect([value, marker === null]).toEqual(['{}', false]);
  });

  it("should still answer false when one of the caller's guards does not hold", async () => {
    const port = createMemoryPort();
    const slice = createWorkspaceSlice({
      port,
      seed: 1,
      announce: (_ws, writes) => writes,
      beforeRead: () => undefined,
    });
    const key = workspaceKey(WORKSPACE, 'runs');
    const write = [{ op: 'hset' as const, key, field: 'x', value: '{}' }];
    expect(await slice.commitWorkspace(WORKSPACE, write, [{ key, field: 'x', is: 'present' }])).toBe(false);
    expect(await port.read([{ op: 'hget', key, field: 'x' }] as const)).toEqual([null]);
  });
});
