import { describeSchemaError, loadContract } from '../../spec/lib';
import { WORKSPACE_A, WORKSPACE_B } from '../config';
import { createStore } from '.';
import { createMemoryPort } from './adapters/memory';
import { seedWorkspace } from './seed';
import { viewBatch, viewRun } from './runs';
import { defined } from '../testing/defined';

describe('seed data', () => {
  it('should be the same for the same seed and differ for another seed', () => {
    expect(JSON.stringify(serialisable(seedWorkspace(WORKSPACE_A, 7)))).toBe(
      JSON.stringify(serialisable(seedWorkspace(WORKSPACE_A, 7))),
    );
    expect(JSON.stringify(serialisable(seedWorkspace(WORKSPACE_A, 8)))).not.toBe(
      JSON.stringify(serialisable(seedWorkspace(WORKSPACE_A, 7))),
    );
  });

  it.each([WORKSPACE_A, WORKSPACE_B])(
    'should validate against the spec for every resource of workspace %s',
    async (workspaceUuid) => {
      const compiler = loadContract().schemas();
      const state = seedWorkspace(workspaceUuid, 1);
      const check = (schema: string, values: unknown[]) => {
        const validate = compiler.at(`#/components/schemas/${schema}`);
        for (const value of values) {
          if (!validate(value))
            throw new Error(
              `${schema}: ${describeSchemaError(defined(validate.errors, 'validate.errors')[0], '')} in ${JSON.stringify(value).slice(0, 200)}`,
            );
        }
      };
      check('Suppression', state.suppressions);
      check('McpServer', [...state.mcpServers.values()]);
      check('Workflow', [...state.workflows.values()]);
      check('Model', [...state.models.values()]);
      check('Domain', [...state.domains.values()]);
      check(
        'Allocation',
        state.allocations.map((a) => a.allocation),
      );
      check('EnvironmentVariable', [...state.envVars.values()]);
      check(
        'Recipe',
        state.recipes.map((r) => r.recipe),
      );
      check('Workspace', [state.workspace]);
      check(
        'Run',
        [...state.runs.values()].map((r) => viewRun(r, Date.now())),
      );
      check(
        'Batch',
        [...state.batches.values()].map((b) => viewBatch(b, Date.now())),
      );
      const tables = await createStore({ port: createMemoryPort(), seed: 1, now: Date.now }).readQueryTables(
        workspaceUuid,
      );
      check('QueryRunRow', tables.runs);
      check('QueryBatchRow', tables.batches);
      check('QueryLogRow', tables.logs);
      check('QueryRecordRow', tables.records);
      check('QuerySpanRow', tables.spans);
    },
  );

  it('should scope every seeded row to its workspace', async () => {
    const tables = await createStore({ port: createMemoryPort(), seed: 1, now: Date.now }).readQueryTables(WORKSPACE_B);
    for (const rows of Object.values(tables))
      expect(rows.every((row) => (row as { workspaceUuid: string }).workspaceUuid === WORKSPACE_B)).toBe(true);
  });
});

function serialisable(state: ReturnType<typeof seedWorkspace>) {
  return Object.fromEntries(Object.entries(state).map(([k, v]) => [k, v instanceof Map ? [...v.entries()] : v]));
}
