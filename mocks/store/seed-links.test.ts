import { WORKSPACE_A, WORKSPACE_B } from '../config';
import { defaultAuthConfig } from '../oauth';
import { seedWorkspace } from './seed';
import { defined } from '../testing/defined';

describe('seed links (every id the seed mentions resolves)', () => {
  const states = [seedWorkspace(WORKSPACE_A, 1), seedWorkspace(WORKSPACE_B, 1), seedWorkspace(WORKSPACE_A, 42)];

  it.each(states.map((s, i) => [i, s] as const))(
    'should point lastBatch, lastRun and workflowRunUuid at seeded batches and runs (%i)',
    (_i, state) => {
      for (const workflow of state.workflows.values()) {
        const lastBatch = workflow.lastBatch as { uuid: string; status: string };
        expect(state.batches.get(lastBatch.uuid)?.workflowUuid).toBe(workflow.uuid);
      }
      for (const model of state.models.values()) {
        const lastRun = model.lastRun as { uuid: string };
        const run = defined(state.runs.get(lastRun.uuid), 'state.runs.get(lastRun.uuid)');
        expect(state.records.find((record) => record.id === run.recordId)?.modelUuid).toBe(model.uuid);
      }
      for (const { allocation } of state.allocations) {
        const by = allocation.allocatedBy as { workflowRunUuid: string; workflowUuid: string; recordId: string };
        expect(state.runs.get(by.workflowRunUuid)?.workflowUuid).toBe(by.workflowUuid);
        expect(state.records.map((record) => record.id)).toContain(by.recordId);
      }
    },
  );

  it('should name recipe authors as the OAuth user (own recipes) or a few varied colleagues', () => {
    for (const [state, user] of [
      [states[0], defaultAuthConfig.users[0]],
      [states[1], defaultAuthConfig.users[1]],
    ] as const) {
      const own = state.recipes
        .filter((r) => r.recipe.userUuid === state.userUuid)
        .map((r) => `${r.recipe.userFirstName} ${r.recipe.userLastName}`);
      expect(new Set(own)).toEqual(new Set([user.name]));
      const others = state.recipes.filter((r) => r.recipe.userUuid !== state.userUuid);
      const names = new Set(others.map((r) => `${r.recipe.userFirstName} ${r.recipe.userLastName}`));
      expect(names.size).toBeGreaterThan(1);
      expect(new Set(others.map((r) => r.recipe.userUuid)).size).toBe(names.size);
    }
  });

  it('should show the fields the recipe filters read', () => {
    for (const entry of states[0].recipes)
      expect(entry.recipe).toMatchObject({ uiType: entry.uiType, category: entry.category });
  });
});
